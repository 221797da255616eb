package compactrow

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

func requireEncodeError(t *testing.T, err error, sentinel error, row int, field string) {
	t.Helper()
	require.ErrorIs(t, err, sentinel)
	var ee *rowbridge.EncodeError
	require.True(t, errors.As(err, &ee), "%T %v", err, err)
	require.Equal(t, row, ee.Row, "%v", err)
	require.Equal(t, field, ee.Field, "%v", err)
}

func TestEncodeShortDecimalOverflow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dt := &arrow.Decimal128Type{Precision: 10, Scale: 2}
	schema := fields(nf("s", arrow.StructOf(nf("d", dt))))
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	sb := b.Field(0).(*array.StructBuilder)
	db := sb.FieldBuilder(0).(*array.Decimal128Builder)
	sb.Append(true)
	db.Append(decimal128.FromI64(-5))
	sb.Append(true)
	db.Append(decimal128.New(1, 0)) // 2^64: no int64 holds it
	rec := b.NewRecordBatch()
	defer rec.Release()

	enc, err := NewEncoder(schema)
	require.NoError(t, err)
	dst := rowbridge.Rows{Data: []byte{9}, Offsets: []int{0, 1}}
	got, err := enc.AppendRows(dst, rec)
	requireEncodeError(t, err, rowbridge.ErrValue, 1, "s.d")
	require.Equal(t, dst, got, "dst is returned unchanged on error")

	sl := rec.NewSlice(0, 1)
	defer sl.Release()
	one, err := enc.Encode(sl)
	require.NoError(t, err)
	require.Equal(t, unhex(t, "00 00 fbffffffffffffff"), one.Row(0))
}

// Decimals with more digits than their precision are refused, wherever
// they sit, and ±(10^p - 1) is written.
func TestEncodeDecimalPrecision(t *testing.T) {
	badValue := map[string]string{"short": "100000", "short negative": "-100000", "long": "100000000000000000000",
		"long minimum": "-170141183460469231731687303715884105728", "in a struct": "100000",
		"short in an array": "100000", "long in an array": "100000000000000000000"}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	short := &arrow.Decimal128Type{Precision: 5, Scale: 2}
	long := &arrow.Decimal128Type{Precision: 20, Scale: 0}
	tenTo20 := decimal128.New(5, 0x6bc75e2d63100000)
	minInt128 := decimal128.New(-1<<63, 0)
	for _, tc := range []struct {
		name  string
		dt    arrow.DataType
		wrap  func(arrow.DataType) arrow.DataType
		ok    []decimal128.Num
		bad   decimal128.Num
		field string
	}{
		{"short", short, nil, []decimal128.Num{decimal128.FromI64(99999), decimal128.FromI64(-99999)}, decimal128.FromI64(100000), "d"},
		{"short negative", short, nil, nil, decimal128.FromI64(-100000), "d"},
		{"long", long, nil, []decimal128.Num{tenTo20.Sub(decimal128.FromU64(1)), tenTo20.Sub(decimal128.FromU64(1)).Negate()}, tenTo20, "d"},
		{"long minimum", long, nil, nil, minInt128, "d"},
		{"in a struct", short, func(dt arrow.DataType) arrow.DataType { return arrow.StructOf(nf("x", dt)) }, nil, decimal128.FromI64(100000), "d.x"},
		{"short in an array", short, func(dt arrow.DataType) arrow.DataType { return arrow.ListOf(dt) }, nil, decimal128.FromI64(100000), "d.item"},
		{"long in an array", long, func(dt arrow.DataType) arrow.DataType { return arrow.ListOf(dt) }, nil, tenTo20, "d.item"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dt := tc.dt
			if tc.wrap != nil {
				dt = tc.wrap(dt)
			}
			schema := fields(nf("d", dt))
			b := array.NewRecordBuilder(mem, schema)
			defer b.Release()
			var db *array.Decimal128Builder
			appendRow := func(v decimal128.Num) {
				switch fb := b.Field(0).(type) {
				case *array.Decimal128Builder:
					fb.Append(v)
				case *array.StructBuilder:
					fb.Append(true)
					fb.FieldBuilder(0).(*array.Decimal128Builder).Append(v)
				case *array.ListBuilder:
					fb.Append(true)
					db = fb.ValueBuilder().(*array.Decimal128Builder)
					db.AppendNull()
					db.Append(v)
				}
			}
			for _, v := range tc.ok {
				appendRow(v)
			}
			appendRow(tc.bad)
			rec := b.NewRecordBatch()
			defer rec.Release()

			enc, err := NewEncoder(schema)
			require.NoError(t, err)
			_, err = enc.Encode(rec)
			requireEncodeError(t, err, rowbridge.ErrValue, len(tc.ok), tc.field)
			// The message names the value, on 32-bit machines too.
			require.ErrorContains(t, err, "unscaled value "+badValue[tc.name]+" exceeds")
			if len(tc.ok) > 0 {
				good := rec.NewSlice(0, int64(len(tc.ok)))
				defer good.Release()
				roundTrip(t, mem, good)
			}
		})
	}
}

