// Package rowopt holds the options of the row codecs, shared by unsaferow
// and compactrow: the configuration they set, how a constructor applies
// them, and the checks every option makes. Each codec names its own
// exported With... functions over these.
//
// An option is a func(*Config) error, as in zstd: an option given an
// invalid value, or given to a constructor it does not apply to, makes the
// constructor fail with an error wrapping arrow.ErrInvalid.
package rowopt

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/arrowvec"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// DefaultBatchRows is how many rows a Reader puts in one record batch.
const DefaultBatchRows = 4096

// DecoderIdleBytes is the most released buffer memory the recycling
// allocator of a Decoder made without an allocator option keeps for reuse.
const DecoderIdleBytes = 64 << 20

// Target is the constructor an option is given to.
type Target uint8

const (
	ForDecoder Target = 1 << iota
	ForEncoder
	ForReader
	ForWriter

	forStreams  = ForReader | ForWriter
	forEncoding = ForEncoder | ForWriter
)

var targetNames = [...]string{"NewDecoder", "NewEncoder", "NewReader", "NewWriter"}

// String names the constructors of t, as "NewReader or NewWriter".
func (t Target) String() string {
	s := ""
	for i, name := range targetNames {
		if t&(1<<i) != 0 {
			if s != "" {
				s += " or "
			}
			s += name
		}
	}
	return s
}

// Config is what the options set.
type Config struct {
	pkg       string // prefixes errors ("unsaferow")
	target    Target
	Mem       memory.Allocator
	MemSet    bool // WithAllocator was given
	Flavor    uint8
	Framing   framing.Framing
	Codec     framing.Codec
	BatchRows int
	Workers   int
	Truncate  bool // WithTruncate was given
}

// Apply returns the configuration opts set for a constructor of package pkg.
func Apply[O ~func(*Config) error](pkg string, t Target, opts []O) (*Config, error) {
	c := &Config{pkg: pkg, target: t, Mem: memory.DefaultAllocator, BatchRows: DefaultBatchRows, Workers: 1}
	for _, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%s: a nil Option: %w", pkg, arrow.ErrInvalid)
		}
		if err := o(c); err != nil {
			return nil, err
		}
	}
	if t == ForDecoder && !c.MemSet {
		// A Decoder's batches, once released, give their buffers to the
		// next Decode; buffers of batches never released are collected by
		// the GC as Go memory is (see arrowvec.RecyclingAllocator).
		c.Mem = arrowvec.NewRecyclingAllocator(DecoderIdleBytes)
	}
	return c, nil
}

// Invalid is the error of an option given an invalid value.
func (c *Config) Invalid(format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", c.pkg, fmt.Sprintf(format, args...), arrow.ErrInvalid)
}

// Only is the error of option name given to a constructor outside to,
// nil for one of them.
func (c *Config) Only(name string, to Target) error {
	if c.target&to != 0 {
		return nil
	}
	return c.Invalid("%s does not apply to %s (only to %s)", name, c.target, to)
}

// Allocator sets the allocator; nil is invalid.
func Allocator(mem memory.Allocator) func(*Config) error {
	return func(c *Config) error {
		if mem == nil {
			return c.Invalid("WithAllocator(nil): want an allocator")
		}
		c.Mem, c.MemSet = mem, true
		return nil
	}
}

// option is an option named name that applies to the constructors to:
// given elsewhere it fails; given a value bad says is invalid (a message,
// "" for a valid one) it fails; else set applies it.
func option(name string, to Target, bad string, set func(*Config)) func(*Config) error {
	return func(c *Config) error {
		if err := c.Only(name, to); err != nil {
			return err
		}
		if bad != "" {
			return c.Invalid("%s", bad)
		}
		set(c)
		return nil
	}
}

// atLeastOne is the message of a count n of unit below 1, "" otherwise.
func atLeastOne(name string, n int, unit string) string {
	if n < 1 {
		return fmt.Sprintf("%s(%d): want at least 1 %s", name, n, unit)
	}
	return ""
}

// Framing sets the stream framing.
func Framing(f framing.Framing) func(*Config) error {
	return option("WithFraming", forStreams, "", func(c *Config) { c.Framing = f })
}

// Codec sets the stream compression.
func Codec(codec framing.Codec) func(*Config) error {
	return option("WithCodec", forStreams, "", func(c *Config) { c.Codec = codec })
}

// BatchRows sets the most rows of a batch; below 1 is invalid.
func BatchRows(n int) func(*Config) error {
	return option("WithBatchRows", ForReader, atLeastOne("WithBatchRows", n, "row"), func(c *Config) { c.BatchRows = n })
}

// Workers sets the decoding goroutines of a Reader; below 1 is invalid.
func Workers(n int) func(*Config) error {
	return option("WithWorkers", ForReader, atLeastOne("WithWorkers", n, "goroutine"), func(c *Config) { c.Workers = n })
}

// Flavor sets the flavour (named name) of an Encoder or Writer; valid
// says whether it is one.
func Flavor(f uint8, valid bool, name string) func(*Config) error {
	bad := ""
	if !valid {
		bad = "WithFlavor(" + name + "): want Spark or Velox"
	}
	return option("WithFlavor", forEncoding, bad, func(c *Config) { c.Flavor = f })
}

// Truncate lets an Encoder round lossy values down.
func Truncate() func(*Config) error {
	return option("WithTruncate", forEncoding, "", func(c *Config) { c.Truncate = true })
}

// Plan resolves schema for a codec of package pkg: a nil schema or a type
// no row format carries fails, the error prefixed with pkg.
func Plan(pkg string, schema *arrow.Schema) (*columnar.Plan, error) {
	plan, err := columnar.NewPlan(schema)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pkg, err)
	}
	return plan, nil
}

// BuildPlanned is Build of a value made from schema's Plan (a decoder).
func BuildPlanned[O ~func(*Config) error, T any](pkg string, t Target, schema *arrow.Schema, opts []O,
	build func(*columnar.Plan, *Config) (T, error)) (T, error) {
	var zero T
	cfg, err := Apply(pkg, t, opts)
	if err != nil {
		return zero, err
	}
	plan, err := Plan(pkg, schema)
	if err != nil {
		return zero, err
	}
	return build(plan, cfg)
}

// Build is a codec's constructor: it applies opts for target t and builds
// the value for schema with them.
func Build[O ~func(*Config) error, T any](pkg string, t Target, schema *arrow.Schema, opts []O,
	build func(*arrow.Schema, *Config) (T, error)) (T, error) {
	cfg, err := Apply(pkg, t, opts)
	if err != nil {
		var zero T
		return zero, err
	}
	return build(schema, cfg)
}
