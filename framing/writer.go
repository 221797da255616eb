package framing

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/rowbridge/rowbridge"
)

// MinCompressionRatio is Velox's rule for compressed row groups: a group
// whose compressed size exceeds this fraction of its uncompressed size is
// written uncompressed.
const MinCompressionRatio = 0.8

// Writer writes rows into a framed stream.
type Writer struct {
	w       io.Writer
	framing Framing
	codec   Codec
	buf     []byte // header (Velox) and records of one Write
	packed  []byte
	comp    compressor
}

// NewWriter returns a Writer of f-framed rows to w; c compresses Velox row
// groups (None for no compression; the Spark framing takes None only).
func NewWriter(w io.Writer, f Framing, c Codec) (*Writer, error) {
	if err := check(f, c); err != nil {
		return nil, err
	}
	return &Writer{w: w, framing: f, codec: c, comp: compressor{codec: c}}, nil
}

// Write writes rows: as bare records in the Spark framing, as one row group
// in the Velox framing (compressed when a codec is set and compression
// pays off by MinCompressionRatio). An empty Rows writes nothing.
//
// Velox also skips its next few compression attempts after one that did
// not pay off; this Writer tries every group. Both streams read the same;
// only which groups are compressed may differ.
func (w *Writer) Write(rows *rowbridge.Rows) error {
	n := rows.Len()
	if n == 0 {
		return nil
	}
	head := 0
	if w.framing == Velox {
		head = HeaderSize
	}
	size := head + 4*n + len(rows.Data)
	if w.framing == Velox && size-head > math.MaxInt32 {
		return fmt.Errorf("framing: a row group of %d bytes does not fit the int32 header; write fewer rows at a time", size-head)
	}
	w.buf = growTo(w.buf, size)[:head]
	for i := range n {
		row := rows.Row(i)
		if int64(len(row)) > math.MaxInt32 {
			return fmt.Errorf("framing: row %d of %d bytes does not fit the int32 size prefix", i, len(row))
		}
		w.buf = binary.BigEndian.AppendUint32(w.buf, uint32(len(row)))
		w.buf = append(w.buf, row...)
	}
	if w.framing == Spark {
		_, err := w.w.Write(w.buf)
		return err
	}
	records := w.buf[head:]
	if w.codec != None {
		packed, ok, err := w.comp.compress(w.packed, records)
		if err != nil {
			return fmt.Errorf("framing: %v compression: %w", w.codec, err)
		}
		w.packed = packed
		if ok && float64(len(packed)) <= MinCompressionRatio*float64(len(records)) {
			var h [HeaderSize]byte
			putHeader(h[:], len(records), len(packed), 1)
			if _, err := w.w.Write(h[:]); err != nil {
				return err
			}
			_, err := w.w.Write(packed)
			return err
		}
	}
	putHeader(w.buf, len(records), len(records), 0)
	_, err := w.w.Write(w.buf)
	return err
}

func putHeader(h []byte, usize, csize int, compressed byte) {
	binary.LittleEndian.PutUint32(h[0:], uint32(usize))
	binary.LittleEndian.PutUint32(h[4:], uint32(csize))
	h[8] = compressed
}
