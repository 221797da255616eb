package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"github.com/rowbridge/rowbridge/sparkshuffle"
)

// The serve command serves the partitions of shuffle files over Arrow
// Flight (package shuffleflight; docs/flight.md).
func init() {
	register(&command{
		name:    "serve",
		summary: "serve the partitions of Spark shuffle files over Arrow Flight (gRPC), one endpoint per reduce partition",
		usage:   "--schema SCHEMA [--addr HOST:PORT] [--shuffle N ...] [--token T|@FILE] [--codec auto] [--checksum verify|ignore] [--workers W] [--batch-rows R] [--max-message-size BYTES] [--grace D] [--location URI] DIR...",
		examples: []string{
			`rowbridge serve --schema @testdata/sample/shuffle/schema.ddl testdata/sample/shuffle   # prints grpc://127.0.0.1:PORT, logs calls on stderr`,
			`rowbridge serve --addr 0.0.0.0:8815 --token @/etc/rowbridge/token --schema @schema.ddl --shuffle 3 --shuffle 4 /data/spark-local-1 /data/spark-local-2`,
			`rowbridge fetch --partition 0 --to jsonl grpc://127.0.0.1:8815   # read a partition back`,
		},
		flags:      serveFlags,
		ownSignals: true,
	})
}

// defaultServeAddr serves on loopback only, on a port the system picks.
const defaultServeAddr = "127.0.0.1:0"

func serveFlags(fs *flag.FlagSet) func(*env, []string) error {
	var (
		addr, schema, token, codec, checksum, location string
		shuffles                                       idList
		workers, batchRows, maxMessage                 int
		grace                                          time.Duration
	)
	fs.StringVar(&addr, "addr", defaultServeAddr, "address to listen on, HOST:PORT (port 0: any free port); loopback only unless told otherwise")
	fs.StringVar(&schema, "schema", "", schemaFlagUsage+" (required; the files do not record it)")
	fs.Var(&shuffles, "shuffle", "serve shuffle `id` (repeat for several; default every shuffle in the DIRs)")
	fs.StringVar(&token, "token", "", "require `T` on every call as \"authorization: Bearer T\"; @FILE reads it from the file's first line")
	fs.StringVar(&codec, "codec", "auto", "Spark's codec of the segments: auto (recognised from each segment's first bytes), lz4, snappy, zstd, lzf or none")
	fs.StringVar(&checksum, "checksum", "verify", "verify (each segment against its map output's checksum file before sending it) or ignore")
	fs.IntVar(&workers, "workers", 0, fmt.Sprintf("goroutines that decompress and decode the segments of one call (default GOMAXPROCS, %d here, shared among the calls running at once)", runtime.GOMAXPROCS(0)))
	fs.IntVar(&batchRows, "batch-rows", 4096, "most rows per record batch (batches are also split to fit --max-message-size)")
	fs.IntVar(&maxMessage, "max-message-size", shuffleflight.DefaultMaxMessageSize, "largest gRPC message sent, in bytes (grpc's default receive limit; raise it only for clients that accept more)")
	fs.DurationVar(&grace, "grace", 10*time.Second, "on SIGINT or SIGTERM, how long running calls may go on before they are ended")
	fs.StringVar(&location, "location", "", "the URI endpoints tell clients to fetch from (default grpc://ADDR with the real port; set it when clients reach this host by another name)")
	return func(e *env, args []string) error {
		opts, err := shuffleReadOptions(fs, optionalID{}, "", codec, checksum, workers, batchRows)
		if err != nil {
			return err
		}
		if err := checkMaxMessage(maxMessage); err != nil {
			return err
		}
		if grace < 0 {
			return usagef("--grace %v: want 0 or more", grace)
		}
		if location != "" && !strings.Contains(location, "://") {
			return usagef("--location %q: want a URI such as grpc://HOST:PORT", location)
		}
		tok, err := readToken(token, flagSet(fs, "token"))
		if err != nil {
			return err
		}
		sc, err := loadSchema(schema)
		if err != nil {
			return err
		}
		set, err := openShuffles(args)
		if err != nil {
			return err
		}
		schemas, err := servedShuffles(set, shuffles, sc, args)
		if err != nil {
			return err
		}
		lis, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("--addr %s: %w", addr, err)
		}
		defer lis.Close()
		url := "grpc://" + advertised(lis.Addr())
		if location == "" {
			location = url
		}
		log := slog.New(slog.NewTextHandler(e.stderr, nil))
		sopts := []shuffleflight.Option{shuffleflight.WithLogger(log), shuffleflight.WithLocation(location),
			shuffleflight.WithMaxMessageSize(maxMessage), shuffleflight.WithReadOptions(opts.list...)}
		if tok != "" {
			sopts = append(sopts, shuffleflight.WithToken(tok))
		}
		srv, err := shuffleflight.New(set, schemas, sopts...)
		if err != nil {
			return shuffleError(err)
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		stopping := make(chan struct{})
		go func() {
			<-ctx.Done()
			stop() // a second signal ends the process at once
			log.Info("stopping: no new calls; running calls may finish", "grace", grace)
			close(stopping)
		}()
		ids := make([]int, 0, len(schemas))
		for _, s := range set.Shuffles() {
			if schemas[s.ID] != nil {
				ids = append(ids, s.ID)
			}
		}
		log.Info("serving", "shuffles", fmt.Sprint(ids), "dirs", strings.Join(args, ","), "location", location, "token", tok != "")
		if !isLoopback(lis.Addr()) && tok == "" {
			log.Warn("listening beyond loopback without --token: anyone who reaches this port can read the shuffles")
		}
		if _, err := fmt.Fprintln(e.stdout, url); err != nil {
			return err
		}
		if err := srv.Serve(ctx, lis, grace); err != nil {
			return err
		}
		<-stopping // Serve returns nil only after ctx ended
		log.Info("stopped")
		return nil
	}
}

