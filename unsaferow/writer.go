package unsaferow

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/rowstream"
)

// Writer writes record batches as a framed UnsafeRow stream in the flavour WithFlavor selects.
//
//   - Write encodes a batch's rows and writes them; in the Velox framing
//     each call writes one row group. A batch of more than 65536 rows is
//     encoded and written 65536 rows at a time (a row group each), so the
//     encoded bytes held at once stay bounded; if a slice fails to encode,
//     the ones before it have been written.
//   - Close ends the stream. It does not close the underlying writer.
type Writer struct{ *rowstream.Writer }

// NewWriter returns a Writer of schema's batches to w, framed as
// WithFraming says; in the Velox framing WithCodec compresses row groups.
func NewWriter(w io.Writer, schema *arrow.Schema, opts ...Option) (*Writer, error) {
	return rowstream.OpenWriter[Writer](pkgName, w, schema, opts, newEncoder)
}
