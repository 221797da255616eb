package unsaferow

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// decodeStruct decodes the nested structs located by spans (docs/row-layout.md, "UnsafeRow nested structs").
// Like a top-level row, a struct is a multiple of 8 bytes, and exactly its
// null bitset and slots when every field is fixed-width.
func (st *decodeState) decodeStruct(n *columnar.Node, spans []span) (arrow.ArrayData, error) {
	var v columnar.Validity
	v.Reset(st.mem, len(spans))
	need := int32(structHeaderBytes(len(n.Children)))
	exact := fixedOnly(n.Children)
	for k, s := range spans {
		if s.isNull() {
			v.SetNull(k)
			continue
		}
		size := s.end - s.start
		if size < need || size&7 != 0 || (exact && size != need) {
			v.Release()
			return nil, structSizeError(s, n, need, exact)
		}
	}
	children := make([]arrow.ArrayData, len(n.Children))
	if err := st.decodeFields(n.Path, n.Children, spans, children, false); err != nil {
		v.Release()
		return nil, err
	}
	validity, nulls := v.Finish()
	return columnar.NewStructData(n.Type, len(spans), validity, nulls, children), nil
}

func structSizeError(s span, n *columnar.Node, need int32, exact bool) error {
	size := s.end - s.start
	switch {
	case size < need:
		return fail(s.row, n.Path, int64(s.start), rowbridge.ErrTruncated,
			"struct of %d bytes, its %d fields need %d", size, len(n.Children), need)
	case size&7 != 0:
		return fail(s.row, n.Path, int64(s.start), rowbridge.ErrLayout,
			"struct of %d bytes is not a multiple of 8", size)
	}
	return fail(s.row, n.Path, int64(s.start), rowbridge.ErrLayout,
		"struct of %d bytes; its %d fields are all fixed-width and take exactly %d", size, len(n.Children), need)
}

// decodeFields decodes every field of the structs located by spans into
// out, one column at a time; path names the structs ("" for top-level
// rows). Each valid span has been checked to hold the null bitset and all
// slots. A field is null where its struct is null or its null bit is set;
// only then is its slot left unread. A null bit set in a valid struct for a
// NOT NULL field, or past the last field, is an ErrLayout at the bit's byte.
// top says spans are the top-level rows, in order (span k is all of row
// k), whose bits past the last field Decode has checked.
func (st *decodeState) decodeFields(path string, fields []*columnar.Node, spans []span, out []arrow.ArrayData, top bool) error {
	if !top {
		if err := st.checkUnusedBits(path, len(fields), spans); err != nil {
			return err
		}
	}
	bitset := int(8 * nwords(int64(len(fields))))
	header := int32(structHeaderBytes(len(fields)))
	slotOf := func(i int) fieldSlot {
		return fieldSlot{slot: int32(bitset + 8*i), bitByte: int32(i >> 3), bitMask: 1 << (i & 7), varStart: header, top: top}
	}
	// The data sizes of string and binary fields are summed in one pass
	// over the structs (up to maxSized fields), not one pass each.
	var sized [maxSized]fieldSlot
	var totals [maxSized]int64
	nsized := 0
	for i, f := range fields {
		if (f.Kind == columnar.KindString || f.Kind == columnar.KindBinary) && nsized < maxSized {
			sized[nsized] = slotOf(i)
			nsized++
		}
	}
	if nsized > 1 {
		slotSizesOf(st.rows, spans, sized[:nsized], totals[:nsized])
	}
	nbin := 0
	for i, f := range fields {
		slot := slotOf(i)
		if notNull(f) {
			if k := firstNullField(st.rows, spans, slot); k >= 0 {
				releaseAll(out[:i])
				s := spans[k]
				return fail(s.row, f.Path, int64(s.start+slot.bitByte), rowbridge.ErrLayout, "null in a NOT NULL field")
			}
		}
		var err error
		switch {
		case f.Kind == columnar.KindNull:
			out[i] = columnar.NewNullData(len(spans))
		case isInline(f):
			out[i], err = st.decodeSlots(f, spans, slot)
		case f.Kind == columnar.KindString || f.Kind == columnar.KindBinary:
			total := int64(-1) // not summed yet
			if nsized > 1 && nbin < nsized {
				total = totals[nbin]
			}
			nbin++
			out[i], err = st.decodeBinarySlots(f, spans, slot, total)
		default:
			var ok bool
			if f.Kind == columnar.KindList && wordElements(f.Children[0]) {
				out[i], ok = st.decodeWordListSlots(f, spans, slot)
			}
			if !ok {
				out[i], err = st.decodeOutOfLine(f, spans, slot)
			}
		}
		if err != nil {
			releaseAll(out[:i])
			return err
		}
	}
	return nil
}

