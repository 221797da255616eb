package testgen

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The Arrow types producers (pyarrow, polars, DuckDB, arrow-go, apache-arrow
// JS) write beyond the row formats' own, and what the encoders convert
// them to. ProducerBatch has a column of each, ProducerLossy the values
// that cannot convert without loss.

// producerColumn is one column: its input type and values, and the
// row-format type and values that converting them gives. A nil value is
// null; lists are []any, structs []any of fields, maps []kv.
type producerColumn struct {
	name       string
	in, want   arrow.DataType
	inV, wantV []any
}

type kv struct{ k, v any }

var (
	tsUS = &arrow.TimestampType{Unit: arrow.Microsecond}
	dec  = func(p, s int32) *arrow.Decimal128Type { return &arrow.Decimal128Type{Precision: p, Scale: s} }
)

// pow10 is 10^n as a big.Int.
func pow10(n int64) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil) }

func producerColumns() []producerColumn {
	long := "a string longer than the twelve bytes a view inlines"
	maxU64 := new(big.Int).SetUint64(math.MaxUint64)
	big38 := new(big.Int).Sub(pow10(38), big.NewInt(1)) // 38 nines
	strDict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	return []producerColumn{
		{"ts_s", &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
			[]any{int64(0), int64(-1), nil, int64(1_700_000_000)}, []any{int64(0), int64(-1_000_000), nil, int64(1_700_000_000_000_000)}},
		{"ts_ms", &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "America/New_York"}, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "America/New_York"},
			[]any{int64(1), int64(-1), nil, int64(1_700_000_000_123)}, []any{int64(1000), int64(-1000), nil, int64(1_700_000_000_123_000)}},
		{"ts_ns", &arrow.TimestampType{Unit: arrow.Nanosecond}, tsUS,
			[]any{int64(1000), int64(-2000), nil, int64(1_700_000_000_123_456_000)}, []any{int64(1), int64(-2), nil, int64(1_700_000_000_123_456)}},
		{"date64", arrow.FixedWidthTypes.Date64, arrow.FixedWidthTypes.Date32,
			[]any{int64(0), int64(86_400_000), nil, int64(-86_400_000 * 719_162)}, []any{int64(0), int64(1), nil, int64(-719_162)}},
		{"large_utf8", arrow.BinaryTypes.LargeString, arrow.BinaryTypes.String,
			[]any{"a", "", nil, "héllo ✓"}, []any{"a", "", nil, "héllo ✓"}},
		{"large_binary", arrow.BinaryTypes.LargeBinary, arrow.BinaryTypes.Binary,
			[]any{[]byte{0, 1}, []byte{}, nil, []byte{0xff}}, []any{[]byte{0, 1}, []byte{}, nil, []byte{0xff}}},
		{"string_view", arrow.BinaryTypes.StringView, arrow.BinaryTypes.String,
			[]any{"short", long, nil, ""}, []any{"short", long, nil, ""}},
		{"binary_view", arrow.BinaryTypes.BinaryView, arrow.BinaryTypes.Binary,
			[]any{[]byte(long), []byte{7}, nil, []byte{}}, []any{[]byte(long), []byte{7}, nil, []byte{}}},
		{"fixed_binary", &arrow.FixedSizeBinaryType{ByteWidth: 3}, arrow.BinaryTypes.Binary,
			[]any{[]byte("abc"), []byte{0, 0, 0}, nil, []byte("xyz")}, []any{[]byte("abc"), []byte{0, 0, 0}, nil, []byte("xyz")}},
		{"dict_i8_utf8", strDict, arrow.BinaryTypes.String,
			[]any{"y", "x", nil, "y"}, []any{"y", "x", nil, "y"}},
		{"dict_u32_large_utf8", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint32, ValueType: arrow.BinaryTypes.LargeString}, arrow.BinaryTypes.String,
			[]any{"β", "β", nil, "α"}, []any{"β", "β", nil, "α"}},
		{"dict_i16_int64", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.PrimitiveTypes.Int64}, arrow.PrimitiveTypes.Int64,
			[]any{int64(math.MinInt64), int64(5), nil, int64(5)}, []any{int64(math.MinInt64), int64(5), nil, int64(5)}},
		{"uint8", arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int16,
			[]any{uint64(0), uint64(255), nil, uint64(7)}, []any{int64(0), int64(255), nil, int64(7)}},
		{"uint16", arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Int32,
			[]any{uint64(0), uint64(65535), nil, uint64(7)}, []any{int64(0), int64(65535), nil, int64(7)}},
		{"uint32", arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Int64,
			[]any{uint64(0), uint64(math.MaxUint32), nil, uint64(7)}, []any{int64(0), int64(math.MaxUint32), nil, int64(7)}},
		{"uint64", arrow.PrimitiveTypes.Uint64, dec(20, 0),
			[]any{uint64(0), uint64(math.MaxUint64), nil, uint64(42)}, []any{big.NewInt(0), maxU64, nil, big.NewInt(42)}},
		{"float16", arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32,
			[]any{float32(1.5), float32(-0.25), nil, float32(65504)}, []any{float32(1.5), float32(-0.25), nil, float32(65504)}},
		{"decimal32", &arrow.Decimal32Type{Precision: 9, Scale: 2}, dec(9, 2),
			[]any{big.NewInt(-999_999_999), big.NewInt(1), nil, big.NewInt(123)}, []any{big.NewInt(-999_999_999), big.NewInt(1), nil, big.NewInt(123)}},
		{"decimal64", &arrow.Decimal64Type{Precision: 18, Scale: 3}, dec(18, 3),
			[]any{big.NewInt(-999_999_999_999_999_999), big.NewInt(0), nil, big.NewInt(5)}, []any{big.NewInt(-999_999_999_999_999_999), big.NewInt(0), nil, big.NewInt(5)}},
		{"decimal256", &arrow.Decimal256Type{Precision: 38, Scale: 5}, dec(38, 5),
			[]any{big38, new(big.Int).Neg(big38), nil, big.NewInt(-1)}, []any{big38, new(big.Int).Neg(big38), nil, big.NewInt(-1)}},
		{"decimal256_wide", &arrow.Decimal256Type{Precision: 60, Scale: 2}, dec(38, 2),
			[]any{big.NewInt(12345), new(big.Int).Neg(big38), nil, big.NewInt(0)}, []any{big.NewInt(12345), new(big.Int).Neg(big38), nil, big.NewInt(0)}},
		{"large_list", arrow.LargeListOf(arrow.PrimitiveTypes.Int32), arrow.ListOf(arrow.PrimitiveTypes.Int32),
			[]any{[]any{int64(1), int64(2)}, []any{}, nil, []any{nil, int64(3)}}, []any{[]any{int64(1), int64(2)}, []any{}, nil, []any{nil, int64(3)}}},
		{"list_view", arrow.ListViewOf(arrow.BinaryTypes.String), arrow.ListOf(arrow.BinaryTypes.String),
			[]any{[]any{"a"}, []any{"b", nil}, nil, []any{}}, []any{[]any{"a"}, []any{"b", nil}, nil, []any{}}},
		{"large_list_view", arrow.LargeListViewOf(arrow.PrimitiveTypes.Uint8), arrow.ListOf(arrow.PrimitiveTypes.Int16),
			[]any{[]any{}, []any{uint64(200)}, nil, []any{uint64(1), uint64(2)}}, []any{[]any{}, []any{int64(200)}, nil, []any{int64(1), int64(2)}}},
		{"fixed_size_list", arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int16), arrow.ListOf(arrow.PrimitiveTypes.Int16),
			[]any{[]any{int64(1), int64(2)}, []any{nil, int64(4)}, nil, []any{int64(5), int64(6)}}, []any{[]any{int64(1), int64(2)}, []any{nil, int64(4)}, nil, []any{int64(5), int64(6)}}},
		{"list_of_ns", arrow.ListOf(&arrow.TimestampType{Unit: arrow.Nanosecond}), arrow.ListOf(tsUS),
			[]any{[]any{int64(3000)}, []any{}, nil, []any{nil, int64(-5000)}}, []any{[]any{int64(3)}, []any{}, nil, []any{nil, int64(-5)}}},
		{"list_of_dict", arrow.ListOf(strDict), arrow.ListOf(arrow.BinaryTypes.String),
			[]any{[]any{"x", "y", nil}, []any{"y"}, nil, []any{}}, []any{[]any{"x", "y", nil}, []any{"y"}, nil, []any{}}},
		{"struct", arrow.StructOf(
			arrow.Field{Name: "t", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
			arrow.Field{Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true},
			arrow.Field{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true}),
			arrow.StructOf(
				arrow.Field{Name: "t", Type: tsUS, Nullable: true},
				arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
				arrow.Field{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true}),
			[]any{[]any{int64(2), "p", int64(1)}, []any{nil, nil, nil}, nil, []any{int64(-3), "q", int64(2)}},
			[]any{[]any{int64(2000), "p", int64(1)}, []any{nil, nil, nil}, nil, []any{int64(-3000), "q", int64(2)}}},
		{"map", arrow.MapOf(arrow.BinaryTypes.LargeString, arrow.PrimitiveTypes.Uint16), arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32),
			[]any{[]kv{{"k", uint64(65535)}, {"j", nil}}, []kv{}, nil, []kv{{"z", uint64(0)}}},
			[]any{[]kv{{"k", int64(65535)}, {"j", nil}}, []kv{}, nil, []kv{{"z", int64(0)}}}},
		{"large_list_of_struct", arrow.LargeListOf(arrow.StructOf(
			arrow.Field{Name: "v", Type: arrow.BinaryTypes.StringView, Nullable: true},
			arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Date64, Nullable: true})),
			arrow.ListOf(arrow.StructOf(
				arrow.Field{Name: "v", Type: arrow.BinaryTypes.String, Nullable: true},
				arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true})),
			[]any{[]any{[]any{long, int64(86_400_000 * 2)}, nil}, []any{}, nil, []any{[]any{nil, nil}}},
			[]any{[]any{[]any{long, int64(2)}, nil}, []any{}, nil, []any{[]any{nil, nil}}}},
		{"int32", arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32, // needs no conversion: shared
			[]any{int64(1), int64(2), nil, int64(3)}, []any{int64(1), int64(2), nil, int64(3)}},
	}
}

