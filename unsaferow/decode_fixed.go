package unsaferow

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// decodeSlots decodes a field stored in its slot (docs/row-layout.md, "UnsafeRow slots") for every
// struct in spans: one loop per column, straight into the value buffer. Only
// the value's own width is read from the slot.
func (st *decodeState) decodeSlots(f *columnar.Node, spans []span, fs fieldSlot) (arrow.ArrayData, error) {
	n := len(spans)
	var v columnar.Validity
	v.Reset(st.mem, n)
	if f.Kind == columnar.KindBool {
		buf := columnar.NewZeroedBuffer(st.mem, int(bitutil.BytesForBits(int64(n))))
		slotsBool(st.rows, spans, fs, buf.Bytes(), &v)
		validity, nulls := v.Finish()
		return columnar.NewFixedData(f.Type, n, validity, nulls, buf), nil
	}
	width := f.Kind.ValueWidth()
	size, ok := columnBytes(n, width)
	if !ok {
		v.Release()
		return nil, columnTooBig(spans, f.Path, n, width)
	}
	buf := columnar.NewBuffer(st.mem, size)
	b := buf.Bytes()
	switch {
	case f.Kind == columnar.KindDecimal:
		if err := st.slotsShortDecimal(f, spans, fs, columnar.Cast[uint64](b), &v); err != nil {
			buf.Release()
			v.Release()
			return nil, err
		}
	case width == 8:
		slots(st.rows, spans, fs, columnar.Cast[uint64](b), &v)
	case width == 4:
		slots(st.rows, spans, fs, columnar.Cast[uint32](b), &v)
	case width == 2:
		slots(st.rows, spans, fs, columnar.Cast[uint16](b), &v)
	default:
		slots(st.rows, spans, fs, b, &v)
	}
	validity, nulls := v.Finish()
	return columnar.NewFixedData(f.Type, n, validity, nulls, buf), nil
}

// slots copies the T in each span's slot into out; a null entry gets a
// zero value so every byte of the buffer is written. One generic loop
// serves every width: each instantiation is its own machine code
// (columnar.Word's types have distinct GC shapes) and columnar.Load
// inlines into it.
func slots[T columnar.Word](rows [][]byte, spans []span, fs fieldSlot, out []T, v *columnar.Validity) {
	out = out[:len(spans)]
	for k, s := range spans {
		if s.start >= 0 {
			r := rows[s.row]
			if r[s.start+fs.bitByte]&fs.bitMask == 0 {
				out[k] = columnar.Load[T](r, int(s.start+fs.slot))
				continue
			}
		}
		out[k] = 0
		v.SetNull(k)
	}
}

// slotsBool sets bit k of the zeroed bitmap out for a true value; any
// non-zero byte is true.
func slotsBool(rows [][]byte, spans []span, fs fieldSlot, out []byte, v *columnar.Validity) {
	for k, s := range spans {
		if s.start >= 0 {
			r := rows[s.row]
			if r[s.start+fs.bitByte]&fs.bitMask == 0 {
				if r[s.start+fs.slot] != 0 {
					out[k>>3] |= 1 << (k & 7)
				}
				continue
			}
		}
		v.SetNull(k)
	}
}
