package unsaferow

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
		buf := columnar.NewBuffer(st.mem, int(bitutil.BytesForBits(int64(n))))
		out := buf.Bytes()
		var k int
		if fs.top {
			k = rowBoolRun(st.rows, fs, out)
		} else {
			k = boolRun(st.rows, spans, fs, out)
		}
		if k < n {
			clear(out[k>>3+1:])
			if fs.top {
				rowSlotsBool(st.rows[k:], fs, out, &v, k)
			} else {
				slotsBool(st.rows, spans[k:], fs, out, &v, k)
			}
		}
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
	if f.Kind == columnar.KindDecimal {
		slotsShortDecimal := st.slotsShortDecimal
		if fs.top {
			slotsShortDecimal = st.rowSlotsShortDecimal
		}
		if err := slotsShortDecimal(f, spans, fs, columnar.Cast[uint64](b), &v); err != nil {
			buf.Release()
			v.Release()
			return nil, err
		}
		validity, nulls := v.Finish()
		return columnar.NewFixedData(f.Type, n, validity, nulls, buf), nil
	}
	v.Release()
	bits := st.sc.validityBits(n)
	var nulls int
	switch width {
	case 8:
		nulls = slots(st.rows, spans, fs, columnar.Cast[uint64](b), bits)
	case 4:
		nulls = slots(st.rows, spans, fs, columnar.Cast[uint32](b), bits)
	case 2:
		nulls = slots(st.rows, spans, fs, columnar.Cast[uint16](b), bits)
	default:
		nulls = slots(st.rows, spans, fs, b, bits)
	}
	var validity *memory.Buffer
	if nulls > 0 {
		validity = columnar.NewBuffer(st.mem, len(bits))
		copy(validity.Bytes(), bits)
	}
	return columnar.NewFixedData(f.Type, n, validity, nulls, buf), nil
}

// slots copies the T in each span's slot into out and returns the null
// count; a null entry gets a zero value so every byte of out is written.
// When there are nulls it writes the validity of every entry into bits
// ((len(spans)+7)/8 bytes, every byte written, bits past the last entry
// clear); without, it leaves bits alone. The loop over a column without
// nulls (slotRun) does nothing per value but the copy; from the first null
// on, slotsWithNulls gathers the bits eight entries to a byte, with no
// call per null. One generic loop serves every width: each instantiation
// is its own machine code (columnar.Word's types have distinct GC shapes)
// and columnar.Load inlines into it.
func slots[T columnar.Word](rows []columnar.RowRef, spans []span, fs fieldSlot, out []T, bits []byte) int {
	if fs.top {
		if k := rowSlotRun(rows, fs, out); k < len(rows) {
			return rowSlotsWithNulls(rows, fs, out, bits, k)
		}
		return 0
	}
	if k := slotRun(rows, spans, fs, out); k < len(spans) {
		return slotsWithNulls(rows, spans, fs, out, bits, k)
	}
	return 0
}

// slotRun copies the T in each span's slot into out up to the first null
// entry and returns its index (len(spans) when there is none). It makes
// no call, so that the loop's values stay in registers. It is kept out of
// line, as the loop it replaced was, rather than inlined four times into
// decodeSlots.
//
//go:noinline
func slotRun[T columnar.Word](rows []columnar.RowRef, spans []span, fs fieldSlot, out []T) int {
	out = out[:len(spans)]
	for k, s := range spans {
		if s.start < 0 {
			return k
		}
		r := rows[s.row]
		if columnar.LoadFixed[uint8](r, int(s.start+fs.bitByte))&fs.bitMask != 0 {
			return k
		}
		out[k] = columnar.LoadFixed[T](r, int(s.start+fs.slot))
	}
	return len(spans)
}

// rowSlotRun is slotRun over the top-level rows themselves (fs.top). The
// null bit and the slot lie in the fixed part of the row, which rowSpans
// has checked every row to hold: they are read unchecked.
//
//go:noinline
func rowSlotRun[T columnar.Word](rows []columnar.RowRef, fs fieldSlot, out []T) int {
	out = out[:len(rows)]
	bitByte, slot := int(fs.bitByte), int(fs.slot)
	for k, r := range rows {
		if columnar.LoadFixed[uint8](r, bitByte)&fs.bitMask != 0 {
			return k
		}
		out[k] = columnar.LoadFixed[T](r, slot)
	}
	return len(rows)
}

// slotsWithNulls is slots from entry k0, the first null, on.
func slotsWithNulls[T columnar.Word](rows []columnar.RowRef, spans []span, fs fieldSlot, out []T, bits []byte, k0 int) int {
	out = out[:len(spans)]
	bits = bits[:(len(spans)+7)/8]
	for i := range k0 >> 3 {
		bits[i] = 0xff
	}
	acc := byte(1)<<(k0&7) - 1
	nulls := 0
	for k := k0; k < len(spans); k++ {
		s := spans[k]
		var x T
		var ok byte
		if s.start >= 0 {
			r := rows[s.row]
			if columnar.LoadFixed[uint8](r, int(s.start+fs.bitByte))&fs.bitMask == 0 {
				x = columnar.LoadFixed[T](r, int(s.start+fs.slot))
				ok = 1
			}
		}
		out[k] = x
		nulls += int(ok ^ 1)
		acc |= ok << (k & 7)
		if k&7 == 7 {
			bits[k>>3] = acc
			acc = 0
		}
	}
	if len(spans)&7 != 0 {
		bits[len(spans)>>3] = acc
	}
	return nulls
}

