package unsaferow

import (
	"math"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// decodeBinary copies the string or binary payloads located by spans into
// one exactly sized data buffer (sizes first, then the copy). Strings must
// be valid UTF-8, as Arrow requires; binary is taken as is.
func (st *decodeState) decodeBinary(n *columnar.Node, spans []span) (arrow.ArrayData, error) {
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
	var v columnar.Validity
	v.Reset(st.mem, len(spans))
	offBuf, offs := columnar.NewOffsets(st.mem, len(spans))
	dataBuf := columnar.NewBuffer(st.mem, int(total))
	data := dataBuf.Bytes()
	checkUTF8 := n.Kind == columnar.KindString
	offs = offs[:len(spans)+1]
	pos := int32(0)
	for k, s := range spans {
		if s.isNull() {
			v.SetNull(k)
			offs[k+1] = pos
			continue
		}
		pos += int32(copy(data[pos:], st.rows[s.row].Bytes()[s.start:s.end]))
		offs[k+1] = pos
	}
	// Checking the whole column for ASCII first costs a fraction of a
	// UTF-8 check; other columns are checked in one pass, and only a
	// column that fails it value by value, to name the bad value.
	if checkUTF8 && !columnar.IsASCII(data) && !validUTF8Values(data, offs) {
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
	return columnar.NewBinaryData(n.Type, len(spans), validity, nulls, offBuf, dataBuf), nil
}

// decodeBinarySlots decodes a string or binary field of the structs in
// spans without a span list: a sizing pass that only loads the size halves
// of the slot words, then one pass that checks each word, copies the bytes
// and writes the offset. A total beyond the budget (overlapping values) or
// a word pointing outside its struct sends the column through the general
// path, which finds and reports the first bad value exactly as before.
// total is the sizes' sum when slotSizesOf has made it (else negative).
func (st *decodeState) decodeBinarySlots(f *columnar.Node, spans []span, fs fieldSlot, total int64) (arrow.ArrayData, error) {
	if total < 0 {
		total = st.slotSizes(spans, fs)
	}
	if total > st.budget || total > math.MaxInt32 {
		return st.decodeOutOfLine(f, spans, fs)
	}
	var v columnar.Validity
	v.Reset(st.mem, len(spans))
	offBuf, offs := columnar.NewOffsets(st.mem, len(spans))
	dataBuf := columnar.NewBuffer(st.mem, int(total))
	ok := copySlotValues(st.rows, spans, fs, offs, dataBuf.Bytes(), &v)
	if !ok || (f.Kind == columnar.KindString && !columnar.IsASCII(dataBuf.Bytes()) && !validUTF8Values(dataBuf.Bytes(), offs)) {
		v.Release()
		offBuf.Release()
		dataBuf.Release()
		return st.decodeOutOfLine(f, spans, fs)
	}
	validity, nulls := v.Finish()
	return columnar.NewBinaryData(f.Type, len(spans), validity, nulls, offBuf, dataBuf), nil
}

// slotSizes sums the sizes in the slot words of the non-null values. Sizes
// are unchecked here; the sum only has to bound the allocation.
func (st *decodeState) slotSizes(spans []span, fs fieldSlot) int64 {
	var total int64
	if fs.top {
		// Null bits and slots are read unchecked, as rowSlotRun does.
		bitByte, slot := int(fs.bitByte), int(fs.slot)
		for _, r := range st.rows {
			if columnar.LoadFixed[uint8](r, bitByte)&fs.bitMask == 0 {
				total += int64(columnar.LoadFixed[uint32](r, slot))
			}
		}
		return total
	}
	for _, s := range spans {
		if s.start < 0 {
			continue
		}
		r := st.rows[s.row]
		if columnar.LoadFixed[uint8](r, int(s.start+fs.bitByte))&fs.bitMask != 0 {
			continue
		}
		total += int64(columnar.LoadFixed[uint32](r, int(s.start+fs.slot)))
	}
	return total
}

// maxSized is the most string and binary fields of one struct whose sizes
// slotSizesOf sums in one pass; the others are summed one by one.
const maxSized = 16

// slotSizesOf is slotSizes of several fields at once: totals[j] is the
// sum for fss[j]. Over the top-level rows (fss[0].top) it ranges over the
// rows themselves.
func slotSizesOf(rows []columnar.RowRef, spans []span, fss []fieldSlot, totals []int64) {
	totals = totals[:len(fss)]
	if fss[0].top {
		// Null bits and slots are read unchecked, as rowSlotRun does.
		for _, r := range rows {
			for j, fs := range fss {
				if columnar.LoadFixed[uint8](r, int(fs.bitByte))&fs.bitMask == 0 {
					totals[j] += int64(columnar.LoadFixed[uint32](r, int(fs.slot)))
				}
			}
		}
		return
	}
	for _, s := range spans {
		if s.start < 0 {
			continue
		}
		r := rows[s.row]
		for j, fs := range fss {
			if columnar.LoadFixed[uint8](r, int(s.start+fs.bitByte))&fs.bitMask == 0 {
				totals[j] += int64(columnar.LoadFixed[uint32](r, int(s.start+fs.slot)))
			}
		}
	}
}

// copySlotValues copies each non-null value into data (sized by slotSizes)
// and writes the offsets; it reports false at the first value that does not
// lie inside its struct's variable region at a multiple of 8 (resolveWord's
// checks but the budget, which slotSizes' total already met). Null values
// are marked between runs of copySlotRun, so that loop makes no call.
func copySlotValues(rows []columnar.RowRef, spans []span, fs fieldSlot, offs []int32, data []byte, v *columnar.Validity) bool {
	offs = offs[:len(spans)+1]
	pos := 0
	for k := 0; ; k++ {
		var ok bool
		if fs.top {
			k, pos, ok = rowCopySlotRun(rows, fs, offs, data, k, pos)
		} else {
			k, pos, ok = copySlotRun(rows, spans, fs, offs, data, k, pos)
		}
		if !ok {
			return false
		}
		if k == len(spans) {
			return true
		}
		v.SetNull(k)
		offs[k+1] = int32(pos)
	}
}

// copySlotRun copies the values from index k on, data being written up to
// pos, up to the first null one, and returns its index (len(spans) at the
// end) and pos; ok is false at a value copySlotValues refuses.
func copySlotRun(rows []columnar.RowRef, spans []span, fs fieldSlot, offs []int32, data []byte, k, pos int) (int, int, bool) {
	offs = offs[:len(spans)+1]
	for ; k < len(spans); k++ {
		s := spans[k]
		if s.start < 0 {
			return k, pos, true
		}
		r := rows[s.row]
		if columnar.LoadFixed[uint8](r, int(s.start+fs.bitByte))&fs.bitMask != 0 {
			return k, pos, true
		}
		w := columnar.LoadFixed[uint64](r, int(s.start+fs.slot))
		off := int64(w >> 32)
		start := int64(s.start) + off
		end := start + int64(uint32(w))
		if end > int64(s.end) || (off-int64(fs.varStart))&(math.MinInt64|7) != 0 {
			return k, pos, false
		}
		pos += copy(data[pos:], r.Bytes()[start:end])
		offs[k+1] = int32(pos)
	}
	return k, pos, true
}

// rowCopySlotRun is copySlotRun over the top-level rows themselves
// (fs.top). The null bit and the slot word are read unchecked, as
// rowSlotRun does; the value is sliced with checks.
func rowCopySlotRun(rows []columnar.RowRef, fs fieldSlot, offs []int32, data []byte, k, pos int) (int, int, bool) {
	offs = offs[:len(rows)+1]
	bitByte, slot := int(fs.bitByte), int(fs.slot)
	for ; k < len(rows); k++ {
		r := rows[k]
		if columnar.LoadFixed[uint8](r, bitByte)&fs.bitMask != 0 {
			return k, pos, true
		}
		w := columnar.LoadFixed[uint64](r, slot)
		start := int64(w >> 32)
		end := start + int64(uint32(w))
		if end > int64(r.Len()) || (start-int64(fs.varStart))&(math.MinInt64|7) != 0 {
			return k, pos, false
		}
		pos += copy(data[pos:], r.Bytes()[start:end])
		offs[k+1] = int32(pos)
	}
	return k, pos, true
}

// validUTF8Values reports whether every value of a binary column is UTF-8,
// in one pass over data (which the offsets cover from 0 to its end): the
// whole is UTF-8 and no value starts inside a character (at a
// continuation byte), so no character spans two values.
func validUTF8Values(data []byte, offs []int32) bool {
	for k := 1; k < len(offs); k++ {
		if a := offs[k-1]; a < offs[k] && data[a]&0xc0 == 0x80 {
			return false
		}
	}
	return utf8.Valid(data)
}
