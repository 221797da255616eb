package unsaferow

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/arrowvec"
)

// decodeStruct decodes the nested structs located by spans (spec §1.5).
func (st *decodeState) decodeStruct(n *arrowvec.Node, spans []span) (arrow.ArrayData, error) {
	var v arrowvec.Validity
	v.Reset(st.mem, len(spans))
	need := int32(structHeaderBytes(len(n.Children)))
	for k, s := range spans {
		if s.isNull() {
			v.SetNull(k)
			continue
		}
		if s.end-s.start < need {
			v.Release()
			return nil, fail(s.row, n.Path, int64(s.start), rowbridge.ErrTruncated,
				"struct of %d bytes, its %d fields need %d", s.end-s.start, len(n.Children), need)
		}
	}
	children := make([]arrow.ArrayData, len(n.Children))
	if err := st.decodeFields(n.Children, spans, children); err != nil {
		v.Release()
		return nil, err
	}
	validity, nulls := v.Finish()
	return arrowvec.NewStructData(n.Type, len(spans), validity, nulls, children), nil
}

// decodeFields decodes every field of the structs located by spans into
// out, one column at a time. Each valid span has been checked to hold the
// null bitset and all slots. A field is null where its struct is null or
// its null bit is set; only then is its slot left unread. A null bit set in
// a valid struct for a NOT NULL field is an ErrLayout at the bit's byte.
func (st *decodeState) decodeFields(fields []*arrowvec.Node, spans []span, out []arrow.ArrayData) error {
	bitset := int(8 * nwords(int64(len(fields))))
	for i, f := range fields {
		slot := fieldSlot{slot: int32(bitset + 8*i), bitByte: int32(i >> 3), bitMask: 1 << (i & 7)}
		if notNull(f) {
			if k := firstNullField(st.rows, spans, slot); k >= 0 {
				releaseAll(out[:i])
				s := spans[k]
				return fail(s.row, f.Path, int64(s.start+slot.bitByte), rowbridge.ErrLayout, "null in a NOT NULL field")
			}
		}
		var err error
		switch {
		case f.Kind == arrowvec.KindNull:
			out[i] = arrowvec.NewNullData(len(spans))
		case isInline(f):
			out[i], err = st.decodeSlots(f, spans, slot)
		case f.Kind == arrowvec.KindString || f.Kind == arrowvec.KindBinary:
			out[i], err = st.decodeBinarySlots(f, spans, slot)
		default:
			out[i], err = st.decodeOutOfLine(f, spans, slot)
		}
		if err != nil {
			releaseAll(out[:i])
			return err
		}
	}
	return nil
}

// notNull reports whether a null for n is an error: n is declared NOT NULL
// and is not of the null type, whose values are always null.
func notNull(n *arrowvec.Node) bool { return !n.Nullable && n.Kind != arrowvec.KindNull }

// firstNullField returns the index of the first valid span whose null bit
// for the field at fs is set, or -1. It is the only cost of a NOT NULL
// field, and nullable fields do not pay it.
func firstNullField(rows [][]byte, spans []span, fs fieldSlot) int {
	for k, s := range spans {
		if s.start >= 0 && rows[s.row][s.start+fs.bitByte]&fs.bitMask != 0 {
			return k
		}
	}
	return -1
}

// fieldSlot says where one field lives inside its struct: the slot's byte
// offset and the null bit's byte and mask.
type fieldSlot struct {
	slot    int32
	bitByte int32
	bitMask byte
}

// decodeOutOfLine follows the offset/size word in the slot of a
// variable-length field (spec §1.3) and decodes the values it points at.
func (st *decodeState) decodeOutOfLine(f *arrowvec.Node, spans []span, fs fieldSlot) (arrow.ArrayData, error) {
	child := st.sc.push(len(spans))
	defer st.sc.pop(len(spans))
	var used int64
	for k, s := range spans {
		if s.isNull() {
			child[k] = nullSpan
			continue
		}
		r := st.rows[s.row]
		if r[s.start+fs.bitByte]&fs.bitMask != 0 {
			child[k] = nullSpan
			continue
		}
		at := s.start + fs.slot
		c, ok := resolveWord(r, s, at, &used, st.budget)
		if !ok {
			return nil, st.wordError(r, s, at, f.Path, used)
		}
		child[k] = c
	}
	return st.decodeValue(f, child)
}

// resolveWord reads the offset/size word at byte at of row r, whose offset
// is relative to the owner s (a struct or an array), and checks the value
// lies inside the owner. used sums the sizes of a level against the budget
// (decodeState.budget). On failure wordError says why.
func resolveWord(r []byte, s span, at int32, used *int64, budget int64) (span, bool) {
	w := binary.LittleEndian.Uint64(r[at : at+8])
	size := int64(uint32(w))
	start := int64(s.start) + int64(w>>32)
	end := start + size
	*used += size
	if end > int64(s.end) || *used > budget {
		return span{}, false
	}
	return span{row: s.row, start: int32(start), end: int32(end)}, true
}

func (st *decodeState) wordError(r []byte, s span, at int32, path string, used int64) error {
	w := binary.LittleEndian.Uint64(r[at : at+8])
	size, off := int64(uint32(w)), int64(w>>32)
	if int64(s.start)+off+size > int64(s.end) {
		return fail(s.row, path, int64(at), rowbridge.ErrOutOfBounds,
			"value at +%d of %d bytes ends past its %d-byte owner", off, size, s.end-s.start)
	}
	return fail(s.row, path, int64(at), rowbridge.ErrLayout,
		"values overlap: %d bytes announced by %d bytes of input", used, st.budget)
}
