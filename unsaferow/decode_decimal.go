package unsaferow

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Decimals (docs/row-layout.md, "UnsafeRow decimals"): precision <= 18 is an int64 unscaled value inline;
// larger precisions are Java BigInteger bytes (big-endian two's complement,
// 1..16 bytes) behind an offset/size word. Arrow wants little-endian
// decimal128 (low word first) whose magnitude fits the precision.

// slotsShortDecimal widens the int64 in each slot to decimal128 (two words
// per value in out).
func (st *decodeState) slotsShortDecimal(f *columnar.Node, spans []span, fs fieldSlot, out []uint64, v *columnar.Validity) error {
	out = out[:2*len(spans)]
	for k, s := range spans {
		if s.start >= 0 {
			r := st.rows[s.row]
			if columnar.LoadFixed[uint8](r, int(s.start+fs.bitByte))&fs.bitMask == 0 {
				p := s.start + fs.slot
				x := int64(columnar.LoadFixed[uint64](r, int(p)))
				if !f.Limit.ShortOK(x) {
					return fail(s.row, f.Path, int64(p), rowbridge.ErrDecimal,
						"unscaled value %d exceeds precision %d", x, f.Precision)
				}
				out[2*k], out[2*k+1] = uint64(x), uint64(x>>63)
				continue
			}
		}
		out[2*k], out[2*k+1] = 0, 0
		v.SetNull(k)
	}
	return nil
}

// rowSlotsShortDecimal is slotsShortDecimal over the top-level rows
// themselves (fs.top; spans are unused), reading null bits and slots
// unchecked, as rowSlotRun does.
func (st *decodeState) rowSlotsShortDecimal(f *columnar.Node, _ []span, fs fieldSlot, out []uint64, v *columnar.Validity) error {
	out = out[:2*len(st.rows)]
	bitByte, slot := int(fs.bitByte), int(fs.slot)
	for k, r := range st.rows {
		if columnar.LoadFixed[uint8](r, bitByte)&fs.bitMask != 0 {
			out[2*k], out[2*k+1] = 0, 0
			v.SetNull(k)
			continue
		}
		x := int64(columnar.LoadFixed[uint64](r, slot))
		if !f.Limit.ShortOK(x) {
			return fail(int32(k), f.Path, int64(slot), rowbridge.ErrDecimal,
				"unscaled value %d exceeds precision %d", x, f.Precision)
		}
		out[2*k], out[2*k+1] = uint64(x), uint64(x>>63)
	}
	return nil
}

// decodeLongDecimal decodes the BigInteger payloads located by spans.
func (st *decodeState) decodeLongDecimal(n *columnar.Node, spans []span) (arrow.ArrayData, error) {
	size, ok := columnBytes(len(spans), 16)
	if !ok {
		return nil, columnTooBig(spans, n.Path, len(spans), 16)
	}
	var v columnar.Validity
	v.Reset(st.mem, len(spans))
	buf := columnar.NewBuffer(st.mem, size)
	out := columnar.Cast[uint64](buf.Bytes())
	for k, s := range spans {
		if s.isNull() {
			out[2*k], out[2*k+1] = 0, 0
			v.SetNull(k)
			continue
		}
		size := s.end - s.start
		if size < 1 || size > 16 {
			buf.Release()
			v.Release()
			return nil, fail(s.row, n.Path, int64(s.start), rowbridge.ErrDecimal,
				"long decimal of %d bytes (want 1..16)", size)
		}
		lo, hi := bigIntegerBytes(st.rows[s.row].Bytes()[s.start:s.end])
		if !n.Limit.LongOK(hi, lo) {
			buf.Release()
			v.Release()
			return nil, fail(s.row, n.Path, int64(s.start), rowbridge.ErrDecimal,
				"value exceeds precision %d", n.Precision)
		}
		out[2*k], out[2*k+1] = lo, uint64(hi)
	}
	validity, nulls := v.Finish()
	return columnar.NewFixedData(n.Type, len(spans), validity, nulls, buf), nil
}

// bigIntegerBytes reads 1..16 big-endian two's-complement bytes,
// sign-extended to 128 bits.
func bigIntegerBytes(b []byte) (lo uint64, hi int64) {
	var be [16]byte
	if b[0]&0x80 != 0 {
		be = [16]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	}
	copy(be[16-len(b):], b)
	return binary.BigEndian.Uint64(be[8:]), int64(binary.BigEndian.Uint64(be[:8]))
}