// checkUnusedBits fails at the first valid struct in spans with a null bit
// set past its n fields (in the last word of its bitset). Spark and Velox
// leave those bits zero, so a set one means the bytes hold more fields than
// the schema says.
func (st *decodeState) checkUnusedBits(path string, n int, spans []span) error {
	if n&63 == 0 {
		return nil
	}
	l, mask := unusedFieldBits(n)
	last := int32(l)
	k := firstUnusedBit(st.rows, spans, last, mask)
	if k < 0 {
		return nil
	}
	s := spans[k]
	bit := int64(last)*8 + int64(bits.TrailingZeros64(binary.LittleEndian.Uint64(st.rows[s.row].Bytes()[s.start+last:])&mask))
	what := "struct"
	if path == "" {
		what = "row"
	}
	return fail(s.row, path, int64(s.start)+bit/8, rowbridge.ErrLayout,
		"null bit %d is set, but the %s has %d fields", bit, what, n)
}

// unusedFieldBits locates the null bits past n fields: the byte offset of
// the last bitset word and the mask of its unused bits (0 when n is a
// multiple of 64).
func unusedFieldBits(n int) (last int, mask uint64) {
	last = int(8 * max(nwords(int64(n))-1, 0))
	if n&63 != 0 {
		mask = ^uint64(0) << (n & 63)
	}
	return last, mask
}

// firstUnusedBit returns the index of the first valid span whose bitset
// word at last has a bit of mask set, or -1.
func firstUnusedBit(rows []columnar.RowRef, spans []span, last int32, mask uint64) int {
	for k, s := range spans {
		if s.start >= 0 && columnar.LoadFixed[uint64](rows[s.row], int(s.start+last))&mask != 0 {
			return k
		}
	}
	return -1
}

// notNull reports whether a null for n is an error: n is declared NOT NULL
// and is not of the null type, whose values are always null.
func notNull(n *columnar.Node) bool { return !n.Nullable && n.Kind != columnar.KindNull }

// firstNullField returns the index of the first valid span whose null bit
// for the field at fs is set, or -1. It is the only cost of a NOT NULL
// field, and nullable fields do not pay it.
func firstNullField(rows []columnar.RowRef, spans []span, fs fieldSlot) int {
	if fs.top {
		// The null bit is read unchecked, as rowSlotRun does.
		for k, r := range rows {
			if columnar.LoadFixed[uint8](r, int(fs.bitByte))&fs.bitMask != 0 {
				return k
			}
		}
		return -1
	}
	for k, s := range spans {
		if s.start >= 0 && columnar.LoadFixed[uint8](rows[s.row], int(s.start+fs.bitByte))&fs.bitMask != 0 {
			return k
		}
	}
	return -1
}

// fieldSlot says where one field lives inside its struct: the slot's byte
// offset, the null bit's byte and mask, and where the struct's variable
// region starts (its null bitset and slots end), the least offset a
// variable-length value may have. top says the structs are the top-level
// rows, in order, so that a loop may range over the rows themselves
// rather than load each span and then its row.
//
// A valid struct's null bits and slots are read with columnar.LoadFixed,
// unchecked: decodeFields is only handed structs whose size has been
// checked to hold them (by rowSpans for the top-level rows, by
// decodeStruct for nested structs).
type fieldSlot struct {
	slot     int32
	bitByte  int32
	bitMask  byte
	top      bool
	varStart int32
}

// decodeOutOfLine follows the offset/size word in the slot of a
// variable-length field (docs/row-layout.md, "UnsafeRow variable-length values") and decodes the values it points at.
func (st *decodeState) decodeOutOfLine(f *columnar.Node, spans []span, fs fieldSlot) (arrow.ArrayData, error) {
	child := st.sc.push(len(spans))
	defer st.sc.pop(len(spans))
	resolve := resolveSlotWords
	if fs.top {
		resolve = resolveRowWords
	}
	if bad, used := resolve(st.rows, spans, fs, child, st.budget); bad >= 0 {
		s := spans[bad]
		return nil, st.wordError(st.rows[s.row].Bytes(), s, s.start+fs.slot, fs.varStart, f.Path, used)
	}
	return st.decodeValue(f, child)
}

