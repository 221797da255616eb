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
	// sliceRows overrides WriteSliceRows (tests).
	sliceRows int
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

// WriteSliceRows is the most rows a Writer encodes at a time: a larger
// batch is encoded and written slice by slice (each slice is its own Velox
// row group), so the encoded bytes held at once stay bounded whatever the
// batch's length. That matters for columns whose values take no Arrow
// memory but do take row bytes (a Null column of a billion rows).
const WriteSliceRows = 1 << 16

// Write encodes rec and writes its rows; in the Velox framing each Write
// of up to WriteSliceRows rows is one row group. When a slice of a longer
// batch fails to encode, the slices before it have been written: the
// error's row says where the stream stops.
func (w *Writer) Write(rec arrow.RecordBatch) error {
	if w.closed {
		return fmt.Errorf("rowstream: write after Close: %w", arrow.ErrInvalid)
	}
	if !w.schema.Equal(rec.Schema()) {
		return fmt.Errorf("rowstream: record batch schema %v differs from the writer's %v: %w", rec.Schema(), w.schema, arrow.ErrInvalid)
	}
	step := int64(w.sliceRows)
	if step <= 0 {
		step = WriteSliceRows
	}
	n := rec.NumRows()
	if n <= step {
		return w.write(rec)
	}
	for lo := int64(0); lo < n; lo += step {
		part := rec.NewSlice(lo, min(lo+step, n))
		err := w.write(part)
		part.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// write encodes rec in one piece and writes its rows.
func (w *Writer) write(rec arrow.RecordBatch) error {
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

// Close ends the stream (a Spark codec stream writes its end; the plain
// framings have no trailer) and stops further writes. It does not close
// the underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	return w.out.Close()
}
