package arrowconv

import (
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// structs converts each field that needs it and shares the others.
func (c *conv) structs(n *node, d arrow.ArrayData, sc *scope) (arrow.ArrayData, error) {
	off, m := d.Offset(), d.Len()
	kids := make([]arrow.ArrayData, len(n.kids))
	release := func() {
		for _, k := range kids {
			if k != nil {
				k.Release()
			}
		}
	}
	ksc := &scope{up: sc, owner: func(j int) (int, bool) { return j, isValid(d, j) }}
	for i, kn := range n.kids {
		s := array.NewSliceData(d.Children()[i], int64(off), int64(off+m))
		k, err := c.convert(kn, s, ksc)
		s.Release()
		if err != nil {
			release()
			return nil, err
		}
		kids[i] = k
	}
	valid, nulls := c.validity(d)
	return columnar.NewStructData(n.out, m, valid, nulls, kids), nil
}

// ranges is where each entry of a list-like array lies in its child.
type ranges struct {
	start, end []int64
}

func listRanges(d arrow.ArrayData) ranges {
	off, m := d.Offset(), d.Len()
	r := ranges{start: make([]int64, m), end: make([]int64, m)}
	bufs := d.Buffers()
	switch t := d.DataType().(type) {
	case *arrow.FixedSizeListType:
		w := int64(t.Len())
		for i := range m {
			r.start[i] = int64(off+i) * w
			r.end[i] = r.start[i] + w
		}
	case *arrow.LargeListType:
		o := arrow.Int64Traits.CastFromBytes(bufs[1].Bytes())[off : off+m+1]
		copy(r.start, o[:m])
		copy(r.end, o[1:])
	case *arrow.ListViewType:
		o := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())[off : off+m]
		s := arrow.Int32Traits.CastFromBytes(bufs[2].Bytes())[off : off+m]
		for i := range m {
			r.start[i], r.end[i] = int64(o[i]), int64(o[i])+int64(s[i])
		}
	case *arrow.LargeListViewType:
		o := arrow.Int64Traits.CastFromBytes(bufs[1].Bytes())[off : off+m]
		s := arrow.Int64Traits.CastFromBytes(bufs[2].Bytes())[off : off+m]
		for i := range m {
			r.start[i], r.end[i] = o[i], o[i]+s[i]
		}
	default: // list, map
		o := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())[off : off+m+1]
		for i := range m {
			r.start[i], r.end[i] = int64(o[i]), int64(o[i+1])
		}
	}
	return r
}

// lists converts every list-like layout (and a map's entries) to 32-bit
// offsets over a converted child. A list or map whose child alone changes
// keeps its offsets; monotone layouts (large_list, fixed_size_list, list
// views written in order) slice their child; other list views gather it.
func (c *conv) lists(n *node, d arrow.ArrayData, sc *scope) (arrow.ArrayData, error) {
	m := d.Len()
	child := d.Children()[0]
	id := n.in.ID()
	if (id == arrow.LIST || id == arrow.MAP) && m > 0 {
		o := arrow.Int32Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+m+1]
		ksc := &scope{up: sc, owner: func(j int) (int, bool) {
			i := sort.Search(m, func(i int) bool { return int(o[i+1]) > j })
			return i, i < m && int(o[i]) <= j && isValid(d, i)
		}}
		k, err := c.convert(n.kids[0], child, ksc)
		if err != nil {
			return nil, err
		}
		offs := memory.SliceBuffer(d.Buffers()[1], 4*d.Offset(), 4*(m+1))
		return c.listData(n, d, offs, k), nil
	}
	r := listRanges(d)
	contiguous := true
	for i := 1; i < m && contiguous; i++ {
		contiguous = r.start[i] == r.end[i-1]
	}
	for i := range m {
		contiguous = contiguous && r.end[i] >= r.start[i]
	}
	obuf := c.alloc(4 * (m + 1))
	out := arrow.Int32Traits.CastFromBytes(obuf.Bytes())
	if contiguous {
		var base, last int64
		if m > 0 {
			base, last = r.start[0], r.end[m-1]
		}
		if last-base > maxData {
			obuf.Release()
			return nil, tooLong(n, d, sc, func(j int) int64 { return r.end[j] - base })
		}
		for i := range m {
			out[i+1] = int32(r.end[i] - base)
		}
		s := array.NewSliceData(child, base, last)
		ksc := &scope{up: sc, owner: func(j int) (int, bool) {
			e := int64(j) + base
			i := sort.Search(m, func(i int) bool { return r.end[i] > e })
			return i, i < m && r.start[i] <= e && isValid(d, i)
		}}
		k, err := c.convert(n.kids[0], s, ksc)
		s.Release()
		if err != nil {
			obuf.Release()
			return nil, err
		}
		return c.listData(n, d, obuf, k), nil
	}
	// Views in any order: gather the valid entries' elements.
	var total int64
	for i := range m {
		if isValid(d, i) {
			total += r.end[i] - r.start[i]
		}
		if total > maxData {
			obuf.Release()
			return nil, tooLong(n, d, sc, func(j int) int64 { return maxData + 1 }) // the first valid row past the limit
		}
		out[i+1] = int32(total)
	}
	ksc := &scope{up: sc, owner: func(j int) (int, bool) {
		for i := range m {
			if isValid(d, i) && r.start[i] <= int64(j) && int64(j) < r.end[i] {
				return i, true
			}
		}
		return 0, false
	}}
	k, err := c.convert(n.kids[0], child, ksc)
	if err != nil {
		obuf.Release()
		return nil, err
	}
	idx := make([]int, 0, total)
	for i := range m {
		if isValid(d, i) {
			for e := r.start[i]; e < r.end[i]; e++ {
				idx = append(idx, int(e))
			}
		}
	}
	g := c.take(k, idx)
	k.Release()
	return c.listData(n, d, obuf, g), nil
}

