package sparkhash

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// hashAt folds the (valid) value at row i of a into h. It serves nested
// values, row by row; it allocates nothing.
func hashAt(a arrow.Array, i int, h int32) int32 {
	switch a := a.(type) {
	case *array.Struct:
		for f := 0; f < a.NumField(); f++ {
			h = foldRange(a.Field(f), i, i+1, h) // skips a null field
		}
		return h
	case *array.List:
		o := a.Offsets()[a.Data().Offset()+i:]
		return foldRange(a.ListValues(), int(o[0]), int(o[1]), h)
	case *array.LargeList:
		o := a.Offsets()[a.Data().Offset()+i:]
		return foldRange(a.ListValues(), int(o[0]), int(o[1]), h)
	}
	return foldRange(a, i, i+1, h)
}

// foldRange folds the values start..end-1 of a into h in order, skipping
// nulls, as Spark folds the elements of an array. Flat element types run as
// one loop.
func foldRange(a arrow.Array, start, end int, h int32) int32 {
	if start >= end {
		return h
	}
	v := validOf(a)
	switch a := a.(type) {
	case *array.Null:
	case *array.Boolean:
		vals := a.Data().Buffers()[1].Bytes()
		off := a.Data().Offset()
		for j := start; j < end; j++ {
			if v.ok(j) {
				var x int32
				if bitutil.BitIsSet(vals, off+j) {
					x = 1
				}
				h = HashInt(x, h)
			}
		}
	case *array.Int8:
		h = rangeInts(a.Int8Values()[start:end], v, start, h)
	case *array.Int16:
		h = rangeInts(a.Int16Values()[start:end], v, start, h)
	case *array.Int32:
		h = rangeInts(a.Int32Values()[start:end], v, start, h)
	case *array.Date32:
		h = rangeInts(a.Date32Values()[start:end], v, start, h)
	case *array.Int64:
		h = rangeLongs(a.Int64Values()[start:end], v, start, h)
	case *array.Timestamp:
		h = rangeLongs(a.TimestampValues()[start:end], v, start, h)
	case *array.Decimal32:
		h = rangeLongs(a.Values()[start:end], v, start, h)
	case *array.Decimal64:
		h = rangeLongs(a.Values()[start:end], v, start, h)
	case *array.Float32:
		for j, x := range a.Float32Values()[start:end] {
			if v.ok(start + j) {
				h = HashFloat32(x, h)
			}
		}
	case *array.Float64:
		for j, x := range a.Float64Values()[start:end] {
			if v.ok(start + j) {
				h = HashFloat64(x, h)
			}
		}
	case *array.Decimal128:
		long := a.DataType().(*arrow.Decimal128Type).Precision > MaxLongDigits
		for j, x := range a.Values()[start:end] {
			if !v.ok(start + j) {
				continue
			}
			if long {
				h = hashBigDecimal(x, h)
			} else {
				h = HashLong(int64(x.LowBits()), h)
			}
		}
	case *array.String:
		h = rangeBytes(a.ValueOffsets(), a.ValueBytes(), v, start, end, h)
	case *array.LargeString:
		h = rangeBytes(a.ValueOffsets(), a.ValueBytes(), v, start, end, h)
	case *array.Binary:
		h = rangeBytes(a.ValueOffsets(), a.ValueBytes(), v, start, end, h)
	case *array.LargeBinary:
		h = rangeBytes(a.ValueOffsets(), a.ValueBytes(), v, start, end, h)
	default: // nested elements
		for j := start; j < end; j++ {
			if v.ok(j) {
				h = hashAt(a, j, h)
			}
		}
	}
	return h
}

func rangeInts[T smallInt](vals []T, v validity, start int, h int32) int32 {
	for j, x := range vals {
		if v.ok(start + j) {
			h = HashInt(int32(x), h)
		}
	}
	return h
}

func rangeLongs[T ~int32 | ~int64](vals []T, v validity, start int, h int32) int32 {
	for j, x := range vals {
		if v.ok(start + j) {
			h = HashLong(int64(x), h)
		}
	}
	return h
}

func rangeBytes[O int32 | int64](offs []O, data []byte, v validity, start, end int, h int32) int32 {
	base := offs[0]
	for j := start; j < end; j++ {
		if v.ok(j) {
			h = HashBytes(data[offs[j]-base:offs[j+1]-base], h)
		}
	}
	return h
}
