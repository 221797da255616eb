package ddl

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/arrowconv"
	"github.com/rowbridge/rowbridge/internal/errkind"
)

// Normalize returns the schema of rows holding s's data: each field's type
// replaced by the one this package maps Spark's type to, the way Spark
// reads Arrow and Parquet data (what ArrowUtils.fromArrowType and Spark's
// Parquet reader give; the leaf types are internal/arrowconv's table,
// which the Encoders convert data by):
//
//	int8..int64, bool, float32/64, date32, null, utf8, binary   as they are
//	uint8, uint16, uint32      int16, int32, int64 (widened)
//	uint64                     decimal(20,0)
//	float16                    float32
//	date64                     date32
//	timestamp (s, ms, us, ns)  timestamp[us], keeping its time zone or the lack of one
//	decimal32/64/128/256       decimal128 of the same precision (at most 38) and scale
//	large_utf8, string_view    utf8
//	large_binary, binary_view, fixed_size_binary   binary
//	list, large_list, list_view, large_list_view, fixed_size_list   list ("element")
//	map                        map ("entries", "key", "value")
//	struct                     struct
//	dictionary                 its value type
//	extension types            their storage type
//
// Nullability is kept at every level; of field metadata only the comment
// is. Names must differ, ignoring case, within each struct, as in Parse.
// A type with no counterpart (time32/64, durations, intervals, unions,
// run-end encoded) is an error wrapping rowbridge.ErrUnsupportedType that
// names the field path.
func Normalize(s *arrow.Schema) (*arrow.Schema, error) {
	fields, err := normalizeFields(s.Fields(), "")
	if err != nil {
		return nil, err
	}
	return arrow.NewSchema(fields, nil), nil
}

func normalizeFields(fields []arrow.Field, prefix string) ([]arrow.Field, error) {
	out := make([]arrow.Field, len(fields))
	seen := make(map[string]int, len(fields))
	for i, f := range fields {
		path := prefix + f.Name
		key := strings.ToLower(f.Name)
		if j, dup := seen[key]; dup {
			return nil, errkind.New(fmt.Sprintf("ddl: field %s: %s", path, duplicateMsg(f.Name, fields[j].Name)), arrow.ErrInvalid)
		}
		seen[key] = i
		t, err := normalizeType(f.Type, path, 0)
		if err != nil {
			return nil, err
		}
		out[i] = arrow.Field{Name: f.Name, Type: t, Nullable: f.Nullable || t.ID() == arrow.NULL}
		if c, ok := fieldComment(f); ok {
			out[i].Metadata = arrow.NewMetadata([]string{CommentKey}, []string{c})
		}
	}
	return out, nil
}

func normalizeType(t arrow.DataType, path string, depth int) (arrow.DataType, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("ddl: field %s: types nested deeper than %d levels: %w", path, maxDepth, rowbridge.ErrUnsupportedType)
	}
	elem := func(f arrow.Field) (arrow.DataType, error) {
		e, err := normalizeType(f.Type, path+"."+ListElementName, depth+1)
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(arrow.Field{Name: ListElementName, Type: e, Nullable: f.Nullable || e.ID() == arrow.NULL}), nil
	}
	switch t := t.(type) {
	case arrow.DecimalType:
		p, s := t.GetPrecision(), t.GetScale()
		if p < 1 || p > MaxDecimalPrecision || s < 0 || s > p {
			return nil, fmt.Errorf("ddl: field %s: arrow type %s: Spark's decimals have at most %d digits and a scale in [0, precision]: %w",
				path, t, MaxDecimalPrecision, rowbridge.ErrUnsupportedType)
		}
		return Decimal(p, s), nil
	case *arrow.MapType: // before ListType: a map is a list of entries
		k, err := normalizeType(t.KeyType(), path+"."+MapKeyName, depth+1)
		if err != nil {
			return nil, err
		}
		v, err := normalizeType(t.ItemType(), path+"."+MapValueName, depth+1)
		if err != nil {
			return nil, err
		}
		return arrow.MapOfFields(
			arrow.Field{Name: MapKeyName, Type: k},
			arrow.Field{Name: MapValueName, Type: v, Nullable: t.ItemField().Nullable || v.ID() == arrow.NULL},
		), nil
	case *arrow.ListType:
		return elem(t.ElemField())
	case *arrow.LargeListType:
		return elem(t.ElemField())
	case *arrow.ListViewType:
		return elem(t.ElemField())
	case *arrow.LargeListViewType:
		return elem(t.ElemField())
	case *arrow.FixedSizeListType:
		return elem(t.ElemField())
	case *arrow.StructType:
		fields, err := normalizeFields(t.Fields(), path+".")
		if err != nil {
			return nil, err
		}
		return arrow.StructOf(fields...), nil
	case *arrow.DictionaryType:
		return normalizeType(t.ValueType, path, depth+1)
	case arrow.ExtensionType:
		return normalizeType(t.StorageType(), path, depth+1)
	}
	if rt, ok := arrowconv.LeafRowType(t); ok {
		return rt, nil
	}
	return nil, fmt.Errorf("ddl: field %s: arrow type %s has no Spark type: %w", path, t, rowbridge.ErrUnsupportedType)
}
