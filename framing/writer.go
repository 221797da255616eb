package framing

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
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
	// maxGroup caps a Velox group's bytes (0: MaxGroupSize); tests lower it.
	maxGroup int
	stream   io.WriteCloser // the Spark codec stream, nil without one
}

// NewWriter returns a Writer of f-framed rows to w; c compresses Velox row
// groups, or in the Spark framing is the codec stream around the records
// (see NewStreamWriter; None for no compression). Close ends the stream.
func NewWriter(w io.Writer, f Framing, c Codec) (*Writer, error) {
	if err := check(f, c, false); err != nil {
		return nil, err
	}
	if f == Spark && c != None {
		stream, err := NewStreamWriter(w, c)
		if err != nil {
			return nil, err
		}
		return &Writer{w: stream, framing: f, stream: stream}, nil
	}
	return &Writer{w: w, framing: f, codec: c, comp: compressor{codec: c}}, nil
}

// Close ends the stream: a Spark codec stream writes its last block and
// end mark; the plain framings have no trailer. It does not close the
// underlying writer.
func (w *Writer) Close() error {
	if w.stream == nil {
		return nil
	}
	return w.stream.Close()
}

// Write writes rows: as bare records in the Spark framing, as row groups
// in the Velox framing (compressed when a codec is set and compression
// pays off by MinCompressionRatio). A Velox group holds at most
// MaxGroupSize bytes, what a Reader accepts by default, so a larger Rows
// becomes several groups. A row over MaxRowSize (in the Velox framing, one
// that with its size prefix would not fit a group) is refused. An empty
// Rows writes nothing.
//
// Velox also skips its next few compression attempts after one that did
// not pay off; this Writer tries every group. Both streams read the same;
// only which groups are compressed may differ.
func (w *Writer) Write(rows *rowbridge.Rows) error {
	n := rows.Len()
	maxGroup := w.maxGroup
	if maxGroup == 0 {
		maxGroup = MaxGroupSize
	}
	limit := MaxRowSize
	if w.framing == Velox {
		limit = min(limit, maxGroup-4) // a row and its size prefix fit one group
	}
	for i := range n {
		if size := rows.Offsets[i+1] - rows.Offsets[i]; size > limit {
			return fmt.Errorf("framing: row %d of %d bytes exceeds the %d-byte row limit of readers: %w", i, size, limit, arrow.ErrInvalid)
		}
	}
	// Spark's records are copied out a chunk at a time, so that the copy
	// is bounded whatever the batch's size (not a second copy of every
	// row of a batch); a Velox group is one piece.
	chunk, head := maxGroup, HeaderSize
	if w.framing == Spark {
		chunk, head = sparkChunkBytes, 0
	}
	for lo := 0; lo < n; {
		hi, size := lo, 0
		for hi < n {
			next := 4 + rows.Offsets[hi+1] - rows.Offsets[hi]
			if hi > lo && size+next > chunk {
				break
			}
			size += next
			hi++
		}
		if err := w.writeRecords(rows, lo, hi, head); err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// sparkChunkBytes bounds the size-prefixed records of the Spark framing
// that a Writer copies out at once (a larger row is one chunk).
const sparkChunkBytes = 1 << 20

// writeRecords writes rows lo..hi-1 as size-prefixed records: bare, or as
// one Velox row group after a header of head bytes.
func (w *Writer) writeRecords(rows *rowbridge.Rows, lo, hi, head int) error {
	if lo == hi {
		return nil
	}
	size := head + 4*(hi-lo) + rows.Offsets[hi] - rows.Offsets[lo]
	w.buf = growTo(w.buf, size)[:head]
	for i := lo; i < hi; i++ {
		row := rows.Row(i)
		w.buf = binary.BigEndian.AppendUint32(w.buf, uint32(len(row)))
		w.buf = append(w.buf, row...)
	}
	if head == 0 {
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
