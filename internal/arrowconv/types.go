package arrowconv

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
)

// node is one field of the input schema with its row-format type.
type node struct {
	in, out arrow.DataType
	path    string
	same    bool    // in == out all the way down: the column passes through
	kids    []*node // list-likes: element; map: entries struct; struct: fields; dictionary: values
}

// RowType returns the row-format type that values of dt are converted to,
// dt itself when it needs no conversion. path names the field in the
// error for a type the row formats have no counterpart for (time32/64,
// durations, intervals, unions, run-end encoded, extension types), which
// wraps rowbridge.ErrUnsupportedType.
func RowType(dt arrow.DataType, path string) (arrow.DataType, error) {
	n, err := newNode(dt, path)
	if err != nil {
		return nil, err
	}
	return n.out, nil
}

func newNode(dt arrow.DataType, path string) (*node, error) {
	n := &node{in: dt, out: dt, path: path, same: true}
	switch t := dt.(type) {
	case *arrow.NullType, *arrow.BooleanType, *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type,
		*arrow.Int64Type, *arrow.Float32Type, *arrow.Float64Type, *arrow.Date32Type, *arrow.Decimal128Type,
		*arrow.StringType, *arrow.BinaryType:
	case *arrow.TimestampType:
		if t.Unit != arrow.Microsecond {
			n.out = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: t.TimeZone}
		}
	case *arrow.Date64Type:
		n.out = arrow.FixedWidthTypes.Date32
	case *arrow.Uint8Type:
		n.out = arrow.PrimitiveTypes.Int16
	case *arrow.Uint16Type:
		n.out = arrow.PrimitiveTypes.Int32
	case *arrow.Uint32Type:
		n.out = arrow.PrimitiveTypes.Int64
	case *arrow.Uint64Type:
		n.out = &arrow.Decimal128Type{Precision: 20, Scale: 0}
	case *arrow.Float16Type:
		n.out = arrow.PrimitiveTypes.Float32
	case *arrow.Decimal32Type:
		n.out = &arrow.Decimal128Type{Precision: t.Precision, Scale: t.Scale}
	case *arrow.Decimal64Type:
		n.out = &arrow.Decimal128Type{Precision: t.Precision, Scale: t.Scale}
	case *arrow.Decimal256Type:
		// Beyond 38 digits the type narrows to 38 and each value must fit.
		n.out = &arrow.Decimal128Type{Precision: min(t.Precision, 38), Scale: min(t.Scale, 38)}
	case *arrow.LargeStringType, *arrow.StringViewType:
		n.out = arrow.BinaryTypes.String
	case *arrow.LargeBinaryType, *arrow.BinaryViewType, *arrow.FixedSizeBinaryType:
		n.out = arrow.BinaryTypes.Binary
	case *arrow.DictionaryType:
		v, err := newNode(t.ValueType, path)
		if err != nil {
			return nil, err
		}
		n.kids, n.out = []*node{v}, v.out
	case *arrow.MapType: // before the list-likes: MapType is one
		entries, err := newNode(t.Elem(), path)
		if err != nil {
			return nil, err
		}
		// The entries struct's children are named by the map's key and
		// item fields, not under "entries".
		n.kids = []*node{entries}
		if !entries.same {
			st := entries.out.(*arrow.StructType)
			m := arrow.MapOfFields(st.Field(0), st.Field(1))
			m.KeysSorted = t.KeysSorted
			n.out, entries.out = m, m.Elem()
		}
	case arrow.ListLikeType: // list, large_list, list_view, large_list_view, fixed_size_list
		ef := t.ElemField()
		el, err := newNode(ef.Type, path+"."+ef.Name)
		if err != nil {
			return nil, err
		}
		n.kids = []*node{el}
		if t.ID() != arrow.LIST || !el.same {
			ef.Type = el.out
			n.out = arrow.ListOfField(ef)
		}
	case *arrow.StructType:
		fields := make([]arrow.Field, t.NumFields())
		changed := false
		for i, f := range t.Fields() {
			c, err := newNode(f.Type, path+"."+f.Name)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, c)
			f.Type = c.out
			fields[i] = f
			changed = changed || !c.same
		}
		if changed {
			n.out = arrow.StructOf(fields...)
		}
	default:
		return nil, fmt.Errorf("field %s: %w: %s has no row-format counterpart (Spark has no such type; cast it first)",
			path, rowbridge.ErrUnsupportedType, dt)
	}
	n.same = n.out == dt
	return n, nil
}
