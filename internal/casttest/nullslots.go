package casttest

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// NullSlots is nil when every null slot of a holds what arrow-go's
// builders leave there: zero bytes under a null fixed-width value or bool,
// a zero length under a null string or binary. It looks into the children
// of lists, maps and structs (list rows themselves may be null with a
// length, pointing at real elements). A kernel that passes it on dirty
// memory writes every byte it exposes.
func NullSlots(a arrow.Array) error { return nullSlots(a.Data(), "") }

func nullSlots(d arrow.ArrayData, path string) error {
	n, off := d.Len(), d.Offset()
	bufs := d.Buffers()
	var valid []byte
	if len(bufs) > 0 && bufs[0] != nil {
		valid = bufs[0].Bytes()
	}
	isNull := func(i int) bool { return valid != nil && !bitutil.BitIsSet(valid, off+i) }
	switch dt := d.DataType().(type) {
	case *arrow.BooleanType:
		vals := bufs[1].Bytes()
		for i := 0; i < n; i++ {
			if isNull(i) && bitutil.BitIsSet(vals, off+i) {
				return fmt.Errorf("%srow %d: null bool has its value bit set", path, i)
			}
		}
	case *arrow.StringType, *arrow.BinaryType:
		offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())
		for i := 0; i < n; i++ {
			if isNull(i) && offs[off+i+1] != offs[off+i] {
				return fmt.Errorf("%srow %d: null %s has length %d", path, i, dt, offs[off+i+1]-offs[off+i])
			}
		}
	case *arrow.LargeStringType, *arrow.LargeBinaryType:
		offs := arrow.Int64Traits.CastFromBytes(bufs[1].Bytes())
		for i := 0; i < n; i++ {
			if isNull(i) && offs[off+i+1] != offs[off+i] {
				return fmt.Errorf("%srow %d: null %s has length %d", path, i, dt, offs[off+i+1]-offs[off+i])
			}
		}
	case arrow.FixedWidthDataType:
		if dt.ID() == arrow.NULL {
			return nil
		}
		w := dt.BitWidth() / 8
		vals := bufs[1].Bytes()
		for i := 0; i < n; i++ {
			if !isNull(i) {
				continue
			}
			for _, b := range vals[(off+i)*w : (off+i+1)*w] {
				if b != 0 {
					return fmt.Errorf("%srow %d: null %s holds bytes % x", path, i, dt, vals[(off+i)*w:(off+i+1)*w])
				}
			}
		}
	case *arrow.ListType, *arrow.MapType:
		if n == 0 {
			return nil
		}
		offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())
		return children(d, int(offs[off]), int(offs[off+n]), path)
	case *arrow.LargeListType:
		if n == 0 {
			return nil
		}
		offs := arrow.Int64Traits.CastFromBytes(bufs[1].Bytes())
		return children(d, int(offs[off]), int(offs[off+n]), path)
	case *arrow.StructType:
		return children(d, off, off+n, path)
	}
	return nil
}

// children checks rows [lo, hi) of each of d's children.
func children(d arrow.ArrayData, lo, hi int, path string) error {
	for j, c := range d.Children() {
		sub := array.NewSliceData(c, int64(lo), int64(hi))
		err := nullSlots(sub, fmt.Sprintf("%schild %d: ", path, j))
		sub.Release()
		if err != nil {
			return err
		}
	}
	return nil
}
