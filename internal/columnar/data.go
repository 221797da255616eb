package columnar

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The constructors below take over the caller's references: every buffer and
// child passed in is released once the new ArrayData holds its own reference.
// A nil validity buffer means no nulls (nulls must then be 0).

func adopt(dt arrow.DataType, n int, bufs []*memory.Buffer, children []arrow.ArrayData, nulls int) arrow.ArrayData {
	d := array.NewData(dt, n, bufs, children, nulls, 0)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	for _, c := range children {
		c.Release()
	}
	return d
}

// NewNullData is an array of n nulls of the null type.
func NewNullData(n int) arrow.ArrayData {
	return array.NewData(arrow.Null, n, []*memory.Buffer{nil}, nil, n, 0)
}

// NewFixedData builds a boolean or fixed-width array from its value buffer.
func NewFixedData(dt arrow.DataType, n int, validity *memory.Buffer, nulls int, values *memory.Buffer) arrow.ArrayData {
	return adopt(dt, n, []*memory.Buffer{validity, values}, nil, nulls)
}

// NewBinaryData builds a utf8 or binary array from int32 offsets and bytes.
func NewBinaryData(dt arrow.DataType, n int, validity *memory.Buffer, nulls int, offsets, data *memory.Buffer) arrow.ArrayData {
	return adopt(dt, n, []*memory.Buffer{validity, offsets, data}, nil, nulls)
}

// NewListData builds a list array (or a map, whose child is the entries
// struct) from int32 offsets and the element data.
func NewListData(dt arrow.DataType, n int, validity *memory.Buffer, nulls int, offsets *memory.Buffer, child arrow.ArrayData) arrow.ArrayData {
	return adopt(dt, n, []*memory.Buffer{validity, offsets}, []arrow.ArrayData{child}, nulls)
}

// NewMapData builds a map array from int32 offsets and its key and value
// data; the entries struct has no nulls.
func NewMapData(dt *arrow.MapType, n int, validity *memory.Buffer, nulls int, offsets *memory.Buffer, keys, values arrow.ArrayData) arrow.ArrayData {
	entries := adopt(dt.Elem(), keys.Len(), []*memory.Buffer{nil}, []arrow.ArrayData{keys, values}, 0)
	return NewListData(dt, n, validity, nulls, offsets, entries)
}

// NewStructData builds a struct array from its children, each of length n.
func NewStructData(dt arrow.DataType, n int, validity *memory.Buffer, nulls int, children []arrow.ArrayData) arrow.ArrayData {
	return adopt(dt, n, []*memory.Buffer{validity}, children, nulls)
}

// NewRecordBatch wraps top-level column data as a record batch, taking over
// the references to cols.
func NewRecordBatch(schema *arrow.Schema, n int, cols []arrow.ArrayData) arrow.RecordBatch {
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		arrs[i] = array.MakeFromData(c)
		c.Release()
	}
	rec := array.NewRecordBatch(schema, arrs, int64(n))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}
