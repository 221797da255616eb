package unsaferow

import (
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// A struct field of arrays of words (ARRAY(BIGINT) and the like, see
// wordElements) is decoded in one pass over its slots, without a span per
// array: each slot word is followed to its array, which is checked,
// counted and copied while it is at hand.

// maxSlotCopy bounds the scratch memory the one-pass decodes of word
// arrays (decodeWordListSlots, decodeWordLists) copy through, which the
// Decoder's pool keeps: a batch of more input bytes takes the passes of
// the general path.
const maxSlotCopy = 64 << 20

// decodeWordListSlots decodes a field of arrays of words (wordElements) of
// the structs in spans in one pass: each slot word is resolved to its array
// (resolveWord's checks), the array counted and checked (countRun's) and
// its elements copied into scratch memory, which is then copied whole into
// a buffer of the size found. Null structs and fields make null arrays.
// It gives up (ok false, having kept nothing) at the first thing it does
// not expect, a null element included, and the field goes through
// decodeOutOfLine, which reports what is wrong or decodes the nulls.
func (st *decodeState) decodeWordListSlots(f *columnar.Node, spans []span, fs fieldSlot) (_ arrow.ArrayData, ok bool) {
	e := f.Children[0]
	if st.budget > maxSlotCopy {
		return nil, false
	}
	w := int64(e.Kind.ValueWidth())
	tmp := st.sc.copyBytes(int(st.budget) + 8)
	var v columnar.Validity
	v.Reset(st.mem, len(spans))
	offBuf, offs := columnar.NewOffsets(st.mem, len(spans))
	var total int64
	switch w {
	case 8:
		total, ok = slotWordLists[uint64](st.rows, spans, fs, offs, tmp, st.budget, &v)
	case 4:
		total, ok = slotWordLists[uint32](st.rows, spans, fs, offs, tmp, st.budget, &v)
	case 2:
		total, ok = slotWordLists[uint16](st.rows, spans, fs, offs, tmp, st.budget, &v)
	default:
		total, ok = slotWordLists[uint8](st.rows, spans, fs, offs, tmp, st.budget, &v)
	}
	if !ok {
		v.Release()
		offBuf.Release()
		return nil, false
	}
	buf := columnar.NewBuffer(st.mem, int(total*w))
	copy(buf.Bytes(), tmp)
	elems := columnar.NewFixedData(e.Type, int(total), nil, 0, buf)
	validity, nulls := v.Finish()
	return columnar.NewListData(f.Type, len(spans), validity, nulls, offBuf, elems), true
}

// slotWordLists is decodeWordListSlots' pass: runs of slotWordListRun,
// with the null arrays between them marked in v.
func slotWordLists[T columnar.Word](rows []columnar.RowRef, spans []span, fs fieldSlot, offs []int32, tmp []byte, budget int64, v *columnar.Validity) (total int64, ok bool) {
	offs = offs[:len(spans)+1]
	var used int64
	for k := 0; ; k++ {
		if fs.top {
			k, total, used, ok = rowWordListRun[T](rows, fs, offs, tmp, k, total, used, budget)
		} else {
			k, total, used, ok = slotWordListRun[T](rows, spans, fs, offs, tmp, k, total, used, budget)
		}
		if !ok || k == len(spans) {
			return total, ok
		}
		v.SetNull(k)
		offs[k+1] = int32(total)
	}
}

// slotWordListRun resolves, checks and copies the arrays from index k on
// (see decodeWordListSlots), the element total so far being total and the
// sizes seen used, up to the first null one, and returns its index
// (len(spans) at the end) with the totals; ok is false where it gives up.
// The bytes copied fit tmp, which holds the budget and 8 more, as long as
// the sizes stay within the budget.
func slotWordListRun[T columnar.Word](rows []columnar.RowRef, spans []span, fs fieldSlot, offs []int32, tmp []byte, k int, total, used, budget int64) (int, int64, int64, bool) {
	w := int64(unsafe.Sizeof(T(0)))
	offs = offs[:len(spans)+1]
	for ; k < len(spans); k++ {
		s := spans[k]
		if s.start < 0 {
			break
		}
		ref := rows[s.row]
		if columnar.LoadFixed[uint8](ref, int(s.start+fs.bitByte))&fs.bitMask != 0 {
			break
		}
		word := columnar.LoadFixed[uint64](ref, int(s.start+fs.slot))
		r := ref.Bytes()
		off, size := int64(word>>32), int64(uint32(word))
		used += size
		// resolveWord's checks, then room for the count.
		if (int64(s.end-s.start)-off-size)&math.MinInt64|(off-int64(fs.varStart))&(math.MinInt64|7)|(size-8)&math.MinInt64 != 0 || used > budget {
			return k, 0, 0, false
		}
		a := int(s.start) + int(off)
		c := int64(columnar.Load[uint64](r, a))
		d := size - (arrayHeader(c) + c*w)
		if uint64(c) > math.MaxInt32 || uint64(d) > 7 {
			return k, 0, 0, false
		}
		last := a + 8*int(nwords(c))
		bw, unused := columnar.Load[uint64](r, last), unusedBits(c)
		nulls := bw &^ unused
		for p := a + 8; p < last; p += 8 { // arrays of 65 elements or more
			nulls |= columnar.Load[uint64](r, p)
		}
		if bw&unused|uint64(size&7)*uint64(d)|nulls != 0 {
			return k, 0, 0, false
		}
		at, n, pos := last+8, int(c*w), int(total*w)
		if n <= 8 && len(tmp)-pos >= 8 && len(r)-at >= 8 {
			columnar.Store(tmp, pos, columnar.Load[uint64](r, at))
		} else {
			copy(tmp[pos:pos+n], r[at:at+n])
		}
		total += c
		offs[k+1] = int32(total)
	}
	return k, total, used, true
}

// rowWordListRun is slotWordListRun over the top-level rows themselves
// (fs.top). The null bit and the slot word are read unchecked, as
// rowSlotRun does; the array they point at is read with checks.
func rowWordListRun[T columnar.Word](rows []columnar.RowRef, fs fieldSlot, offs []int32, tmp []byte, k int, total, used, budget int64) (int, int64, int64, bool) {
	w := int64(unsafe.Sizeof(T(0)))
	offs = offs[:len(rows)+1]
	bitByte, slot := int(fs.bitByte), int(fs.slot)
	for ; k < len(rows); k++ {
		ref := rows[k]
		if columnar.LoadFixed[uint8](ref, bitByte)&fs.bitMask != 0 {
			break
		}
		word := columnar.LoadFixed[uint64](ref, slot)
		r := ref.Bytes()
		a64, size := int64(word>>32), int64(uint32(word))
		used += size
		if (int64(len(r))-a64-size)&math.MinInt64|(a64-int64(fs.varStart))&(math.MinInt64|7)|(size-8)&math.MinInt64 != 0 || used > budget {
			return k, 0, 0, false
		}
		a := int(a64)
		c := int64(columnar.Load[uint64](r, a))
		d := size - (arrayHeader(c) + c*w)
		if uint64(c) > math.MaxInt32 || uint64(d) > 7 {
			return k, 0, 0, false
		}
		last := a + 8*int(nwords(c))
		bw, unused := columnar.Load[uint64](r, last), unusedBits(c)
		nulls := bw &^ unused
		for p := a + 8; p < last; p += 8 {
			nulls |= columnar.Load[uint64](r, p)
		}
		if bw&unused|uint64(size&7)*uint64(d)|nulls != 0 {
			return k, 0, 0, false
		}
		at, n, pos := last+8, int(c*w), int(total*w)
		if n <= 8 && len(tmp)-pos >= 8 && len(r)-at >= 8 {
			columnar.Store(tmp, pos, columnar.Load[uint64](r, at))
		} else {
			copy(tmp[pos:pos+n], r[at:at+n])
		}
		total += c
		offs[k+1] = int32(total)
	}
	return k, total, used, true
}
