package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// The fetch command is the client of serve: it reads partitions of a
// served shuffle over Arrow Flight and writes them as shuffle decode does.
func init() {
	register(&command{
		name:    "fetch",
		summary: "read partitions of a shuffle that 'rowbridge serve' (or any Flight server of shuffles) serves, into Arrow IPC or JSON lines",
		usage:   "[--shuffle N] [--partition P | --partitions A-B] [--token T|@FILE] [--to arrow-stream|arrow-file|jsonl] [-o OUT] [--max-message-size BYTES] grpc://HOST:PORT",
		examples: []string{
			`rowbridge fetch --partition 0 --to jsonl grpc://127.0.0.1:8815`,
			`rowbridge fetch --shuffle 3 --partitions 0-7 --token @token -o part0-7.arrow grpc://spark-node-4:8815`,
		},
		flags: fetchFlags,
	})
}

func fetchFlags(fs *flag.FlagSet) func(*env, []string) error {
	var (
		partitions, token, to, out string
		shuffle, partition         optionalID
		maxMessage                 int
	)
	fs.Var(&shuffle, "shuffle", "shuffle `id` (may be omitted when the server serves one shuffle only)")
	fs.Var(&partition, "partition", "read reduce partition `P` only")
	fs.StringVar(&partitions, "partitions", "", "read reduce partitions A to B, both included (A-B; default every partition)")
	fs.StringVar(&token, "token", "", "send \"authorization: Bearer `T`\" on every call; @FILE reads it from the file's first line")
	fs.StringVar(&to, "to", toArrowStream, "output: arrow-stream, arrow-file or jsonl")
	fs.StringVar(&out, "o", "", "output file (default stdout); a file there is replaced only when the command succeeds")
	fs.IntVar(&maxMessage, "max-message-size", shuffleflight.DefaultMaxMessageSize, "largest gRPC message accepted, in bytes (the server's --max-message-size)")
	return func(e *env, args []string) error {
		if len(args) != 1 {
			return usagef("want one server address, grpc://HOST:PORT (got %d arguments)", len(args))
		}
		addr, err := flightAddr(args[0])
		if err != nil {
			return err
		}
		sel, err := selectPartitions(fs, partition, partitions)
		if err != nil {
			return err
		}
		if err := checkMaxMessage(maxMessage); err != nil {
			return err
		}
		tok, err := readToken(token, flagSet(fs, "token"))
		if err != nil {
			return err
		}
		sink, err := openSink(e, to, out)
		if err != nil {
			return err
		}
		ctx := context.Background()
		if tok != "" {
			ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+tok)
		}
		clients := &flightClients{maxMessage: maxMessage, byAddr: map[string]flight.Client{}}
		defer clients.close()
		client, err := clients.get(addr)
		if err != nil {
			return fmt.Errorf("%s: %w", args[0], err)
		}
		info, err := pickFlight(ctx, client, shuffle.id())
		if err != nil {
			return fmt.Errorf("%s: %w", args[0], flightError(err))
		}
		n := len(info.GetEndpoint())
		first, last := 0, n-1
		if sel.ranged {
			first, last = sel.first, sel.last
			if last >= n {
				return usagef("%s: %s has partitions 0-%d", sel.what, strings.Join(info.GetFlightDescriptor().GetPath(), " "), n-1)
			}
		}
		schema, err := flight.DeserializeSchema(info.GetSchema(), memory.DefaultAllocator)
		if err != nil {
			return fmt.Errorf("%s: the FlightInfo's schema: %w", args[0], err)
		}
		o, err := createOutput(e, "-o", out)
		if err != nil {
			return err
		}
		rr := &endpointReader{ctx: ctx, clients: clients, addr: addr, schema: schema, endpoints: info.GetEndpoint()[first : last+1]}
		rr.refs.Store(1)
		defer rr.Release()
		if strings.EqualFold(to, toArrowStream) {
			err = rr.copyStreams(o)
		} else {
			err = writeBatches(rr, sink, o, memory.DefaultAllocator, nil, nil)
		}
		if err != nil {
			err = flightError(err)
		}
		return o.finish(err)
	}
}

// minMaxMessage is the smallest --max-message-size, shuffleflight's
// smallest message limit.
const minMaxMessage = 64 << 10

// checkMaxMessage checks a --max-message-size of serve or fetch.
func checkMaxMessage(n int) error {
	if n < minMaxMessage {
		return usagef("--max-message-size %d: want at least %d", n, minMaxMessage)
	}
	return nil
}

// flightAddr is the HOST:PORT of a grpc:// (or grpc+tcp://) URI.
func flightAddr(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "grpc" && u.Scheme != "grpc+tcp") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return "", usagef("%q: want grpc://HOST:PORT, as serve prints it", s)
	}
	return u.Host, nil
}

