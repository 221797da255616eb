package interop

import (
	"encoding/hex"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// expectation is a batch rendered as exact JSON for js/check.mjs, which
// renders what apache-arrow JS reads the same way and compares the two.
type expectation struct {
	Rows       int64       `json:"rows"`
	Fields     []fieldDesc `json:"fields"`
	Columns    [][]any     `json:"columns"`
	NullCounts []int       `json:"nullCounts"`
}

type fieldDesc struct {
	Name     string   `json:"name"`
	Nullable bool     `json:"nullable"`
	Type     typeDesc `json:"type"`
}

// typeDesc holds the keys check.mjs's describeType emits for the same type.
type typeDesc map[string]any

func describeField(f arrow.Field) fieldDesc {
	return fieldDesc{Name: f.Name, Nullable: f.Nullable, Type: describeType(f.Type)}
}

func describeType(dt arrow.DataType) typeDesc {
	switch t := dt.(type) {
	case *arrow.NullType:
		return typeDesc{"id": "null"}
	case *arrow.BooleanType:
		return typeDesc{"id": "bool"}
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type,
		*arrow.Float32Type, *arrow.Float64Type, *arrow.Date32Type:
		return typeDesc{"id": dt.Name()}
	case *arrow.TimestampType:
		return typeDesc{"id": "timestamp", "unit": t.Unit.String(), "tz": t.TimeZone}
	case *arrow.Decimal128Type:
		return typeDesc{"id": "decimal", "precision": t.Precision, "scale": t.Scale, "bitWidth": 128}
	case *arrow.StringType:
		return typeDesc{"id": "utf8"}
	case *arrow.BinaryType:
		return typeDesc{"id": "binary"}
	case *arrow.ListType:
		return typeDesc{"id": "list", "item": describeField(t.ElemField())}
	case *arrow.StructType:
		fs := make([]fieldDesc, t.NumFields())
		for i, f := range t.Fields() {
			fs[i] = describeField(f)
		}
		return typeDesc{"id": "struct", "fields": fs}
	case *arrow.MapType:
		return typeDesc{"id": "map", "keysSorted": t.KeysSorted, "entries": describeField(t.ElemField())}
	}
	return typeDesc{"id": "unsupported:" + dt.String()}
}

// expect renders rb. Values: int8..int32 and date32 as numbers; int64,
// timestamp and decimal (unscaled) as decimal strings; floats as "0x" + the
// hex of their bits; binary as hex; lists as arrays; structs as arrays of
// field values; maps as arrays of [key, value]; null as null.
func expect(rb arrow.RecordBatch) expectation {
	e := expectation{Rows: rb.NumRows()}
	for i, f := range rb.Schema().Fields() {
		col := rb.Column(i)
		e.Fields = append(e.Fields, describeField(f))
		vals := make([]any, col.Len())
		nulls := 0
		for r := range vals {
			vals[r] = renderValue(col, r)
			if vals[r] == nil {
				nulls++
			}
		}
		e.Columns = append(e.Columns, vals)
		e.NullCounts = append(e.NullCounts, nulls)
	}
	return e
}

func renderValue(arr arrow.Array, i int) any {
	if arr.DataType().ID() == arrow.NULL || arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return a.Value(i)
	case *array.Int16:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return fmt.Sprint(a.Value(i))
	case *array.Float32:
		return fmt.Sprintf("0x%08x", math.Float32bits(a.Value(i)))
	case *array.Float64:
		return fmt.Sprintf("0x%016x", math.Float64bits(a.Value(i)))
	case *array.Date32:
		return int32(a.Value(i))
	case *array.Timestamp:
		return fmt.Sprint(int64(a.Value(i)))
	case *array.Decimal128:
		return a.Value(i).BigInt().String()
	case *array.String:
		return a.Value(i)
	case *array.Binary:
		return hex.EncodeToString(a.Value(i))
	case *array.Map: // before List: a Map embeds *List
		start, end := a.ValueOffsets(i)
		entries := a.ListValues().(*array.Struct)
		out := make([]any, 0, end-start)
		for j := int(start); j < int(end); j++ {
			if entries.IsNull(j) {
				out = append(out, nil)
				continue
			}
			out = append(out, []any{renderValue(entries.Field(0), j), renderValue(entries.Field(1), j)})
		}
		return out
	case *array.List:
		start, end := a.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for j := int(start); j < int(end); j++ {
			out = append(out, renderValue(a.ListValues(), j))
		}
		return out
	case *array.Struct:
		out := make([]any, a.NumField())
		for k := range out {
			out[k] = renderValue(a.Field(k), i)
		}
		return out
	}
	panic(fmt.Sprintf("renderValue: unsupported type %s", arr.DataType()))
}
