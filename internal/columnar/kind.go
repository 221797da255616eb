package columnar

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
)

// Kind is the physical class of an Arrow type that the row formats carry.
type Kind uint8

const (
	KindNull Kind = iota
	KindBool
	KindInt8
	KindInt16
	KindInt32
	KindInt64
	KindFloat32
	KindFloat64
	KindDate32
	KindTimestamp // int64 microseconds
	KindDecimal   // decimal128; short (precision <= 18) or long
	KindString
	KindBinary
	KindList
	KindMap
	KindStruct
)

var kindNames = [...]string{"null", "bool", "int8", "int16", "int32", "int64", "float32", "float64",
	"date32", "timestamp", "decimal", "string", "binary", "list", "map", "struct"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// widths is the one table of bytes per value: per Kind, the bytes of one
// value in the Arrow value buffer (0: no fixed-width value buffer) and in
// a row format's fixed-width field or array element (VarWidth: stored out
// of line). A short decimal is the row formats' 8-byte unscaled value;
// Node.RowWidth gives a long one's 16.
var widths = [...]struct{ arrow, row int8 }{
	KindNull:      {0, 0},
	KindBool:      {0, 1},
	KindInt8:      {1, 1},
	KindInt16:     {2, 2},
	KindInt32:     {4, 4},
	KindInt64:     {8, 8},
	KindFloat32:   {4, 4},
	KindFloat64:   {8, 8},
	KindDate32:    {4, 4},
	KindTimestamp: {8, 8},
	KindDecimal:   {16, 8},
	KindString:    {0, VarWidth},
	KindBinary:    {0, VarWidth},
	KindList:      {0, VarWidth},
	KindMap:       {0, VarWidth},
	KindStruct:    {0, VarWidth},
}

// VarWidth is the RowWidth of a value with no fixed width in a row.
const VarWidth = -1

// ValueWidth is the byte width of one value in the Arrow value buffer, or 0
// for kinds without a fixed-width value buffer (null, bool, variable-width
// and nested kinds).
func (k Kind) ValueWidth() int { return int(widths[k].arrow) }

// RowWidth is the byte width of one value of kind k in a row format's
// packed fixed-width field or array element (0 for the null type, 1 for a
// boolean, 8 for a short decimal), or VarWidth.
func (k Kind) RowWidth() int { return int(widths[k].row) }

// IsPrimitive reports whether the kind has no children and no variable-length data.
func (k Kind) IsPrimitive() bool { return k <= KindDecimal }

// IsNested reports whether the kind has child arrays.
func (k Kind) IsNested() bool { return k >= KindList }

// MaxShortDecimalPrecision is the largest decimal precision stored as an
// int64 unscaled value by both row formats' "short decimal".
const MaxShortDecimalPrecision = 18

// KindOf maps an Arrow type to its Kind, or fails with
// rowbridge.ErrUnsupportedType for types the row formats do not carry.
func KindOf(dt arrow.DataType) (Kind, error) {
	switch t := dt.(type) {
	case *arrow.NullType:
		return KindNull, nil
	case *arrow.BooleanType:
		return KindBool, nil
	case *arrow.Int8Type:
		return KindInt8, nil
	case *arrow.Int16Type:
		return KindInt16, nil
	case *arrow.Int32Type:
		return KindInt32, nil
	case *arrow.Int64Type:
		return KindInt64, nil
	case *arrow.Float32Type:
		return KindFloat32, nil
	case *arrow.Float64Type:
		return KindFloat64, nil
	case *arrow.Date32Type:
		return KindDate32, nil
	case *arrow.TimestampType:
		if t.Unit != arrow.Microsecond {
			return 0, fmt.Errorf("%w: %s (row formats store microseconds; cast to timestamp[us] first)", rowbridge.ErrUnsupportedType, dt)
		}
		return KindTimestamp, nil
	case *arrow.Decimal128Type:
		return KindDecimal, nil
	case *arrow.StringType:
		return KindString, nil
	case *arrow.BinaryType:
		return KindBinary, nil
	case *arrow.MapType: // before ListType: MapType embeds ListType
		return KindMap, nil
	case *arrow.ListType:
		return KindList, nil
	case *arrow.StructType:
		return KindStruct, nil
	}
	return 0, fmt.Errorf("%w: %s", rowbridge.ErrUnsupportedType, dt)
}
