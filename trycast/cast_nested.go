package trycast

import (
	"sort"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Nested casts work element-wise: the children are cast whole (only the
// range the input references), then each row learns whether one of its
// elements failed. Under nullRows (Presto, TRY) such a row becomes null at
// every level up to the top; otherwise only the element is null. A map key
// that fails always nulls its row, since map keys cannot be null.

func (c *caster) castList(in arrow.ArrayData, to arrow.DataType, wantFails bool) (arrow.ArrayData, []byte, int) {
	if to.ID() == arrow.LARGE_LIST {
		return castListOf[int64](c, in, to, wantFails)
	}
	return castListOf[int32](c, in, to, wantFails)
}

// listRange views a list or map input's n+1 offsets and the child range
// [start, end) they reference.
func listRange[O offset](in arrow.ArrayData) (offs []O, start, end int) {
	offs = columnar.Offsets[O](in)
	if offs == nil {
		return nil, 0, 0
	}
	return offs, int(offs[0]), int(offs[len(offs)-1])
}

// rebase allocates the output offsets: the input's, shifted to start at 0.
func rebase[O offset](mem memory.Allocator, offs []O, n int) (*memory.Buffer, []O) {
	var zero O
	buf := columnar.NewBuffer(mem, (n+1)*int(unsafe.Sizeof(zero)))
	out := columnar.Cast[O](buf.Bytes())
	if n == 0 {
		out[0] = 0
		return buf, out
	}
	start := offs[0]
	for i, o := range offs {
		out[i] = o - start
	}
	return buf, out
}

func castListOf[O offset](c *caster, in arrow.ArrayData, to arrow.DataType, wantFails bool) (arrow.ArrayData, []byte, int) {
	n := in.Len()
	inOffs, start, end := listRange[O](in)
	need := wantFails || c.nullRows
	childIn := array.NewSliceData(in.Children()[0], int64(start), int64(end))
	child, childFails, _ := c.cast(childIn, to.(arrow.ListLikeType).Elem(), need)
	childIn.Release()
	if child == nil {
		errAtElement(c.err, inOffs, start)
		return nil, nil, 0
	}
	offBuf, offs := rebase(c.mem, inOffs, n)
	fails, nfail := rowsWithFailures(in, offs, childFails)
	bits, nulls := c.rowValidity(in, dropIf(c.nullRows, fails))
	return columnar.NewListData(to, n, bits, nulls, offBuf, child), keepIf(wantFails, fails), nfail
}

func (c *caster) castStruct(in arrow.ArrayData, to *arrow.StructType, wantFails bool) (arrow.ArrayData, []byte, int) {
	n, off := in.Len(), in.Offset()
	need := wantFails || c.nullRows
	children := make([]arrow.ArrayData, to.NumFields())
	var fails []byte
	for j, f := range to.Fields() {
		childIn := array.NewSliceData(in.Children()[j], int64(off), int64(off+n))
		child, cf, _ := c.cast(childIn, f.Type, need)
		childIn.Release()
		if child == nil {
			for _, ch := range children[:j] {
				ch.Release()
			}
			return nil, nil, 0
		}
		children[j] = child
		if cf != nil {
			if fails == nil {
				fails = make([]byte, len(cf))
			}
			for k := range fails {
				fails[k] |= cf[k]
			}
		}
	}
	nfail := 0
	if fails != nil {
		nfail = keepValid(fails, in)
		if nfail == 0 {
			fails = nil
		}
	}
	drop := dropIf(c.nullRows, fails)
	if drop != nil {
		// Null the fields too, so that a reader of one field alone does not
		// see the half of a row that converted.
		for j, ch := range children {
			children[j] = c.maskRows(ch, drop)
		}
	}
	bits, nulls := c.rowValidity(in, drop)
	return columnar.NewStructData(to, n, bits, nulls, children), keepIf(wantFails, fails), nfail
}

// maskRows returns d with the rows in drop null as well (and releases d).
// A flat field is copied to offset 0 with zeros under every null (a zero
// length for strings), as a builder leaves them, so that the value of a
// dropped row does not linger; d's buffers may be the input's. Nested
// fields get a new bitmap and share the rest.
func (c *caster) maskRows(d arrow.ArrayData, drop []byte) arrow.ArrayData {
	n, off := d.Len(), d.Offset()
	switch dt := d.DataType().(type) {
	case *arrow.StringType, *arrow.BinaryType:
		return maskStrings[int32](c, d, drop)
	case *arrow.LargeStringType, *arrow.LargeBinaryType:
		return maskStrings[int64](c, d, drop)
	case *arrow.BooleanType:
		bits, nulls := maskedBits(c, d, drop)
		vals := columnar.NewBuffer(c.mem, bits.Len())
		vb := vals.Bytes()
		bitutil.CopyBitmap(d.Buffers()[1].Bytes(), off, n, vb, 0)
		for k, b := range bits.Bytes() {
			vb[k] &= b
		}
		out := columnar.NewFixedData(dt, n, bits, nulls, vals)
		d.Release()
		return out
	case arrow.FixedWidthDataType:
		w := dt.BitWidth() / 8
		bits, nulls := maskedBits(c, d, drop)
		vals := columnar.NewBuffer(c.mem, n*w)
		vb := vals.Bytes()
		copy(vb, d.Buffers()[1].Bytes()[off*w:(off+n)*w])
		valid := bits.Bytes()
		for i := 0; i < n; i++ {
			if !bitutil.BitIsSet(valid, i) {
				clear(vb[i*w : (i+1)*w])
			}
		}
		out := columnar.NewFixedData(dt, n, bits, nulls, vals)
		d.Release()
		return out
	}
	buf := columnar.NewZeroedBuffer(c.mem, int(bitutil.BytesForBits(int64(off+n))))
	bits := buf.Bytes()
	if valid := validity(d); valid != nil {
		bitutil.CopyBitmap(valid, off, n, bits, off)
	} else {
		bitutil.SetBitsTo(bits, int64(off), int64(n), true)
	}
	for i := 0; i < n; i++ {
		if bitutil.BitIsSet(drop, i) {
			bitutil.ClearBit(bits, off+i)
		}
	}
	bufs := append([]*memory.Buffer{buf}, d.Buffers()[1:]...)
	nulls := n - bitutil.CountSetBits(bits, off, n)
	out := array.NewData(d.DataType(), n, bufs, d.Children(), nulls, off)
	buf.Release()
	d.Release()
	return out
}

// maskedBits is d's validity at offset 0 with the rows in drop cleared,
// and its null count.
func maskedBits(c *caster, d arrow.ArrayData, drop []byte) (*memory.Buffer, int) {
	n := d.Len()
	buf := columnar.NewBuffer(c.mem, int(bitutil.BytesForBits(int64(n))))
	bits := buf.Bytes()
	if valid := validity(d); valid != nil {
		bitutil.CopyBitmap(valid, d.Offset(), n, bits, 0)
	} else {
		bitutil.SetBitsTo(bits, 0, int64(n), true)
	}
	for k := range bits {
		bits[k] &^= drop[k]
	}
	if r := n % 8; r != 0 {
		bits[len(bits)-1] &= byte(1)<<r - 1
	}
	return buf, n - bitutil.CountSetBits(bits, 0, n)
}

// maskStrings is maskRows for a string or binary field: the values of
// the rows left valid, copied after one another.
func maskStrings[O offset](c *caster, d arrow.ArrayData, drop []byte) arrow.ArrayData {
	n := d.Len()
	s := viewStrings[O](d)
	bits, nulls := maskedBits(c, d, drop)
	valid := bits.Bytes()
	size := 0
	for i := 0; i < n; i++ {
		if bitutil.BitIsSet(valid, i) {
			size += int(s.offs[i+1] - s.offs[i])
		}
	}
	var zero O
	offBuf := columnar.NewBuffer(c.mem, (n+1)*int(unsafe.Sizeof(zero)))
	dataBuf := columnar.NewBuffer(c.mem, size)
	offs, data := columnar.Cast[O](offBuf.Bytes()), dataBuf.Bytes()
	pos := 0
	for i := 0; i < n; i++ {
		offs[i] = O(pos)
		if bitutil.BitIsSet(valid, i) {
			pos += copy(data[pos:], s.value(i))
		}
	}
	offs[n] = O(pos)
	out := columnar.NewBinaryData(d.DataType(), n, bits, nulls, offBuf, dataBuf)
	d.Release()
	return out
}

func (c *caster) castMap(in arrow.ArrayData, to *arrow.MapType, wantFails bool) (arrow.ArrayData, []byte, int) {
	n := in.Len()
	inOffs, start, end := listRange[int32](in)
	entries := in.Children()[0]
	eoff := int64(entries.Offset())
	keysIn := array.NewSliceData(entries.Children()[0], eoff+int64(start), eoff+int64(end))
	keys, keyFails, _ := c.cast(keysIn, to.KeyType(), true)
	keysIn.Release()
	if keys == nil {
		errAtElement(c.err, inOffs, start)
		return nil, nil, 0
	}
	if keys.NullN() > 0 {
		keys = dropValidity(keys)
	}
	itemsIn := array.NewSliceData(entries.Children()[1], eoff+int64(start), eoff+int64(end))
	items, itemFails, _ := c.cast(itemsIn, to.ItemType(), wantFails || c.nullRows)
	itemsIn.Release()
	if items == nil {
		keys.Release()
		errAtElement(c.err, inOffs, start)
		return nil, nil, 0
	}
	offBuf, offs := rebase(c.mem, inOffs, n)
	keyRows, _ := rowsWithFailures(in, offs, keyFails)
	itemRows, _ := rowsWithFailures(in, offs, itemFails)
	drop := orBits(keyRows, dropIf(c.nullRows, itemRows))
	fails := orBits(keyRows, itemRows)
	nfail := 0
	if fails != nil {
		nfail = bitutil.CountSetBits(fails, 0, n)
	}
	bits, nulls := c.rowValidity(in, drop)
	return columnar.NewMapData(to, n, bits, nulls, offBuf, keys, items), keepIf(wantFails, fails), nfail
}

// errAtElement turns the row of err, an element of a list or map whose
// n+1 offsets are offs (the first at start), into the list's row.
func errAtElement[O offset](err error, offs []O, start int) {
	e, ok := err.(*OffsetOverflowError)
	if !ok || len(offs) == 0 {
		return
	}
	el := O(start + e.Row)
	e.Row = sort.Search(len(offs)-1, func(i int) bool { return offs[i+1] > el })
}

// rowsWithFailures marks the rows valid in in that hold a failing element:
// offs are the rows' element ranges within childFails. It returns nil and 0
// when no row does.
func rowsWithFailures[O offset](in arrow.ArrayData, offs []O, childFails []byte) ([]byte, int) {
	if childFails == nil {
		return nil, 0
	}
	n, off := in.Len(), in.Offset()
	valid := validity(in)
	fails := make([]byte, bitutil.BytesForBits(int64(n)))
	nfail := 0
	for i := 0; i < n; i++ {
		if valid != nil && !bitutil.BitIsSet(valid, off+i) {
			continue
		}
		lo, hi := int(offs[i]), int(offs[i+1])
		if hi > lo && bitutil.CountSetBits(childFails, lo, hi-lo) > 0 {
			bitutil.SetBit(fails, i)
			nfail++
		}
	}
	if nfail == 0 {
		return nil, 0
	}
	return fails, nfail
}

// keepValid clears the failure bits of rows null in in (a failing field
// under a null struct is no failure) and counts the rest.
func keepValid(fails []byte, in arrow.ArrayData) int {
	n, off := in.Len(), in.Offset()
	valid := validity(in)
	count := 0
	for i := 0; i < n; i++ {
		if !bitutil.BitIsSet(fails, i) {
			continue
		}
		if valid != nil && !bitutil.BitIsSet(valid, off+i) {
			bitutil.ClearBit(fails, i)
			continue
		}
		count++
	}
	return count
}

// rowValidity builds a nested output's validity: the input's, minus the
// rows in drop (nil for none). It returns nil when no row is null.
func (c *caster) rowValidity(in arrow.ArrayData, drop []byte) (*memory.Buffer, int) {
	n := in.Len()
	valid := validity(in)
	if valid == nil && drop == nil {
		return nil, 0
	}
	buf := columnar.NewZeroedBuffer(c.mem, int(bitutil.BytesForBits(int64(n))))
	bits := buf.Bytes()
	if valid != nil {
		bitutil.CopyBitmap(valid, in.Offset(), n, bits, 0)
	} else {
		bitutil.SetBitsTo(bits, 0, int64(n), true)
	}
	for k := range drop {
		bits[k] &^= drop[k]
	}
	nulls := n - bitutil.CountSetBits(bits, 0, n)
	if nulls == 0 {
		buf.Release()
		return nil, 0
	}
	return buf, nulls
}

// dropValidity returns d without its validity bitmap (and releases d): map
// keys that failed leave zero values under rows that are null anyway.
func dropValidity(d arrow.ArrayData) arrow.ArrayData {
	bufs := append([]*memory.Buffer{nil}, d.Buffers()[1:]...)
	out := array.NewData(d.DataType(), d.Len(), bufs, d.Children(), 0, d.Offset())
	d.Release()
	return out
}

func dropIf(cond bool, bits []byte) []byte {
	if cond {
		return bits
	}
	return nil
}

func keepIf(cond bool, bits []byte) []byte { return dropIf(cond, bits) }

// orBits is a | b for bitmaps of equal length, either of which may be nil.
func orBits(a, b []byte) []byte {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := make([]byte, len(a))
	for i := range a {
		out[i] = a[i] | b[i]
	}
	return out
}
