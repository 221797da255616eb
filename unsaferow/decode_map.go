package unsaferow

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// decodeMap decodes the maps located by spans (docs/row-layout.md, "UnsafeRow maps"): keyArrayBytes,
// the key array at +8 and the value array right after it, which Velox
// leaves unaligned. The key array's counts become the map offsets; the
// value array must hold as many elements.
func (st *decodeState) decodeMap(n *columnar.Node, spans []span) (arrow.ArrayData, error) {
	kn, vn := n.Children[0], n.Children[1]
	keyArrays := st.sc.push(len(spans))
	valArrays := st.sc.push(len(spans))
	defer st.sc.pop(2 * len(spans))
	for k, s := range spans {
		if s.isNull() {
			keyArrays[k], valArrays[k] = nullSpan, nullSpan
			continue
		}
		size := int64(s.end - s.start)
		if size < 8 {
			return nil, fail(s.row, n.Path, int64(s.start), rowbridge.ErrTruncated,
				"map of %d bytes has no key array size", size)
		}
		kab := int64(binary.LittleEndian.Uint64(st.rows[s.row][s.start : s.start+8]))
		if kab < 0 || kab > size-8 {
			return nil, fail(s.row, n.Path, int64(s.start), rowbridge.ErrOutOfBounds,
				"key array of %d bytes in a %d-byte map", kab, size)
		}
		mid := s.start + 8 + int32(kab)
		keyArrays[k] = span{row: s.row, start: s.start + 8, end: mid}
		valArrays[k] = span{row: s.row, start: mid, end: s.end}
	}

	var v columnar.Validity
	v.Reset(st.mem, len(spans))
	offBuf, offs := columnar.NewOffsets(st.mem, len(spans))
	abort := func(err error) (arrow.ArrayData, error) {
		v.Release()
		offBuf.Release()
		return nil, err
	}
	total, err := st.countArrays(keyArrays, layoutOf(kn), kn.Path, offs, &v)
	if err != nil {
		return abort(err)
	}
	if err := st.checkValueCounts(n, vn, valArrays, offs); err != nil {
		return abort(err)
	}
	keys, err := st.decodeElements(kn, keyArrays, offs, total, true)
	if err != nil {
		return abort(err)
	}
	values, err := st.decodeElements(vn, valArrays, offs, total, false)
	if err != nil {
		keys.Release()
		return abort(err)
	}
	validity, nulls := v.Finish()
	return columnar.NewMapData(n.Type.(*arrow.MapType), len(spans), validity, nulls, offBuf, keys, values), nil
}

// checkValueCounts checks each value array against the key count in offs.
func (st *decodeState) checkValueCounts(n, vn *columnar.Node, valArrays []span, offs []int32) error {
	for k, s := range valArrays {
		if s.isNull() {
			continue
		}
		c, ok := st.arrayCount(s, layoutOf(vn))
		if !ok {
			return st.arrayCountError(s, layoutOf(vn), vn.Path)
		}
		if keys := int64(offs[k+1] - offs[k]); c != keys {
			return fail(s.row, n.Path, int64(s.start), rowbridge.ErrCount,
				"map has %d keys and %d values", keys, c)
		}
	}
	return nil
}
