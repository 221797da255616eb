// Package unsaferow converts between Spark UnsafeRow bytes and Arrow record
// batches: a columnar Decoder, an Encoder in Spark or Velox flavour, and
// stream Reader and Writer over the Spark and Velox framings.
package unsaferow

import (
	"fmt"
	"github.com/apache/arrow-go/v18/arrow"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
)

// Flavor selects whose bytes the Encoder writes. Decoders accept both.
type Flavor uint8

const (
	// Spark writes exactly what Spark's UnsafeRowWriter writes: padded
	// element regions, 16 bytes reserved per long-decimal struct field
	// (nulls included), 8-byte NullType elements, canonical NaN.
	Spark Flavor = iota
	// Velox writes what Velox's UnsafeRowFast writes at HEAD: unpadded
	// fixed-width element regions, pad8 decimal reservations, no NullType
	// element bytes, NaN bits as they are.
	Velox
)

func (f Flavor) String() string {
	switch f {
	case Spark:
		return "spark"
	case Velox:
		return "velox"
	}
	return fmt.Sprintf("Flavor(%d)", f)
}

// ParseFlavor reads a flavour name as the CLI spells it.
func ParseFlavor(s string) (Flavor, error) {
	switch strings.ToLower(s) {
	case "spark", "":
		return Spark, nil
	case "velox":
		return Velox, nil
	}
	return 0, fmt.Errorf("unknown flavor %q (want spark or velox)", s)
}

// pkgName prefixes the errors of invalid options.
const pkgName = "unsaferow"

// DefaultBatchRows is how many rows a Reader puts in one record batch.
const DefaultBatchRows = 4096

// Option configures a Decoder, Encoder, Reader or Writer.
type Option func(*config)

type config struct {
	mem       memory.Allocator
	flavor    Flavor
	framing   framing.Framing
	codec     framing.Codec
	batchRows int
	workers   int
	memSet    bool  // WithAllocator was given
	truncate  bool  // WithTruncate was given
	err       error // the first option given an invalid value
}

// newConfig applies opts; an option given an invalid value makes the
// constructor fail with an error wrapping arrow.ErrInvalid.
func newConfig(opts []Option) (config, error) {
	c := config{mem: memory.DefaultAllocator, batchRows: DefaultBatchRows, workers: 1}
	for _, o := range opts {
		if o == nil {
			return c, fmt.Errorf("%s: a nil Option: %w", pkgName, arrow.ErrInvalid)
		}
		o(&c)
	}
	return c, c.err
}

// invalid records the first invalid option value.
func (c *config) invalid(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%s: %s: %w", pkgName, fmt.Sprintf(format, args...), arrow.ErrInvalid)
	}
}

// WithAllocator sets the allocator for Arrow buffers (default
// memory.DefaultAllocator; a Reader's default recycles, see NewReader).
// A nil allocator is an error from the constructor.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) {
		if mem == nil {
			c.invalid("WithAllocator(nil): want an allocator")
			return
		}
		c.mem, c.memSet = mem, true
	}
}

// WithFlavor sets whose bytes the Encoder and Writer produce (default Spark).
// A Flavor other than Spark or Velox is an error from the constructor.
func WithFlavor(f Flavor) Option {
	return func(c *config) {
		if f != Spark && f != Velox {
			c.invalid("WithFlavor(%v): want Spark or Velox", f)
			return
		}
		c.flavor = f
	}
}

// WithFraming sets the stream framing for Reader and Writer (default framing.Spark).
func WithFraming(f framing.Framing) Option { return func(c *config) { c.framing = f } }

// WithCodec sets the compression for Reader and Writer (default
// framing.None): of Velox row groups, or in the Spark framing Spark's codec
// stream around the records (framing.LZ4, Snappy, Zstd, LZF; framing.Auto
// sniffs it when reading).
func WithCodec(codec framing.Codec) Option { return func(c *config) { c.codec = codec } }

// WithBatchRows sets the most rows a Reader puts in one record batch
// (default DefaultBatchRows); memory stays bounded by the batch. A value
// below 1 is an error from the constructor.
func WithBatchRows(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.invalid("WithBatchRows(%d): want at least 1 row", n)
			return
		}
		c.batchRows = n
	}
}

// WithWorkers has a Reader decode batches on n goroutines (default 1: in
// the caller's goroutine). One goroutine splits the stream into batches and
// n decode them; Next returns them in stream order, and at most about 3n+1
// batches exist at once. Release the Reader (or read it to the end) to stop
// the goroutines. Worth it for long streams of wide rows. A value below 1
// is an error from the constructor.
func WithWorkers(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.invalid("WithWorkers(%d): want at least 1 goroutine", n)
			return
		}
		c.workers = n
	}
}

// WithTruncate lets the Encoder round down, towards negative infinity,
// values that converting to the row format's types would otherwise refuse
// as lossy: timestamps with a part below a microsecond and date64 values
// that are not a midnight. Without it such a value fails the batch with an
// EncodeError naming its row and field. Values out of the target type's
// range fail either way.
func WithTruncate() Option { return func(c *config) { c.truncate = true } }
