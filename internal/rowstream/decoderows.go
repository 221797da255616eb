package rowstream

import (
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
func DecodeRows(dec BatchDecoder, rs *rowbridge.Rows) (arrow.RecordBatch, error) {
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
