// Package compactrow converts between Velox CompactRow bytes and Arrow record
// batches: a Decoder that builds exact-size columns, an Encoder that writes
// Velox's bytes, and stream Reader and Writer over the Spark and Velox
// framings. Its API mirrors package unsaferow name for name.
package compactrow

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
)

// DefaultBatchRows is how many rows a Reader puts in one record batch.
const DefaultBatchRows = 4096

// Option configures a Decoder, Encoder, Reader or Writer.
type Option func(*config)

type config struct {
	mem       memory.Allocator
	framing   framing.Framing
	codec     framing.Codec
	batchRows int
	workers   int
	memSet    bool // WithAllocator was given
	truncate  bool // WithTruncate was given
}

func newConfig(opts []Option) config {
	c := config{mem: memory.DefaultAllocator, batchRows: DefaultBatchRows, workers: 1}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithAllocator sets the allocator for Arrow buffers (default
// memory.DefaultAllocator; a Reader's default recycles, see NewReader).
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) { c.mem, c.memSet = mem, true }
}

// WithFraming sets the stream framing for Reader and Writer (default framing.Spark).
func WithFraming(f framing.Framing) Option { return func(c *config) { c.framing = f } }

// WithCodec sets the compression for Reader and Writer (default
// framing.None): of Velox row groups, or in the Spark framing Spark's codec
// stream around the records (framing.LZ4, Snappy, Zstd, LZF; framing.Auto
// sniffs it when reading).
func WithCodec(codec framing.Codec) Option { return func(c *config) { c.codec = codec } }

// WithBatchRows sets the most rows a Reader puts in one record batch
// (default DefaultBatchRows); memory stays bounded by the batch.
func WithBatchRows(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.batchRows = n
		}
	}
}

// WithWorkers has a Reader decode batches on n goroutines (default 1: in
// the caller's goroutine). One goroutine splits the stream into batches and
// n decode them; Next returns them in stream order, and at most about 3n+1
// batches exist at once. Release the Reader (or read it to the end) to stop
// the goroutines. Worth it for long streams of wide rows; values below 1
// are ignored.
func WithWorkers(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.workers = n
		}
	}
}

// WithTruncate lets the Encoder round down, towards negative infinity,
// values that converting to the row format's types would otherwise refuse
// as lossy: timestamps with a part below a microsecond and date64 values
// that are not a midnight. Without it such a value fails the batch with an
// EncodeError naming its row and field. Values out of the target type's
// range fail either way.
func WithTruncate() Option { return func(c *config) { c.truncate = true } }
