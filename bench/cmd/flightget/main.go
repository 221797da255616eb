// Command flightget is the Flight client of scripts/bench-flight: a
// consumer of a shuffle that `rowbridge serve` serves, as an engine in Go
// would be one. It reads every partition of one shuffle, in partition
// order (each partition's DoGet started while the one before it is read),
// and decodes every message into record batches with arrow-go's IPC
// reader (shuffleflight.NewRecordReader: arrow-go's flight.NewRecordReader,
// but each message's body goes back to the client's pool once its batches
// are released), then releases them:
//
//	flightget [--shuffle N] [--max-message-size BYTES] [--reader rowbridge|arrow] [--validate] [--cpuprofile FILE] grpc://HOST:PORT
//
// --reader arrow reads with arrow-go's flight.NewRecordReader instead
// (every body left to the garbage collector).
// It prints one line, rows=N batches=N, on standard output. --validate
// checks every batch with array.ValidateFull (for the benchmark's check
// run, not for its timed runs: a consumer reads the data, it does not
// audit it). --cpuprofile writes a CPU profile of the whole read.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"runtime/pprof"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "flightget:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("flightget", flag.ContinueOnError)
	shuffle := fs.Int("shuffle", 0, "shuffle id")
	maxMessage := fs.Int("max-message-size", shuffleflight.DefaultMaxMessageSize, "largest gRPC message accepted, in bytes")
	validate := fs.Bool("validate", false, "check every batch with array.ValidateFull")
	reader := fs.String("reader", "rowbridge", "rowbridge (shuffleflight.NewRecordReader) or arrow (flight.NewRecordReader)")
	profile := fs.String("cpuprofile", "", "write a CPU profile here")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *reader != "rowbridge" && *reader != "arrow" {
		return fmt.Errorf("--reader %q: want rowbridge or arrow", *reader)
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("want one address, grpc://HOST:PORT")
	}
	u, err := url.Parse(fs.Arg(0))
	if err != nil || u.Scheme != "grpc" || u.Host == "" {
		return fmt.Errorf("%q: want grpc://HOST:PORT", fs.Arg(0))
	}
	opts := append(shuffleflight.DialOptions(*maxMessage), grpc.WithTransportCredentials(insecure.NewCredentials()))
	client, err := flight.NewClientWithMiddleware(u.Host, nil, nil, opts...)
	if err != nil {
		return err
	}
	defer client.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	info, err := client.GetFlightInfo(ctx, shuffleflight.Descriptor(*shuffle))
	if err != nil {
		return err
	}
	c := consumer{validate: *validate, arrow: *reader == "arrow"}
	endpoints := info.GetEndpoint()
	var next flight.FlightService_DoGetClient
	for i := range endpoints {
		cur := next
		if cur == nil {
			if cur, err = client.DoGet(ctx, endpoints[i].GetTicket()); err != nil {
				return err
			}
		}
		next = nil
		if i+1 < len(endpoints) {
			if next, err = client.DoGet(ctx, endpoints[i+1].GetTicket()); err != nil {
				return err
			}
		}
		if err := c.read(cur); err != nil {
			return fmt.Errorf("partition %d: %w", i, err)
		}
	}
	_, err = fmt.Fprintf(stdout, "rows=%d batches=%d\n", c.rows, c.batches)
	return err
}

// consumer counts what it decodes.
type consumer struct {
	validate      bool
	arrow         bool // flight.NewRecordReader
	rows, batches int64
}

// read decodes one DoGet stream's batches.
func (c *consumer) read(stream flight.FlightService_DoGetClient) error {
	var r interface {
		Next() bool
		RecordBatch() arrow.RecordBatch
		Err() error
		Release()
	}
	var err error
	if c.arrow {
		r, err = flight.NewRecordReader(stream, ipc.WithAllocator(memory.DefaultAllocator))
	} else {
		r, err = shuffleflight.NewRecordReader(stream, ipc.WithAllocator(memory.DefaultAllocator))
	}
	if err != nil {
		return err
	}
	defer r.Release()
	for r.Next() {
		rec := r.RecordBatch()
		if c.validate {
			for i, col := range rec.Columns() {
				if err := array.ValidateFull(col); err != nil {
					return fmt.Errorf("batch %d, column %d: %w", c.batches, i, err)
				}
			}
		}
		c.rows += rec.NumRows()
		c.batches++
	}
	if err := r.Err(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}
