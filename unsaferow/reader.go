package unsaferow

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/rowstream"
)

// ReaderIdleBytes (256 MiB) is the most released buffer memory the recycling
// allocator of a Reader without WithAllocator keeps for reuse. All
// recycling allocators of the process together keep at most
// arrowvec.SetProcessIdleLimit's bound (256 MiB unless changed), however
// many Readers there are.
const ReaderIdleBytes = rowstream.ReaderIdleBytes

// Reader reads a framed UnsafeRow stream as record batches of at most
// WithBatchRows rows. It satisfies array.RecordReader, and memory stays
// bounded by one batch, whatever the length of the stream:
//
//   - Next reads the next batch, releasing the previous one; it returns
//     false at the end of the stream or on an error.
//   - RecordBatch is the batch read by the last Next, valid until the next
//     call to Next or Release (Retain it to keep it longer); Record is the
//     same, deprecated.
//   - Err is the error that stopped Next: a *rowbridge.DecodeError for a
//     bad row (its Row counted from the start of the stream), a
//     *framing.Error for a bad or truncated stream, nil at a clean end.
//   - Schema is the schema of every batch.
//   - Retain adds a reference; Release drops one, and the last frees the
//     current batch (and stops the WithWorkers goroutines).
type Reader struct{ *rowstream.Reader }

// NewReader returns a Reader of r's rows of schema, framed as WithFraming
// says (compressed Velox row groups use WithCodec; the stream does not
// record it). Decode errors give the row's index within the whole stream.
//
// Without WithAllocator, a Reader decodes into an
// arrowvec.RecyclingAllocator of its own (holding at most
// ReaderIdleBytes), so the buffers of each batch released by Next are
// reused for the next one instead of being allocated, zeroed and collected
// again (8-47% less time per row through 1000-row batches of the
// benchmark shapes, BenchmarkReader in unsaferow). Such buffers are not
// zeroed: the decoder writes every byte a batch exposes.
func NewReader(r io.Reader, schema *arrow.Schema, opts ...Option) (*Reader, error) {
	return rowstream.OpenReader[Reader](pkgName, r, schema, opts, newDecoder)
}
