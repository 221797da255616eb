package unsaferow

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/rowstream"
)

// Writer writes record batches as a framed UnsafeRow stream in the flavour WithFlavor selects.
type Writer struct{ w *rowstream.Writer }

// NewWriter returns a Writer of schema's batches to w, framed as
// WithFraming says; in the Velox framing WithCodec compresses row groups.
func NewWriter(w io.Writer, schema *arrow.Schema, opts ...Option) (*Writer, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	enc, err := NewEncoder(schema, opts...)
	if err != nil {
		return nil, err
	}
	ws, err := rowstream.NewWriter(w, schema, enc, cfg.framing, cfg.codec)
	if err != nil {
		return nil, err
	}
	return &Writer{w: ws}, nil
}

// Write encodes rec's rows and writes them; in the Velox framing each call
// writes one row group. A batch of more than 65536 rows is encoded and
// written 65536 rows at a time (a row group each), so the encoded bytes
// held at once stay bounded; if a slice fails to encode, the ones before
// it have been written.
func (w *Writer) Write(rec arrow.RecordBatch) error { return w.w.Write(rec) }

// Close ends the stream. It does not close the underlying writer.
func (w *Writer) Close() error { return w.w.Close() }