// resolveSlotWords is decodeOutOfLine's loop: it fills child with the
// spans of the values the slot words at fs point at (nullSpan for a null
// struct or field). It stops at the first word that fails resolveWord and
// returns its index as bad (-1 when there is none) and the size total so
// far; the caller builds the error, so that the loop makes no call.
func resolveSlotWords(rows []columnar.RowRef, spans []span, fs fieldSlot, child []span, budget int64) (bad int, used int64) {
	child = child[:len(spans)]
	for k, s := range spans {
		if s.start < 0 {
			child[k] = nullSpan
			continue
		}
		r := rows[s.row]
		if columnar.LoadFixed[uint8](r, int(s.start+fs.bitByte))&fs.bitMask != 0 {
			child[k] = nullSpan
			continue
		}
		c, ok := resolveWord(r.Bytes(), s, s.start+fs.slot, fs.varStart, &used, budget)
		if !ok {
			return k, used
		}
		child[k] = c
	}
	return -1, used
}

// resolveRowWords is resolveSlotWords over the top-level rows themselves
// (fs.top; spans are unused). The null bit and the slot word are read
// unchecked, as rowSlotRun does; validity is settled before the word is
// read.
func resolveRowWords(rows []columnar.RowRef, _ []span, fs fieldSlot, child []span, budget int64) (bad int, used int64) {
	child = child[:len(rows)]
	bitByte, slot := int(fs.bitByte), int(fs.slot)
	for k, r := range rows {
		if columnar.LoadFixed[uint8](r, bitByte)&fs.bitMask != 0 {
			child[k] = nullSpan
			continue
		}
		w := columnar.LoadFixed[uint64](r, slot)
		size := int64(uint32(w))
		start := int64(w >> 32)
		end := start + size
		used += size
		if end > int64(r.Len()) || (start-int64(fs.varStart))&(math.MinInt64|7) != 0 || used > budget {
			return k, used
		}
		child[k] = span{row: int32(k), start: int32(start), end: int32(end)}
	}
	return -1, used
}

// resolveWord reads the offset/size word at byte at of row r, whose offset
// is relative to the owner s (a struct or an array), and checks the value
// lies in the owner's variable region, which starts at varStart, at a
// multiple of 8 from the owner's start (Spark and Velox both align every
// variable-length value so). used sums the sizes of a level against the
// budget (decodeState.budget). On failure wordError says why. All sums are
// in int64: offset and size are each up to 2^32-1.
func resolveWord(r []byte, s span, at, varStart int32, used *int64, budget int64) (span, bool) {
	w := binary.LittleEndian.Uint64(r[at : at+8])
	size := int64(uint32(w))
	start := int64(s.start) + int64(w>>32)
	end := start + size
	*used += size
	// varStart is a multiple of 8, so one mask finds an offset before it
	// (negative) or not at a multiple of 8 (low bits).
	if end > int64(s.end) || (int64(w>>32)-int64(varStart))&(math.MinInt64|7) != 0 || *used > budget {
		return span{}, false
	}
	return span{row: s.row, start: int32(start), end: int32(end)}, true
}

func (st *decodeState) wordError(r []byte, s span, at, varStart int32, path string, used int64) error {
	w := binary.LittleEndian.Uint64(r[at : at+8])
	size, off := int64(uint32(w)), int64(w>>32)
	switch {
	case int64(s.start)+off+size > int64(s.end):
		return fail(s.row, path, int64(at), rowbridge.ErrOutOfBounds,
			"value at +%d of %d bytes ends past its %d-byte owner", off, size, s.end-s.start)
	case off < int64(varStart):
		return fail(s.row, path, int64(at), rowbridge.ErrLayout,
			"value at +%d points into the first %d bytes of its owner (null bits and slots), before its variable-length data", off, varStart)
	case off&7 != 0:
		return fail(s.row, path, int64(at), rowbridge.ErrLayout,
			"value at +%d is not at a multiple of 8 bytes from its owner's start", off)
	}
	return fail(s.row, path, int64(at), rowbridge.ErrLayout,
		"values overlap: %d bytes announced by %d bytes of input", used, st.budget)
}
