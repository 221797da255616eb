package arrowconv

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// maxData is the most data bytes 32-bit offsets address.
var maxData int64 = math.MaxInt32

// binaryData builds a utf8 or binary array of n.out from d's validity and
// the given offsets and data buffers (taking over their references).
func (c *conv) binaryData(n *node, d arrow.ArrayData, offs, data *memory.Buffer) arrow.ArrayData {
	valid, nulls := c.validity(d)
	return columnar.NewBinaryData(n.out, d.Len(), valid, nulls, offs, data)
}

// tooLong is the error for the first row whose data ends past maxData
// bytes from the start of the column's data.
func tooLong(n *node, d arrow.ArrayData, sc *scope, end func(j int) int64) error {
	_, r := firstBad(d, sc, func(j int) bool { return end(j) > maxData })
	if r < 0 {
		r = max(sc.row(d.Len()-1), 0)
	}
	return valueError(r, n.path, "%s column holds more than %d bytes of data up to here, more than 32-bit offsets address; encode smaller batches", n.in, maxData)
}

// largeBinaries narrows 64-bit offsets to 32 bits, rebased to the first
// entry, and shares the data buffer.
func (c *conv) largeBinaries(n *node, d arrow.ArrayData, sc *scope) (arrow.ArrayData, error) {
	m := d.Len()
	obuf := c.alloc(4 * (m + 1))
	if m == 0 {
		return c.binaryData(n, d, obuf, nil), nil
	}
	in := arrow.Int64Traits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+m+1]
	base := in[0]
	if in[m]-base > maxData {
		obuf.Release()
		return nil, tooLong(n, d, sc, func(j int) int64 { return in[j+1] - base })
	}
	out := arrow.Int32Traits.CastFromBytes(obuf.Bytes())
	for i, o := range in {
		out[i] = int32(o - base)
	}
	var data *memory.Buffer
	if b := d.Buffers()[2]; b != nil {
		data = memory.SliceBuffer(b, int(base), int(in[m]-base))
	}
	return c.binaryData(n, d, obuf, data), nil
}

// fixedSizeBinaries gives fixed-width values offsets and shares their bytes.
func (c *conv) fixedSizeBinaries(n *node, d arrow.ArrayData, sc *scope) (arrow.ArrayData, error) {
	w := int64(n.in.(*arrow.FixedSizeBinaryType).ByteWidth)
	m := d.Len()
	if int64(m)*w > maxData {
		return nil, tooLong(n, d, sc, func(j int) int64 { return int64(j+1) * w })
	}
	obuf := c.alloc(4 * (m + 1))
	out := arrow.Int32Traits.CastFromBytes(obuf.Bytes())
	for i := range out {
		out[i] = int32(int64(i) * w)
	}
	var data *memory.Buffer
	if b := d.Buffers()[1]; b != nil && m > 0 {
		data = memory.SliceBuffer(b, int(int64(d.Offset())*w), int(int64(m)*w))
	}
	return c.binaryData(n, d, obuf, data), nil
}

// views gathers string_view and binary_view values into one data buffer:
// a sizing pass over the view headers, then one copy per value.
func (c *conv) views(n *node, d arrow.ArrayData, sc *scope) (arrow.ArrayData, error) {
	m := d.Len()
	obuf := c.alloc(4 * (m + 1))
	if m == 0 {
		return c.binaryData(n, d, obuf, nil), nil
	}
	hdrs := arrow.ViewHeaderTraits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+m]
	valid, off := validBits(d), d.Offset()
	out := arrow.Int32Traits.CastFromBytes(obuf.Bytes())
	var total int64
	for i := range hdrs {
		if valid == nil || bitutil.BitIsSet(valid, off+i) {
			total += int64(hdrs[i].Len())
		}
	}
	if total > maxData {
		obuf.Release()
		ends := make([]int64, m) // only on this error path
		var e int64
		for i := range hdrs {
			if isValid(d, i) {
				e += int64(hdrs[i].Len())
			}
			ends[i] = e
		}
		return nil, tooLong(n, d, sc, func(j int) int64 { return ends[j] })
	}
	dbuf := c.alloc(int(total))
	data := dbuf.Bytes()
	bufs := d.Buffers()[2:]
	pos := 0
	for i := range hdrs {
		if valid == nil || bitutil.BitIsSet(valid, off+i) {
			h := &hdrs[i]
			if h.IsInline() {
				pos += copy(data[pos:], h.InlineBytes())
			} else {
				start := int(h.BufferOffset())
				pos += copy(data[pos:], bufs[h.BufferIndex()].Bytes()[start:start+h.Len()])
			}
		}
		out[i+1] = int32(pos)
	}
	return c.binaryData(n, d, obuf, dbuf), nil
}
