package unsaferow

import (
	"encoding/binary"
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
		pos += int32(copy(data[pos:], st.rows[s.row][s.start:s.end]))
		offs[k+1] = pos
	}
	// Checking the whole column for ASCII first costs a fraction of a
	// per-value check; only columns with other bytes are checked value by value.
	if checkUTF8 && !isASCII(data) {
		for k, s := range spans {
			if !s.isNull() && !utf8.Valid(data[offs[k]:offs[k+1]]) {
				v.Release()
				offBuf.Release()
				dataBuf.Release()
				return nil, fail(s.row, n.Path, int64(s.start), rowbridge.ErrUTF8, "%d-byte value", s.end-s.start)
			}
		}
	}
	validity, nulls := v.Finish()
	return arrowvec.NewBinaryData(n.Type, len(spans), validity, nulls, offBuf, dataBuf), nil
}

// isASCII reports whether every byte of b is below 0x80.
func isASCII(b []byte) bool {
	var acc uint64
	for len(b) >= 32 {
		acc |= binary.LittleEndian.Uint64(b[0:8]) | binary.LittleEndian.Uint64(b[8:16]) |
			binary.LittleEndian.Uint64(b[16:24]) | binary.LittleEndian.Uint64(b[24:32])
		b = b[32:]
	}
	for len(b) >= 8 {
		acc |= binary.LittleEndian.Uint64(b[:8])
		b = b[8:]
	}
	for _, c := range b {
		acc |= uint64(c)
	}
	return acc&0x8080808080808080 == 0
}