func TestNotNullFields(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{nf("x", arrow.PrimitiveTypes.Int32), {Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	enc, err := NewEncoder(schema)
	require.NoError(t, err)
	dec, err := NewDecoder(schema, WithAllocator(mem))
	require.NoError(t, err)

	rec := fromJSON(t, mem, schema, `[{"x":1,"a":1},{"x":null,"a":2},{"x":3,"a":null}]`)
	defer rec.Release()
	_, err = enc.Encode(rec)
	requireEncodeError(t, err, rowbridge.ErrValue, 2, "a")

	_, err = dec.Decode([][]byte{unhex(t, "01 00000000 0200000000000000"), unhex(t, "02 00000000 0000000000000000")})
	require.ErrorIs(t, err, rowbridge.ErrLayout)
	var de *rowbridge.DecodeError
	require.True(t, errors.As(err, &de))
	require.Equal(t, rowbridge.DecodeError{Row: 1, Field: "a", Offset: 0, Err: de.Err}, *de)
}

func TestEncodeSchemaMismatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	enc, err := NewEncoder(schemaE2)
	require.NoError(t, err)
	rec := fromJSON(t, mem, schemaE1, `[{"i":1,"s":"x","b":2}]`)
	defer rec.Release()
	_, err = enc.Encode(rec)
	require.ErrorContains(t, err, "batch has 3 columns, encoder schema has 1")

	other := fields(nf("a", arrow.ListOf(arrow.PrimitiveTypes.Int64)))
	rec2 := fromJSON(t, mem, other, `[{"a":[1]}]`)
	defer rec2.Release()
	_, err = enc.Encode(rec2)
	require.ErrorContains(t, err, "column 0 (a)")
}

func TestUnsupportedTypes(t *testing.T) {
	// Encoders convert the types producers write (internal/arrowconv);
	// decoders build only the row-format types.
	for _, dt := range []arrow.DataType{arrow.BinaryTypes.LargeString, &arrow.TimestampType{Unit: arrow.Nanosecond}, arrow.FixedWidthTypes.Float16} {
		schema := fields(nf("x", arrow.StructOf(nf("y", dt))))
		_, err := NewEncoder(schema)
		require.NoError(t, err, "%s", dt)
		_, err = NewDecoder(schema)
		require.ErrorIs(t, err, rowbridge.ErrUnsupportedType, "%s", dt)
	}
	for _, dt := range []arrow.DataType{arrow.FixedWidthTypes.Time64us, arrow.FixedWidthTypes.Duration_ms, arrow.FixedWidthTypes.DayTimeInterval,
		arrow.SparseUnionOf([]arrow.Field{nf("a", arrow.PrimitiveTypes.Int32)}, []arrow.UnionTypeCode{0})} {
		schema := fields(nf("x", arrow.StructOf(nf("y", dt))))
		_, err := NewEncoder(schema)
		require.ErrorIs(t, err, rowbridge.ErrUnsupportedType, "%s", dt)
		require.ErrorContains(t, err, "x.y")
		require.ErrorContains(t, err, dt.String())
	}
}

// AppendRows extends existing rows and leaves them intact.
func TestAppendRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := fromJSON(t, mem, schemaE1, `[{"i":1,"s":"abc","b":null},{"i":2,"s":"","b":null}]`)
	defer rec.Release()
	enc, err := NewEncoder(schemaE1)
	require.NoError(t, err)
	first, second := rec.NewSlice(0, 1), rec.NewSlice(1, 2)
	defer first.Release()
	defer second.Release()
	rows, err := enc.Encode(first)
	require.NoError(t, err)
	// Dirty spare capacity must not leak into the appended row's gaps.
	rows.Data = append(rows.Data, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee)[:20]
	rows, err = enc.AppendRows(rows, second)
	require.NoError(t, err)
	require.Equal(t, []int{0, 20, 37}, rows.Offsets)
	require.Equal(t, unhex(t, "04 01000000 03000000 616263 0000000000000000"), rows.Row(0))
	require.Equal(t, unhex(t, "04 02000000 00000000 0000000000000000"), rows.Row(1))
}
