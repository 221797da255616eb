package unsaferow

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/rowbridge/rowbridge/arrowvec"
	"github.com/rowbridge/rowbridge/internal/rowstream"
)

// ReaderIdleBytes is the most released buffer memory the recycling
// allocator of a Reader without WithAllocator keeps for reuse. All
// recycling allocators of the process together keep at most
// arrowvec.SetProcessIdleLimit's bound (256 MiB unless changed), however
// many Readers there are.
const ReaderIdleBytes = 256 << 20

// Reader reads a framed UnsafeRow stream as record batches of at most
// WithBatchRows rows. It satisfies array.RecordReader. Memory stays
// bounded by one batch, whatever the length of the stream.
type Reader struct{ r *rowstream.Reader }

var _ array.RecordReader = (*Reader)(nil)

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
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if !cfg.memSet {
		opts = append(opts, WithAllocator(arrowvec.NewRecyclingAllocator(ReaderIdleBytes)))
	}
	dec, err := NewDecoder(schema, opts...)
	if err != nil {
		return nil, err
	}
	rs, err := rowstream.NewReader(r, schema, dec, cfg.framing, cfg.codec, cfg.batchRows, rowstream.WithWorkers(cfg.workers))
	if err != nil {
		return nil, err
	}
	return &Reader{r: rs}, nil
}

// Schema is the schema of every batch.
func (r *Reader) Schema() *arrow.Schema { return r.r.Schema() }

// Next reads the next batch, releasing the previous one. It returns false
// at the end of the stream or on an error; see Err.
func (r *Reader) Next() bool { return r.r.Next() }

// RecordBatch is the batch read by the last Next. It is valid until the
// next call to Next or Release; Retain it to keep it longer.
func (r *Reader) RecordBatch() arrow.RecordBatch { return r.r.RecordBatch() }

// Record is RecordBatch.
//
// Deprecated: use RecordBatch.
func (r *Reader) Record() arrow.RecordBatch { return r.r.RecordBatch() }

// Err is the error that stopped Next: a *rowbridge.DecodeError for a bad
// row, a *framing.Error for a bad or truncated stream, nil at a clean end.
func (r *Reader) Err() error { return r.r.Err() }

// Retain adds a reference to the Reader.
func (r *Reader) Retain() { r.r.Retain() }

// Release drops a reference; the last one frees the current batch.
func (r *Reader) Release() { r.r.Release() }