// pickFlight is the FlightInfo of shuffle id, or with id < 0 of the only
// shuffle the server lists.
func pickFlight(ctx context.Context, c flight.Client, id int) (*flight.FlightInfo, error) {
	if id >= 0 {
		return c.GetFlightInfo(ctx, shuffleflight.Descriptor(id))
	}
	list, err := c.ListFlights(ctx, &flight.Criteria{})
	if err != nil {
		return nil, err
	}
	var infos []*flight.FlightInfo
	for {
		fi, err := list.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, err
		}
		infos = append(infos, fi)
	}
	switch len(infos) {
	case 0:
		return nil, fmt.Errorf("the server lists no flights")
	case 1:
		return infos[0], nil
	}
	paths := make([]string, len(infos))
	for i, fi := range infos {
		paths[i] = strings.Join(fi.GetFlightDescriptor().GetPath(), "/")
	}
	return nil, usagef("--shuffle is required: the server serves %s", strings.Join(paths, ", "))
}

// flightError keeps the message of a gRPC status and its code's name.
func flightError(err error) error {
	if s, ok := status.FromError(err); ok && s.Code() != 0 {
		return fmt.Errorf("%s (%v)", s.Message(), s.Code())
	}
	return err
}

// flightClients are the connections of a fetch, one per server address.
type flightClients struct {
	maxMessage int
	byAddr     map[string]flight.Client
}

func (c *flightClients) get(addr string) (flight.Client, error) {
	if cl, ok := c.byAddr[addr]; ok {
		return cl, nil
	}
	opts := append(shuffleflight.DialOptions(c.maxMessage), grpc.WithTransportCredentials(insecure.NewCredentials()))
	cl, err := flight.NewClientWithMiddleware(addr, nil, nil, opts...)
	if err != nil {
		return nil, err
	}
	c.byAddr[addr] = cl
	return cl, nil
}

func (c *flightClients) close() {
	for _, cl := range c.byAddr {
		cl.Close()
	}
}

// endpointReader reads the endpoints' streams one after another, as one
// array.RecordReader: each from its location's server (its first
// grpc:// location), or without one from the server asked (addr).
type endpointReader struct {
	ctx       context.Context
	clients   *flightClients
	addr      string
	schema    *arrow.Schema
	endpoints []*flight.FlightEndpoint
	cur       *flight.Reader
	err       error
	refs      atomic.Int64
}

func (r *endpointReader) Schema() *arrow.Schema { return r.schema }

func (r *endpointReader) Next() bool {
	for r.err == nil {
		if r.cur != nil {
			if r.cur.Next() {
				return true
			}
			r.err = r.cur.Err()
			r.cur.Release()
			r.cur = nil
			continue
		}
		if len(r.endpoints) == 0 {
			return false
		}
		stream, err := r.open()
		if err != nil {
			break
		}
		if r.cur, r.err = flight.NewRecordReader(stream, ipc.WithAllocator(memory.DefaultAllocator)); r.err != nil {
			break
		}
		if !r.cur.Schema().Equal(r.schema) {
			r.err = fmt.Errorf("an endpoint's schema %v differs from the FlightInfo's %v", r.cur.Schema(), r.schema)
		}
	}
	return false
}

// open starts the DoGet of the next endpoint, from its location's server
// or the one asked; a failure is also r.err.
func (r *endpointReader) open() (flight.FlightService_DoGetClient, error) {
	ep := r.endpoints[0]
	r.endpoints = r.endpoints[1:]
	addr := r.addr
	if locs := ep.GetLocation(); len(locs) > 0 {
		a, err := flightAddr(locs[0].GetUri())
		if err != nil {
			r.err = fmt.Errorf("endpoint location %q: not a grpc:// URI this client reaches", locs[0].GetUri())
			return nil, r.err
		}
		addr = a
	}
	client, err := r.clients.get(addr)
	if err != nil {
		r.err = err
		return nil, err
	}
	stream, err := client.DoGet(r.ctx, ep.GetTicket())
	if err != nil {
		r.err = err
		return nil, err
	}
	return stream, nil
}

func (r *endpointReader) RecordBatch() arrow.RecordBatch { return r.cur.RecordBatch() }

// Record is RecordBatch, for array.RecordReader.
//
// Deprecated: use RecordBatch.
func (r *endpointReader) Record() arrow.RecordBatch { return r.cur.RecordBatch() }

func (r *endpointReader) Err() error { return r.err }
func (r *endpointReader) Retain()    { r.refs.Add(1) }
func (r *endpointReader) Release() {
	if r.refs.Add(-1) == 0 && r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}
