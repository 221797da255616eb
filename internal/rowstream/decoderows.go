package rowstream

import (
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
)

// rowSlices pools the row slice headers DecodeRows hands a decoder.
var rowSlices = sync.Pool{New: func() any { return new([][]byte) }}

// maxPooledRows bounds the header slices kept for reuse (24 bytes a row).
const maxPooledRows = 1 << 20

// DecodeRows is a codec's Decoder.DecodeRows: dec's Decode of the rows of
// rs, whose row headers live in pooled memory, so decoding the Rows an
// Encoder returned allocates nothing per row or per call beyond the batch.
// Decode keeps no reference to its input, so the headers go back to the
// pool when it returns.
//
// Rows built by hand are checked first: offsets that decrease or point
// past Data are a *rowbridge.DecodeError wrapping rowbridge.ErrOutOfBounds
// (naming the first bad row and the offset, counted in Data), not a panic.
func DecodeRows(dec BatchDecoder, rs *rowbridge.Rows) (arrow.RecordBatch, error) {
	if err := CheckOffsets(rs); err != nil {
		return nil, err
	}
	p := rowSlices.Get().(*[][]byte)
	rows := rs.AppendSlices((*p)[:0])
	rec, err := dec.Decode(rows)
	clear(rows) // drop the references to rs.Data
	if cap(rows) <= maxPooledRows {
		*p = rows[:0]
		rowSlices.Put(p)
	}
	return rec, err
}

// CheckOffsets reports the first row of rs whose bounds are not inside
// Data, in order: DecodeRows' check, for a decoder that reads rs itself.
func CheckOffsets(rs *rowbridge.Rows) error {
	offs := rs.Offsets
	if len(offs) == 1 && offs[0] >= 0 && offs[0] <= len(rs.Data) {
		return nil
	}
	for i := 0; i+1 < len(offs); i++ {
		lo, hi := offs[i], offs[i+1]
		if lo < 0 || hi < lo || hi > len(rs.Data) {
			return &rowbridge.DecodeError{Row: i, Offset: -1, Err: fmt.Errorf(
				"%w: Rows.Offsets[%d:%d] = [%d, %d] is not a range of the %d bytes of Rows.Data",
				rowbridge.ErrOutOfBounds, i, i+2, lo, hi, len(rs.Data))}
		}
	}
	if len(offs) == 1 {
		return &rowbridge.DecodeError{Row: 0, Offset: -1, Err: fmt.Errorf(
			"%w: Rows.Offsets[0] = %d is not inside the %d bytes of Rows.Data", rowbridge.ErrOutOfBounds, offs[0], len(rs.Data))}
	}
	return nil
}
