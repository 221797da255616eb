package unsaferow

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
	if bad := splitMaps(st.rows, spans, keyArrays, valArrays); bad >= 0 {
		s := spans[bad]
		size := int64(s.end - s.start)
		if size < 8 {
			return nil, fail(s.row, n.Path, int64(s.start), rowbridge.ErrTruncated,
				"map of %d bytes has no key array size", size)
		}
		kab := int64(binary.LittleEndian.Uint64(st.rows[s.row].Bytes()[s.start : s.start+8]))
		return nil, fail(s.row, n.Path, int64(s.start), rowbridge.ErrOutOfBounds,
			"key array of %d bytes in a %d-byte map", kab, size)
	}

	var v columnar.Validity
	v.Reset(st.mem, len(spans))
	offBuf, offs := columnar.NewOffsets(st.mem, len(spans))
	abort := func(err error) (arrow.ArrayData, error) {
		v.Release()
		offBuf.Release()
		return nil, err
	}
	// Word keys and values are copied while they are counted and checked
	// (decode_list_words.go); the others are decoded after.
	keys, err := st.countMapKeys(kn, keyArrays, offs, &v)
	if err != nil {
		return abort(err)
	}
	total := int(offs[len(spans)])
	vals, err := st.checkMapValues(n, vn, valArrays, offs, total)
	if err != nil {
		keys.release()
		return abort(err)
	}
	keyData, err := keys.decode(st, kn, keyArrays, offs, total, true)
	if err != nil {
		vals.release()
		return abort(err)
	}
	values, err := vals.decode(st, vn, valArrays, offs, total, false)
	if err != nil {
		keyData.Release()
		return abort(err)
	}
	validity, nulls := v.Finish()
	return columnar.NewMapData(n.Type.(*arrow.MapType), len(spans), validity, nulls, offBuf, keyData, values), nil
}

// splitMaps locates the key and value arrays of the maps in spans. It
// stops at the first map too short for its key array size or whose key
// array does not fit it and returns its index (-1 when there is none); the
// caller builds the error, so that the loop makes no call.
func splitMaps(rows []columnar.RowRef, spans, keyArrays, valArrays []span) int {
	keyArrays, valArrays = keyArrays[:len(spans)], valArrays[:len(spans)]
	for k, s := range spans {
		if s.start < 0 {
			keyArrays[k], valArrays[k] = nullSpan, nullSpan
			continue
		}
		size := int64(s.end - s.start)
		if size < 8 {
			return k
		}
		kab := int64(columnar.Load[uint64](rows[s.row].Bytes(), int(s.start)))
		if uint64(kab) > uint64(size-8) {
			return k
		}
		mid := s.start + 8 + int32(kab)
		keyArrays[k] = span{row: s.row, start: s.start + 8, end: mid}
		valArrays[k] = span{row: s.row, start: mid, end: s.end}
	}
	return -1
}

// mapColumn is a map's key or value level between its check and its
// decode: buf holds the elements when they are words copied already.
type mapColumn struct {
	buf   *memory.Buffer
	nulls bool
}

func (c mapColumn) release() {
	if c.buf != nil {
		c.buf.Release()
	}
}

// decode decodes the level's elements (keys says they are map keys).
func (c mapColumn) decode(st *decodeState, e *columnar.Node, arrays []span, offs []int32, total int, keys bool) (arrow.ArrayData, error) {
	if c.buf != nil {
		return st.wordElementData(e, arrays, offs, total, c.nulls, keys, c.buf)
	}
	return st.decodeElements(e, arrays, offs, total, c.nulls, keys)
}

// countMapKeys counts the key arrays into offs, marking null maps in v.
func (st *decodeState) countMapKeys(kn *columnar.Node, keyArrays []span, offs []int32, v *columnar.Validity) (mapColumn, error) {
	if wordElements(kn) {
		buf, _, nulls, ok, err := st.countCopyArrays(kn, keyArrays, kn.Path, offs, v)
		if err != nil || ok {
			return mapColumn{buf: buf, nulls: nulls}, err
		}
	}
	_, nulls, err := st.countArrays(keyArrays, layoutOf(kn), kn.Path, offs, v)
	return mapColumn{nulls: nulls}, err
}

// checkMapValues checks the value arrays against the key counts in offs.
func (st *decodeState) checkMapValues(n, vn *columnar.Node, valArrays []span, offs []int32, total int) (mapColumn, error) {
	if wordElements(vn) {
		buf, nulls, ok, err := st.checkCopyValues(n, vn, valArrays, offs, total)
		if err != nil || ok {
			return mapColumn{buf: buf, nulls: nulls}, err
		}
	}
	nulls, err := st.checkValueCounts(n, vn, valArrays, offs)
	return mapColumn{nulls: nulls}, err
}

// checkValueCounts checks each value array against the key count in offs
// and reports, as countArrays does, whether any value may be null.
func (st *decodeState) checkValueCounts(n, vn *columnar.Node, valArrays []span, offs []int32) (bool, error) {
	el := layoutOf(vn)
	nulls, bad := valueCounts(st.rows, valArrays, el, offs)
	if bad < 0 {
		return nulls != 0, nil
	}
	s := valArrays[bad]
	c, ok := st.arrayCount(s, el)
	if !ok {
		return false, st.arrayCountError(s, el, vn.Path)
	}
	return false, fail(s.row, n.Path, int64(s.start), rowbridge.ErrCount,
		"map has %d keys and %d values", offs[bad+1]-offs[bad], c)
}

// valueCounts is checkValueCounts' loop: countRun's checks of each array,
// against the count in offs rather than writing it. It returns the index
// of the first array that fails them as bad (-1 when there is none).
func valueCounts(rows []columnar.RowRef, arrays []span, el elemLayout, offs []int32) (nulls uint64, bad int) {
	offs = offs[:len(arrays)+1]
	for k, s := range arrays {
		if s.isNull() {
			continue
		}
		r := rows[s.row].Bytes()
		size := int64(s.end - s.start)
		c := int64(offs[k+1] - offs[k])
		if size < 8 || binary.LittleEndian.Uint64(r[s.start:s.start+8]) != uint64(c) {
			return 0, k
		}
		d := size - (arrayHeader(c) + c*el.width)
		if uint64(d) > uint64(el.slack) {
			return 0, k
		}
		last := s.start + 8*int32(nwords(c))
		word, unused := binary.LittleEndian.Uint64(r[last:last+8]), unusedBits(c)
		if word&unused|uint64(size&el.align)*uint64(d) != 0 {
			return 0, k
		}
		nulls |= word&^unused | uint64(c>>6)
	}
	return nulls, -1
}
