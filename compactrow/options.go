// Package compactrow converts between Velox CompactRow bytes and Arrow record
// batches: a Decoder that builds exact-size columns, an Encoder that writes
// Velox's bytes, and stream Reader and Writer over the Spark and Velox
// framings. Its API mirrors package unsaferow name for name.
package compactrow

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/rowopt"
)

// pkgName prefixes the errors of invalid options.
const pkgName = "compactrow"

// DefaultBatchRows (4096) is how many rows a Reader puts in one record
// batch.
const DefaultBatchRows = rowopt.DefaultBatchRows

// Option configures a Decoder, Encoder, Reader or Writer. An option given
// an invalid value (WithBatchRows(0)), or given to a constructor it does
// not apply to (WithBatchRows to NewEncoder; each option's comment says
// where it applies), makes the constructor fail with an error wrapping
// arrow.ErrInvalid.
type Option func(*config) error

type config = rowopt.Config

// DecoderIdleBytes (64 MiB) is the most released buffer memory the
// recycling allocator of a Decoder made without WithAllocator keeps for
// reuse.
const DecoderIdleBytes = rowopt.DecoderIdleBytes

// WithAllocator sets the allocator for Arrow buffers. Without it a
// Decoder allocates from an arrowvec.RecyclingAllocator of its own that
// keeps up to DecoderIdleBytes of released buffers, so each Decode reuses
// the buffers of the batches released before it (a batch never released
// is collected by the GC); a Reader's default recycles too, see NewReader;
// an Encoder's and a Writer's is memory.DefaultAllocator. A nil allocator
// is an error from the constructor.
func WithAllocator(mem memory.Allocator) Option { return Option(rowopt.Allocator(mem)) }

// WithFraming sets the stream framing of a Reader or Writer (default framing.Spark).
func WithFraming(f framing.Framing) Option { return Option(rowopt.Framing(f)) }

// WithCodec sets the compression of a Reader or Writer (default
// framing.None): of Velox row groups, or in the Spark framing Spark's codec
// stream around the records (framing.LZ4, Snappy, Zstd, LZF; framing.Auto
// sniffs it when reading).
func WithCodec(codec framing.Codec) Option { return Option(rowopt.Codec(codec)) }

// WithBatchRows sets the most rows a Reader puts in one record batch
// (default DefaultBatchRows); memory stays bounded by the batch. A value
// below 1 is an error from the constructor.
func WithBatchRows(n int) Option { return Option(rowopt.BatchRows(n)) }

// WithWorkers has a Reader decode batches on n goroutines (default 1: in
// the caller's goroutine). One goroutine splits the stream into batches and
// n decode them; Next returns them in stream order, and at most about 3n+1
// batches exist at once. Release the Reader (or read it to the end) to stop
// the goroutines. Worth it for long streams of wide rows. A value below 1
// is an error from the constructor.
func WithWorkers(n int) Option { return Option(rowopt.Workers(n)) }

// WithTruncate lets an Encoder or Writer round down, towards negative infinity,
// values that converting to the row format's types would otherwise refuse
// as lossy: timestamps with a part below a microsecond and date64 values
// that are not a midnight. Without it such a value fails the batch with an
// EncodeError naming its row and field. Values out of the target type's
// range fail either way.
func WithTruncate() Option { return Option(rowopt.Truncate()) }