// ProducerBatch returns a batch with a column of every Arrow type that
// producers write and the encoders convert (timestamps in s, ms and ns with
// and without a time zone, date64, large, view and fixed-size binaries and
// strings, dictionaries of several index and value types, unsigned
// integers, float16, decimal32/64/256, large_list, list_view,
// large_list_view, fixed_size_list, and these inside lists, structs and
// maps), four rows with row 2 null, and the batch of row-format types the
// conversion must give. The caller releases both.
func ProducerBatch(mem memory.Allocator) (in, want arrow.RecordBatch) {
	return producerBatches(mem, producerColumns())
}

func producerBatches(mem memory.Allocator, cols []producerColumn) (in, want arrow.RecordBatch) {
	inF, wantF := make([]arrow.Field, len(cols)), make([]arrow.Field, len(cols))
	inA, wantA := make([]arrow.Array, len(cols)), make([]arrow.Array, len(cols))
	for i, c := range cols {
		inF[i] = arrow.Field{Name: c.name, Type: c.in, Nullable: true}
		wantF[i] = arrow.Field{Name: c.name, Type: c.want, Nullable: true}
		inA[i] = buildColumn(mem, c.in, c.inV)
		wantA[i] = buildColumn(mem, c.want, c.wantV)
	}
	n := int64(len(cols[0].inV))
	in = array.NewRecordBatch(arrow.NewSchema(inF, nil), inA, n)
	want = array.NewRecordBatch(arrow.NewSchema(wantF, nil), wantA, n)
	for i := range cols {
		inA[i].Release()
		wantA[i].Release()
	}
	return in, want
}