// rowSlotsWithNulls is slotsWithNulls over the top-level rows themselves
// (fs.top), reading as rowSlotRun does.
func rowSlotsWithNulls[T columnar.Word](rows []columnar.RowRef, fs fieldSlot, out []T, bits []byte, k0 int) int {
	out = out[:len(rows)]
	bits = bits[:(len(rows)+7)/8]
	for i := range k0 >> 3 {
		bits[i] = 0xff
	}
	bitByte, slot := int(fs.bitByte), int(fs.slot)
	acc := byte(1)<<(k0&7) - 1
	nulls := 0
	for k := k0; k < len(rows); k++ {
		r := rows[k]
		var x T
		var ok byte
		if columnar.LoadFixed[uint8](r, bitByte)&fs.bitMask == 0 {
			x = columnar.LoadFixed[T](r, slot)
			ok = 1
		}
		out[k] = x
		nulls += int(ok ^ 1)
		acc |= ok << (k & 7)
		if k&7 == 7 {
			bits[k>>3] = acc
			acc = 0
		}
	}
	if len(rows)&7 != 0 {
		bits[len(rows)>>3] = acc
	}
	return nulls
}

// boolRun writes the bits of the booleans in the spans' slots into out,
// eight to a byte, up to the first null entry, and returns its index
// (len(spans) when there is none); the byte holding that entry is written
// with the bits before it, those after it are left alone. Any non-zero
// byte is true. The bits are gathered without a branch on the value,
// which is random and would be mispredicted.
func boolRun(rows []columnar.RowRef, spans []span, fs fieldSlot, out []byte) int {
	out = out[:(len(spans)+7)/8]
	var acc byte
	for k, s := range spans {
		if s.start < 0 || columnar.LoadFixed[uint8](rows[s.row], int(s.start+fs.bitByte))&fs.bitMask != 0 {
			out[k>>3] = acc
			return k
		}
		var b byte
		if columnar.LoadFixed[uint8](rows[s.row], int(s.start+fs.slot)) != 0 {
			b = 1
		}
		acc |= b << (k & 7)
		if k&7 == 7 {
			out[k>>3] = acc
			acc = 0
		}
	}
	if len(spans)&7 != 0 {
		out[len(spans)>>3] = acc
	}
	return len(spans)
}

// rowBoolRun is boolRun over the top-level rows themselves (fs.top),
// reading as rowSlotRun does.
func rowBoolRun(rows []columnar.RowRef, fs fieldSlot, out []byte) int {
	out = out[:(len(rows)+7)/8]
	bitByte, slot := int(fs.bitByte), int(fs.slot)
	var acc byte
	for k, r := range rows {
		if columnar.LoadFixed[uint8](r, bitByte)&fs.bitMask != 0 {
			out[k>>3] = acc
			return k
		}
		var b byte
		if columnar.LoadFixed[uint8](r, slot) != 0 {
			b = 1
		}
		acc |= b << (k & 7)
		if k&7 == 7 {
			out[k>>3] = acc
			acc = 0
		}
	}
	if len(rows)&7 != 0 {
		out[len(rows)>>3] = acc
	}
	return len(rows)
}

// slotsBool sets bit k0+k of out, whose bits from k0 on are clear, for a
// true value of spans[k]; null entries are marked in v.
func slotsBool(rows []columnar.RowRef, spans []span, fs fieldSlot, out []byte, v *columnar.Validity, k0 int) {
	for k, s := range spans {
		i := k0 + k
		if s.start >= 0 {
			r := rows[s.row]
			if columnar.LoadFixed[uint8](r, int(s.start+fs.bitByte))&fs.bitMask == 0 {
				if columnar.LoadFixed[uint8](r, int(s.start+fs.slot)) != 0 {
					out[i>>3] |= 1 << (i & 7)
				}
				continue
			}
		}
		v.SetNull(i)
	}
}

// rowSlotsBool is slotsBool over the top-level rows themselves (fs.top),
// reading as rowSlotRun does.
func rowSlotsBool(rows []columnar.RowRef, fs fieldSlot, out []byte, v *columnar.Validity, k0 int) {
	bitByte, slot := int(fs.bitByte), int(fs.slot)
	for k, r := range rows {
		i := k0 + k
		if columnar.LoadFixed[uint8](r, bitByte)&fs.bitMask != 0 {
			v.SetNull(i)
			continue
		}
		if columnar.LoadFixed[uint8](r, slot) != 0 {
			out[i>>3] |= 1 << (i & 7)
		}
	}
}
