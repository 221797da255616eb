package rowstream

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
)

// Writer encodes record batches and writes their rows into a framed stream.
type Writer struct {
	schema *arrow.Schema
	enc    RowEncoder
	out    *framing.Writer
	rows   rowbridge.Rows
	start  int64 // stream index of the next batch's first row
	closed bool
}

// NewWriter returns a Writer of schema's batches to w, encoded by enc and
// framed with f (compressing Velox groups with c).
func NewWriter(w io.Writer, schema *arrow.Schema, enc RowEncoder, f framing.Framing, c framing.Codec) (*Writer, error) {
	out, err := framing.NewWriter(w, f, c)
	if err != nil {
		return nil, err
	}
	return &Writer{schema: schema, enc: enc, out: out}, nil
}

// Write encodes rec and writes its rows; in the Velox framing each Write
// is one row group.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if w.closed {
		return errors.New("rowstream: write after Close")
	}
	if !w.schema.Equal(rec.Schema()) {
		return fmt.Errorf("rowstream: record batch schema %v differs from the writer's %v", rec.Schema(), w.schema)
	}
	w.rows.Reset()
	rows, err := w.enc.AppendRows(w.rows, rec)
	w.rows = rows
	if err != nil {
		var ee *rowbridge.EncodeError
		if errors.As(err, &ee) {
			return &rowbridge.EncodeError{Row: int(w.start) + ee.Row, Field: ee.Field, Err: ee.Err}
		}
		return err
	}
	w.start += rec.NumRows()
	return w.out.Write(&w.rows)
}

// Close ends the stream; the framings have no trailer, so it only stops
// further writes. It does not close the underlying writer.
func (w *Writer) Close() error {
	w.closed = true
	return nil
}