// LossyCase is a batch one of whose values converting to the row format's
// types would lose: Row and Field say where, Truncated is the batch of
// row-format types it gives when truncation is allowed (nil when
// truncation does not help: the value is out of range).
type LossyCase struct {
	Name      string
	Row       int
	Field     string
	Batch     arrow.RecordBatch
	Truncated arrow.RecordBatch
}

// Release releases the case's batches.
func (c *LossyCase) Release() {
	c.Batch.Release()
	if c.Truncated != nil {
		c.Truncated.Release()
	}
}

// ProducerLossy returns the values whose conversion loses: nanoseconds
// below a microsecond (top level and inside a list, behind a null list and
// an empty one so that the row is not the element's index), a date64 that
// is not a midnight (inside a struct), and decimal256 values beyond 38
// digits (top level and in a dictionary).
func ProducerLossy(mem memory.Allocator) []LossyCase {
	ns := &arrow.TimestampType{Unit: arrow.Nanosecond}
	cases := []struct {
		name  string
		row   int
		field string
		col   producerColumn
		trunc bool
	}{
		{"ns below a microsecond", 3, "ts", producerColumn{"ts", ns, tsUS,
			[]any{int64(1000), nil, int64(7_000), int64(-1500)}, []any{int64(1), nil, int64(7), int64(-2)}}, true},
		{"ns in a list", 2, "l.item", producerColumn{"l", arrow.ListOf(ns), arrow.ListOf(tsUS),
			[]any{nil, []any{}, []any{int64(2000), int64(2001)}, []any{int64(999)}}, []any{nil, []any{}, []any{int64(2), int64(2)}, []any{int64(0)}}}, true},
		{"date64 not at midnight", 1, "s.d", producerColumn{"s",
			arrow.StructOf(arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Date64, Nullable: true}),
			arrow.StructOf(arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true}),
			[]any{[]any{int64(0)}, []any{int64(86_400_000 + 1)}, nil, []any{int64(-1)}},
			[]any{[]any{int64(0)}, []any{int64(1)}, nil, []any{int64(-1)}}}, true},
		{"decimal256 beyond 38 digits", 2, "d", producerColumn{"d", &arrow.Decimal256Type{Precision: 76, Scale: 0}, dec(38, 0),
			[]any{big.NewInt(1), nil, pow10(60), big.NewInt(2)}, nil}, false},
		{"decimal256 dictionary beyond 38 digits", 3, "dd", producerColumn{"dd",
			&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: &arrow.Decimal256Type{Precision: 76, Scale: 0}}, dec(38, 0),
			[]any{big.NewInt(1), nil, big.NewInt(1), new(big.Int).Neg(pow10(70))}, nil}, false},
	}
	out := make([]LossyCase, len(cases))
	for i, c := range cases {
		in := buildColumn(mem, c.col.in, c.col.inV)
		schema := arrow.NewSchema([]arrow.Field{{Name: c.col.name, Type: c.col.in, Nullable: true}}, nil)
		out[i] = LossyCase{Name: c.name, Row: c.row, Field: c.field, Batch: array.NewRecordBatch(schema, []arrow.Array{in}, int64(in.Len()))}
		in.Release()
		if c.trunc {
			w := buildColumn(mem, c.col.want, c.col.wantV)
			ws := arrow.NewSchema([]arrow.Field{{Name: c.col.name, Type: c.col.want, Nullable: true}}, nil)
			out[i].Truncated = array.NewRecordBatch(ws, []arrow.Array{w}, int64(w.Len()))
			w.Release()
		}
	}
	return out
}

