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
		out, ok := LeafRowType(dt)
		if !ok {
			return nil, fmt.Errorf("field %s: %w: %s has no row-format counterpart (Spark has no such type; cast it first)",
				path, rowbridge.ErrUnsupportedType, dt)
		}
		n.out = out
	}
	n.same = n.out == dt
	return n, nil
}

// LeafRowType is the one table of the row-format type of each non-nested
// type producers write, as Spark reads Arrow and Parquet data: dt itself
// when it needs no conversion; false for a nested type (list-likes, map,
// struct, dictionary, extension: their callers walk them) or one with no
// counterpart (time32/64, durations, intervals, unions, run-end encoded).
// A decimal256 beyond 38 digits narrows to 38 (each value must then fit);
// ddl.Normalize refuses such a type before asking.
func LeafRowType(dt arrow.DataType) (arrow.DataType, bool) {
	switch t := dt.(type) {
	case *arrow.NullType, *arrow.BooleanType, *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type,
		*arrow.Int64Type, *arrow.Float32Type, *arrow.Float64Type, *arrow.Date32Type, *arrow.Decimal128Type,
		*arrow.StringType, *arrow.BinaryType:
		return dt, true
	case *arrow.TimestampType:
		if t.Unit != arrow.Microsecond {
			return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: t.TimeZone}, true
		}
		return dt, true
	case *arrow.Date64Type:
		return arrow.FixedWidthTypes.Date32, true
	case *arrow.Uint8Type:
		return arrow.PrimitiveTypes.Int16, true
	case *arrow.Uint16Type:
		return arrow.PrimitiveTypes.Int32, true
	case *arrow.Uint32Type:
		return arrow.PrimitiveTypes.Int64, true
	case *arrow.Uint64Type:
		return &arrow.Decimal128Type{Precision: 20, Scale: 0}, true
	case *arrow.Float16Type:
		return arrow.PrimitiveTypes.Float32, true
	case *arrow.Decimal32Type:
		return &arrow.Decimal128Type{Precision: t.Precision, Scale: t.Scale}, true
	case *arrow.Decimal64Type:
		return &arrow.Decimal128Type{Precision: t.Precision, Scale: t.Scale}, true
	case *arrow.Decimal256Type:
		return &arrow.Decimal128Type{Precision: min(t.Precision, 38), Scale: min(t.Scale, 38)}, true
	case *arrow.LargeStringType, *arrow.StringViewType:
		return arrow.BinaryTypes.String, true
	case *arrow.LargeBinaryType, *arrow.BinaryViewType, *arrow.FixedSizeBinaryType:
		return arrow.BinaryTypes.Binary, true
	}
	return nil, false
}
