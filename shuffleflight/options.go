package shuffleflight

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/sparkshuffle"
)

// DefaultMaxMessageSize is the largest gRPC message a Server sends unless
// told otherwise: grpc's default receive limit (4 MiB), which the Flight
// clients of most languages keep.
const DefaultMaxMessageSize = 4 << 20

// minMaxMessageSize is the smallest message limit a Server accepts: below
// it the metadata of a batch alone might not fit.
const minMaxMessageSize = 64 << 10

// Option configures a Server.
type Option func(*config) error

type config struct {
	mem        memory.Allocator // nil: the Server's own recycling allocator
	maxMessage int
	token      string
	log        *slog.Logger
	location   string
	read       []sparkshuffle.Option
	aliasAny   bool // send bodies as the batches' memory whatever the allocator (tests: a checked Go allocator)
}

func newConfig(opts []Option) (*config, error) {
	c := &config{maxMessage: DefaultMaxMessageSize, log: slog.New(slog.DiscardHandler)}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// WithAllocator sets the allocator of the decoded batches and of the IPC
// writer. Without it the DoGets recycle their buffers through one
// allocator of the Server's (an arrowvec.RecyclingAllocator).
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) error {
		if mem == nil {
			return fmt.Errorf("shuffleflight: nil allocator: %w", arrow.ErrInvalid)
		}
		c.mem = mem
		return nil
	}
}

// WithMaxMessageSize sets the largest gRPC message (one FlightData: a
// record batch's IPC metadata and body) DoGet sends, default
// DefaultMaxMessageSize. Batches larger than that are split by rows; a
// single row larger than that fails the call with ResourceExhausted.
// Clients must accept messages of that size (in Go,
// grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(n))).
func WithMaxMessageSize(n int) Option {
	return func(c *config) error {
		if n < minMaxMessageSize {
			return fmt.Errorf("shuffleflight: max message size %d, want at least %d: %w", n, minMaxMessageSize, arrow.ErrInvalid)
		}
		c.maxMessage = n
		return nil
	}
}

// WithToken makes every call of the Flight service need the gRPC metadata
// "authorization: Bearer <token>"; any other call fails with
// Unauthenticated. The check is done by the Server's interceptors (see
// Serve, UnaryInterceptor, StreamInterceptor, Middleware).
func WithToken(token string) Option {
	return func(c *config) error {
		if token == "" || strings.ContainsAny(token, " \t\r\n") {
			return fmt.Errorf("shuffleflight: a token must be non-empty and hold no blanks: %w", arrow.ErrInvalid)
		}
		c.token = token
		return nil
	}
}

// WithLogger has the interceptors log one line per call on logger:
// method, peer, status, duration, and for DoGet the shuffle, partition,
// rows, batches and bytes sent (default: no logging).
func WithLogger(logger *slog.Logger) Option {
	return func(c *config) error {
		if logger == nil {
			return fmt.Errorf("shuffleflight: nil logger: %w", arrow.ErrInvalid)
		}
		c.log = logger
		return nil
	}
}

// WithLocation sets the URI put in every endpoint as the place to fetch
// its ticket from (grpc://host:port, grpc+tls://host:port). Without it the
// endpoints carry no location, which Flight clients read as "the server
// that answered GetFlightInfo".
func WithLocation(uri string) Option {
	return func(c *config) error {
		if !strings.Contains(uri, "://") {
			return fmt.Errorf("shuffleflight: location %q is not a URI (want grpc://HOST:PORT): %w", uri, arrow.ErrInvalid)
		}
		c.location = uri
		return nil
	}
}

// WithReadOptions passes options to every DoGet's sparkshuffle Reader:
// WithCodec, WithChecksum, WithWorkers, WithBatchRows. Partition,
// allocator and buffer options are the Server's own and are overridden.
// Without WithWorkers a DoGet's Reader has GOMAXPROCS workers divided by
// the number of DoGets running when it starts (at least 1).
func WithReadOptions(opts ...sparkshuffle.Option) Option {
	return func(c *config) error {
		c.read = append(c.read, opts...)
		return nil
	}
}
