package unsaferow

import (
	"math"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/arrowvec"
)

// decodeBinary copies the string or binary payloads located by spans into
// one exactly sized data buffer (sizes first, then the copy). Strings must
// be valid UTF-8, as Arrow requires; binary is taken as is.
func (st *decodeState) decodeBinary(n *arrowvec.Node, spans []span) (arrow.ArrayData, error) {
	var total int64
	for _, s := range spans {
		if s.isNull() {
			continue
		}
		total += int64(s.end - s.start)
		if total > math.MaxInt32 {
			return nil, fail(s.row, n.Path, int64(s.start), rowbridge.ErrLayout,
				"more than 2^31-1 bytes of data in one column")
		}
	}
	var v arrowvec.Validity
	v.Reset(st.mem, len(spans))
	offBuf, offs := arrowvec.NewOffsets(st.mem, len(spans))
	dataBuf := arrowvec.NewBuffer(st.mem, int(total))
	data := dataBuf.Bytes()
	checkUTF8 := n.Kind == arrowvec.KindString
	offs = offs[:len(spans)+1]
	pos := int32(0)
	for k, s := range spans {
		if s.isNull() {
			v.SetNull(k)
			offs[k+1] = pos
			continue
		}
		src := st.rows[s.row][s.start:s.end]
		if checkUTF8 && !utf8.Valid(src) {
			v.Release()
			offBuf.Release()
			dataBuf.Release()
			return nil, fail(s.row, n.Path, int64(s.start), rowbridge.ErrUTF8, "%d-byte value", len(src))
		}
		pos += int32(copy(data[pos:], src))
		offs[k+1] = pos
	}
	validity, nulls := v.Finish()
	return arrowvec.NewBinaryData(n.Type, len(spans), validity, nulls, offBuf, dataBuf), nil
}