// listData builds a list or map of n.out from d's validity, the offsets and
// the child (taking over both references).
func (c *conv) listData(n *node, d arrow.ArrayData, offs *memory.Buffer, child arrow.ArrayData) arrow.ArrayData {
	valid, nulls := c.validity(d)
	return columnar.NewListData(n.out, d.Len(), valid, nulls, offs, child)
}

// dictionary converts the dictionary's values once and gathers them by
// the indices (of any integer type), so the output is the dense column.
func (c *conv) dictionary(n *node, d arrow.ArrayData, sc *scope) (arrow.ArrayData, error) {
	m := d.Len()
	idx := make([]int, m)
	if m > 0 {
		b := d.Buffers()[1].Bytes()
		off := d.Offset()
		switch n.in.(*arrow.DictionaryType).IndexType.ID() {
		case arrow.INT8:
			indices(idx, arrow.GetData[int8](b)[off:off+m])
		case arrow.UINT8:
			indices(idx, arrow.GetData[uint8](b)[off:off+m])
		case arrow.INT16:
			indices(idx, arrow.GetData[int16](b)[off:off+m])
		case arrow.UINT16:
			indices(idx, arrow.GetData[uint16](b)[off:off+m])
		case arrow.INT32:
			indices(idx, arrow.GetData[int32](b)[off:off+m])
		case arrow.UINT32:
			indices(idx, arrow.GetData[uint32](b)[off:off+m])
		case arrow.INT64:
			indices(idx, arrow.GetData[int64](b)[off:off+m])
		default:
			indices(idx, arrow.GetData[uint64](b)[off:off+m])
		}
	}
	if valid, off := validBits(d), d.Offset(); valid != nil {
		for i := range idx {
			if !bitutil.BitIsSet(valid, off+i) {
				idx[i] = -1
			}
		}
	}
	dictLen := d.Dictionary().Len()
	for i, k := range idx {
		if k >= dictLen || (k < 0 && isValid(d, i)) {
			if r := sc.row(i); r >= 0 {
				return nil, valueError(r, n.path, "dictionary index %d is outside the dictionary's %d values", k, dictLen)
			}
			idx[i] = -1
		}
	}
	ksc := &scope{up: sc, owner: func(j int) (int, bool) {
		for i, k := range idx {
			if k == j {
				return i, true
			}
		}
		return 0, false
	}}
	vals, err := c.convert(n.kids[0], d.Dictionary(), ksc)
	if err != nil {
		return nil, err
	}
	out := c.take(vals, idx)
	vals.Release()
	return out, nil
}

func indices[T int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64](dst []int, src []T) {
	for i, v := range src {
		dst[i] = int(v)
	}
}