// UnsupportedTypes are Arrow types with no row-format counterpart, which
// an Encoder refuses naming the field.
func UnsupportedTypes() []arrow.DataType {
	return []arrow.DataType{
		arrow.FixedWidthTypes.Time32ms, arrow.FixedWidthTypes.Time64ns, arrow.FixedWidthTypes.Duration_us,
		arrow.FixedWidthTypes.MonthInterval, arrow.FixedWidthTypes.DayTimeInterval, arrow.FixedWidthTypes.MonthDayNanoInterval,
		arrow.SparseUnionOf([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, []arrow.UnionTypeCode{0}),
		arrow.DenseUnionOf([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, []arrow.UnionTypeCode{0}),
		arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String),
	}
}

// buildColumn builds an array of type dt from vals (see producerColumn).
func buildColumn(mem memory.Allocator, dt arrow.DataType, vals []any) arrow.Array {
	if d, ok := dt.(*arrow.DictionaryType); ok {
		return buildDictionary(mem, d, vals)
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for _, v := range vals {
		put(b, v)
	}
	return b.NewArray()
}

// buildDictionary builds a dictionary array whose values are vals' distinct
// values in order of first appearance (arrow-go has no builder for some
// value types, large_utf8 among them).
func buildDictionary(mem memory.Allocator, dt *arrow.DictionaryType, vals []any) arrow.Array {
	var distinct []any
	seen := map[string]int{}
	idx := make([]any, len(vals))
	for i, v := range vals {
		if v == nil {
			continue
		}
		k := fmt.Sprint(v)
		j, ok := seen[k]
		if !ok {
			j = len(distinct)
			seen[k] = j
			distinct = append(distinct, v)
		}
		switch dt.IndexType.ID() {
		case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
			idx[i] = uint64(j)
		default:
			idx[i] = int64(j)
		}
	}
	values := buildColumn(mem, dt.ValueType, distinct)
	defer values.Release()
	indices := buildColumn(mem, dt.IndexType, idx)
	defer indices.Release()
	return array.NewDictionaryArray(dt, indices, values)
}

// twosComplement is v's 256-bit two's complement as four words, the most
// significant first. (arrow-go's FromBigInt reads big.Words as 64 bits,
// which they are not on 32-bit platforms.)
func twosComplement(v *big.Int) [4]uint64 {
	m := new(big.Int).Set(v)
	if v.Sign() < 0 {
		m.Add(m, new(big.Int).Lsh(big.NewInt(1), 256))
	}
	var b [32]byte
	m.FillBytes(b[:])
	var w [4]uint64
	for i := range w {
		w[i] = binary.BigEndian.Uint64(b[8*i:])
	}
	return w
}

func dec256(v *big.Int) decimal256.Num {
	w := twosComplement(v)
	return decimal256.New(w[0], w[1], w[2], w[3])
}

func put(b array.Builder, v any) {
	if v == nil {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.Uint8Builder:
		b.Append(uint8(v.(uint64)))
	case *array.Uint16Builder:
		b.Append(uint16(v.(uint64)))
	case *array.Uint32Builder:
		b.Append(uint32(v.(uint64)))
	case *array.Uint64Builder:
		b.Append(v.(uint64))
	case *array.Float16Builder:
		b.Append(float16.New(v.(float32)))
	case *array.Date64Builder:
		b.Append(arrow.Date64(v.(int64)))
	case *array.Decimal32Builder:
		b.Append(decimal.Decimal32(v.(*big.Int).Int64()))
	case *array.Decimal64Builder:
		b.Append(decimal.Decimal64(v.(*big.Int).Int64()))
	case *array.Decimal128Builder:
		w := twosComplement(v.(*big.Int))
		b.Append(decimal128.New(int64(w[2]), w[3]))
	case *array.Decimal256Builder:
		b.Append(dec256(v.(*big.Int)))
	case *array.LargeStringBuilder:
		b.Append(v.(string))
	case *array.StringViewBuilder:
		b.Append(v.(string))
	case *array.BinaryBuilder: // binary and large_binary
		b.Append(v.([]byte))
	case *array.BinaryViewBuilder:
		b.Append(v.([]byte))
	case *array.FixedSizeBinaryBuilder:
		b.Append(v.([]byte))
	case *array.BinaryDictionaryBuilder:
		if err := b.AppendString(v.(string)); err != nil {
			panic(err)
		}
	case *array.Int64DictionaryBuilder:
		if err := b.Append(v.(int64)); err != nil {
			panic(err)
		}
	case *array.Decimal256DictionaryBuilder:
		if err := b.Append(dec256(v.(*big.Int))); err != nil {
			panic(err)
		}
	case *array.MapBuilder:
		b.Append(true)
		for _, e := range v.([]kv) {
			put(b.KeyBuilder(), e.k)
			put(b.ItemBuilder(), e.v)
		}
	case *array.FixedSizeListBuilder:
		b.Append(true)
		for _, e := range v.([]any) {
			put(b.ValueBuilder(), e)
		}
	case array.VarLenListLikeBuilder:
		es := v.([]any)
		b.AppendWithSize(true, len(es))
		for _, e := range es {
			put(b.ValueBuilder(), e)
		}
	case *array.StructBuilder:
		b.Append(true)
		for i, e := range v.([]any) {
			put(b.FieldBuilder(i), e)
		}
	default: // the row-format types
		appendScalar(b, v)
	}
}