// idList is a repeatable flag of shuffle ids.
type idList []int

func (l *idList) String() string {
	if l == nil {
		return ""
	}
	return fmt.Sprint([]int(*l))
}

func (l *idList) Set(s string) error {
	var id optionalID
	if err := id.Set(s); err != nil {
		return err
	}
	*l = append(*l, id.v)
	return nil
}

// servedShuffles maps the shuffles to serve to the schema: those of
// --shuffle (each must be in the set), or every shuffle of the set.
func servedShuffles(set *sparkshuffle.Set, ids idList, sc *arrow.Schema, dirs []string) (map[int]*arrow.Schema, error) {
	out := map[int]*arrow.Schema{}
	if len(ids) == 0 {
		all := set.Shuffles()
		if len(all) == 0 {
			return nil, fmt.Errorf("no shuffle files in %s", strings.Join(dirs, ", "))
		}
		for _, s := range all {
			out[s.ID] = sc
		}
		return out, nil
	}
	for _, id := range ids {
		if _, err := pickShuffle(set, id, dirs); err != nil {
			return nil, err
		}
		out[id] = sc
	}
	return out, nil
}

// readToken reads --token: the token, or @FILE's first line. A token
// given must be non-empty and hold no blanks.
func readToken(v string, given bool) (string, error) {
	if !given {
		return "", nil
	}
	if path, ok := strings.CutPrefix(v, "@"); ok {
		b, err := readSmall(path, 64<<10)
		if err != nil {
			return "", fmt.Errorf("--token @%s: %w", path, err)
		}
		line, _, _ := strings.Cut(string(b), "\n")
		v = strings.TrimRight(line, "\r")
		if v == "" {
			return "", usagef("--token @%s: the file's first line is empty", path)
		}
	}
	if v == "" || strings.ContainsAny(v, " \t\r\n") {
		return "", usagef("--token: want a non-empty token without blanks")
	}
	return v, nil
}

// readSmall reads a file of at most limit bytes.
func readSmall(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("larger than %d bytes: not a token", limit)
	}
	return b, nil
}

// advertised is HOST:PORT of a listener's address as clients dial it: an
// unspecified host (0.0.0.0, ::) becomes this machine's name.
func advertised(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	host := tcp.IP.String()
	if tcp.IP.IsUnspecified() {
		if h, err := os.Hostname(); err == nil && h != "" {
			host = h
		}
	}
	return net.JoinHostPort(host, strconv.Itoa(tcp.Port))
}

func isLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
