package unsaferow

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

var flavors = []Flavor{Spark, Velox}

// rowsHex renders rows as hex, 8 bytes per group, for readable diffs.
func rowsHex(b []byte) string {
	var sb strings.Builder
	for i := 0; i < len(b); i += 8 {
		sb.WriteString(hex.EncodeToString(b[i:min(i+8, len(b))]))
		sb.WriteByte(' ')
	}
	return sb.String()
}

func recordFromJSON(t testing.TB, mem memory.Allocator, schema *arrow.Schema, js string) arrow.RecordBatch {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(js))
	require.NoError(t, err)
	return rec
}

func encodeWith(t testing.TB, fl Flavor, rec arrow.RecordBatch) *rowbridge.Rows {
	t.Helper()
	enc, err := NewEncoder(rec.Schema(), WithFlavor(fl))
	require.NoError(t, err)
	rows, err := enc.Encode(rec)
	require.NoError(t, err)
	require.Equal(t, int(rec.NumRows()), rows.Len())
	return &rows
}

func requireBytes(t testing.TB, want, got []byte, msg string) {
	t.Helper()
	if string(want) != string(got) {
		t.Fatalf("%s:\nwant %s\ngot  %s", msg, rowsHex(want), rowsHex(got))
	}
}

func TestEncodeGolden(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, g := range goldenRows {
		t.Run(g.name, func(t *testing.T) {
			skipArrowDecimals(t, g.schema) // the JSON of the batch to encode
			rec := goldenRecord(t, mem, g)
			defer rec.Release()
			for _, fl := range flavors {
				want := g.spark
				if fl == Velox {
					want = g.velox
				}
				rows := encodeWith(t, fl, rec)
				requireBytes(t, goldenBytes(want), rows.Row(0), g.name+"/"+fl.String())
			}
		})
	}
}

// E1's stream example: two rows back to back, each with its own offset.
func TestEncodeTwoRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := goldenSchema(nullable("a", arrow.PrimitiveTypes.Int32), nullable("b", arrow.BinaryTypes.String),
		nullable("c", arrow.PrimitiveTypes.Int64))
	rec := recordFromJSON(t, mem, schema, `[{"a": 1, "b": "abc", "c": null}, {"a": 2, "b": "", "c": null}]`)
	defer rec.Release()
	rows := encodeWith(t, Spark, rec)
	require.Equal(t, []int{0, 40, 72}, rows.Offsets)
	requireBytes(t, goldenBytes(goldenRows[0].spark), rows.Row(0), "row 0")
	requireBytes(t, goldenBytes(goldenRows[1].spark), rows.Row(1), "row 1")
}

// Spark pads fixed-width element regions to 8 bytes and counts the pad in
// the size; Velox HEAD does not (docs/row-layout.md, "UnsafeRow arrays", "Spark and Velox differences" item 1).
func TestEncodeArrayPadding(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cases := []struct {
		name              string
		dt                arrow.DataType
		js                string
		sparkLen, veloxLn uint32 // the array's size field
	}{
		{"bool", arrow.FixedWidthTypes.Boolean, `[true, false, true]`, 24, 19},
		{"int8", arrow.PrimitiveTypes.Int8, `[1, -1, 2, 3, 4]`, 24, 21},
		{"int16", arrow.PrimitiveTypes.Int16, `[1, 2, 3]`, 24, 22},
		{"int32", arrow.PrimitiveTypes.Int32, `[1]`, 24, 20},
		{"date32", arrow.FixedWidthTypes.Date32, `[1, 2, 3]`, 32, 28},
		{"float32", arrow.PrimitiveTypes.Float32, `[1.5, 2.5, 3.5]`, 32, 28},
		{"int64", arrow.PrimitiveTypes.Int64, `[1, 2, 3]`, 40, 40},
		{"int32x2", arrow.PrimitiveTypes.Int32, `[1, 2]`, 24, 24},
	}
	for _, c := range cases {
		schema := goldenSchema(nullable("a", listOfElem(c.dt)), nullable("b", arrow.PrimitiveTypes.Int64))
		rec := recordFromJSON(t, mem, schema, `[{"a": `+c.js+`, "b": 7}]`)
		spark, velox := encodeWith(t, Spark, rec).Row(0), encodeWith(t, Velox, rec).Row(0)
		rec.Release()
		sizeOf := func(row []byte) uint32 { return uint32(row[8]) | uint32(row[9])<<8 }
		require.Equal(t, c.sparkLen, sizeOf(spark), c.name)
		require.Equal(t, c.veloxLn, sizeOf(velox), c.name)
		// The row itself is padded the same way in both.
		require.Len(t, velox, len(spark), c.name)
		require.Equal(t, spark[24:], velox[24:], c.name)
		require.Equal(t, []byte{7, 0, 0, 0, 0, 0, 0, 0}, spark[16:24], c.name)
	}
}

// A map's key array is padded in Spark; in Velox an unpadded key array
// moves the value array off 8-byte alignment (spec E3).
func TestEncodeMapValueAlignment(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := goldenSchema(nullable("m", arrow.MapOf(arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int8)))
	rec := recordFromJSON(t, mem, schema, `[{"m": [{"key": 1, "value": 2}, {"key": 3, "value": null}]}]`)
	defer rec.Release()
	spark := goldenBytes(`00000000 00000000  38000000 10000000
		18000000 00000000  02000000 00000000  00000000 00000000  01000300 00000000
		02000000 00000000  02000000 00000000  02000000 00000000`)
	velox := goldenBytes(`00000000 00000000  2e000000 10000000
		14000000 00000000  02000000 00000000  00000000 00000000  01000300
		02000000 00000000  02000000 00000000  0200
		0000`)
	requireBytes(t, spark, encodeWith(t, Spark, rec).Row(0), "spark")
	requireBytes(t, velox, encodeWith(t, Velox, rec).Row(0), "velox")
}

// Spark reserves 16 bytes for every long-decimal struct field, nulls
// included, and keeps the offset in a null's slot; Velox reserves pad8(len)
// and nothing for a null (docs/row-layout.md, "UnsafeRow decimals"). Arrays reserve pad8(len) in both.
func TestEncodeLongDecimalReservation(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dec := &arrow.Decimal128Type{Precision: 20, Scale: 0}
	inner := arrow.StructOf(nullable("x", dec), nullable("y", dec), nullable("z", arrow.BinaryTypes.String))
	schema := goldenSchema(nullable("s", inner), nullable("a", listOfElem(dec)))
	rec := recordFromJSON(t, mem, schema, `[{"s": {"x": null, "y": "-129", "z": "q"}, "a": [null, "128"]}]`)
	defer rec.Release()
	spark := goldenBytes(`
		00000000 00000000  48000000 18000000  28000000 60000000
		01000000 00000000  00000000 20000000  02000000 30000000  01000000 40000000
		00000000 00000000  00000000 00000000
		ff7f0000 00000000  00000000 00000000
		71000000 00000000
		02000000 00000000  01000000 00000000  00000000 00000000  02000000 20000000  00800000 00000000`)
	velox := goldenBytes(`
		00000000 00000000  30000000 18000000  28000000 48000000
		01000000 00000000  00000000 00000000  02000000 20000000  01000000 28000000
		ff7f0000 00000000
		71000000 00000000
		02000000 00000000  01000000 00000000  00000000 00000000  02000000 20000000  00800000 00000000`)
	requireBytes(t, spark, encodeWith(t, Spark, rec).Row(0), "spark")
	requireBytes(t, velox, encodeWith(t, Velox, rec).Row(0), "velox")
}

func TestBigIntegerBytes(t *testing.T) {
	cases := []struct {
		lo   uint64
		hi   int64
		want string
	}{
		{0, 0, "00"}, {127, 0, "7f"}, {128, 0, "0080"}, {math.MaxUint64, -1, "ff"},
		{math.MaxUint64 - 127, -1, "80"}, {math.MaxUint64 - 128, -1, "ff7f"},
		{math.MaxUint64, 0, "00ffffffffffffffff"}, {0, 1, "010000000000000000"},
		{0, math.MinInt64, "80000000000000000000000000000000"},
		{math.MaxUint64, math.MaxInt64, "7fffffffffffffffffffffffffffffff"},
	}
	for _, c := range cases {
		var buf [16]byte
		n := putBigInteger(buf[:], c.lo, c.hi)
		require.Equal(t, c.want, hex.EncodeToString(buf[:n]), "%d:%d", c.hi, c.lo)
		require.Equal(t, n, bigIntegerLen(c.lo, c.hi))
	}
}

// Spark stores every NaN as the canonical quiet NaN; Velox keeps the bits.
func TestEncodeNaN(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := goldenSchema(nullable("f", arrow.PrimitiveTypes.Float32), nullable("d", arrow.PrimitiveTypes.Float64),
		nullable("af", listOfElem(arrow.PrimitiveTypes.Float32)), nullable("ad", listOfElem(arrow.PrimitiveTypes.Float64)))
	nan32 := math.Float32frombits(0xffc00001) // negative NaN with a payload
	nan64 := math.Float64frombits(0x7ff0000000000001)
	fb := array.NewFloat32Builder(mem)
	fb.Append(nan32)
	db := array.NewFloat64Builder(mem)
	db.Append(nan64)
	afb := array.NewListBuilderWithField(mem, schema.Field(2).Type.(*arrow.ListType).ElemField())
	afb.Append(true)
	afb.ValueBuilder().(*array.Float32Builder).AppendValues([]float32{1, nan32}, nil)
	adb := array.NewListBuilderWithField(mem, schema.Field(3).Type.(*arrow.ListType).ElemField())
	adb.Append(true)
	adb.ValueBuilder().(*array.Float64Builder).AppendValues([]float64{nan64, math.Copysign(0, -1)}, nil)
	cols := []arrow.Array{fb.NewArray(), db.NewArray(), afb.NewArray(), adb.NewArray()}
	for _, b := range []array.Builder{fb, db, afb, adb} {
		b.Release()
	}
	rec := array.NewRecordBatch(schema, cols, 1)
	for _, c := range cols {
		c.Release()
	}
	defer rec.Release()
	negZero := "00000000 00000080"
	sparkRow := `00000000 00000000  0000c07f 00000000  000000000000f87f  18000000 28000000  20000000 40000000
		02000000 00000000  00000000 00000000  0000803f 0000c07f
		02000000 00000000  00000000 00000000  000000000000f87f  ` + negZero
	veloxRow := `00000000 00000000  0100c0ff 00000000  01000000 0000f07f  18000000 28000000  20000000 40000000
		02000000 00000000  00000000 00000000  0000803f 0100c0ff
		02000000 00000000  00000000 00000000  01000000 0000f07f  ` + negZero
	requireBytes(t, goldenBytes(sparkRow), encodeWith(t, Spark, rec).Row(0), "spark")
	requireBytes(t, goldenBytes(veloxRow), encodeWith(t, Velox, rec).Row(0), "velox")
}

// A batch that is a slice of a larger one (non-zero offsets at every level
// the slice reaches) encodes exactly like the same rows built on their own.
func TestEncodeSlicedBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := goldenSchema(
		nullable("i", arrow.PrimitiveTypes.Int64),
		nullable("b", arrow.FixedWidthTypes.Boolean),
		nullable("s", arrow.BinaryTypes.String),
		nullable("d", &arrow.Decimal128Type{Precision: 30, Scale: 2}),
		nullable("sd", &arrow.Decimal128Type{Precision: 10, Scale: 2}),
		nullable("a", listOfElem(arrow.PrimitiveTypes.Int16)),
		nullable("m", arrow.MapOf(arrow.BinaryTypes.String, listOfElem(arrow.FixedWidthTypes.Boolean))),
		nullable("st", arrow.StructOf(nullable("x", arrow.PrimitiveTypes.Float32), nullable("y", arrow.BinaryTypes.Binary))),
	)
	var rowsJSON []string
	for i := range 13 {
		var r []string
		add := func(name, v string) { r = append(r, fmt.Sprintf("%q: %s", name, v)) }
		nullIf := func(cond bool, v string) string {
			if cond {
				return "null"
			}
			return v
		}
		add("i", nullIf(i%4 == 1, fmt.Sprint(i*1000003)))
		add("b", nullIf(i%5 == 2, fmt.Sprint(i%2 == 0)))
		add("s", nullIf(i%3 == 0, fmt.Sprintf("%q", strings.Repeat("x", i))))
		add("d", nullIf(i%6 == 5, fmt.Sprintf(`"-%d.%02d"`, i*i*1234567, i)))
		add("sd", nullIf(i%7 == 3, fmt.Sprintf(`"%d.5"`, i)))
		var elems []string
		for j := range i % 4 {
			elems = append(elems, nullIf(j == 1, fmt.Sprint(j-i)))
		}
		add("a", nullIf(i%5 == 4, "["+strings.Join(elems, ",")+"]"))
		var entries []string
		for j := range i % 3 {
			entries = append(entries, fmt.Sprintf(`{"key": "k%d", "value": %s}`, j, nullIf(j == 1, "[true, null, false]")))
		}
		add("m", nullIf(i%4 == 3, "["+strings.Join(entries, ",")+"]"))
		add("st", nullIf(i%5 == 1, fmt.Sprintf(`{"x": %s, "y": %s}`, nullIf(i%2 == 1, "1.25"), nullIf(i%3 == 2, `"AAE="`))))
		rowsJSON = append(rowsJSON, "{"+strings.Join(r, ", ")+"}")
	}
	full := recordFromJSON(t, mem, schema, "["+strings.Join(rowsJSON, ",")+"]")
	defer full.Release()
	for _, fl := range flavors {
		for _, bounds := range [][2]int64{{0, 13}, {3, 11}, {9, 10}, {5, 5}} {
			part := full.NewSlice(bounds[0], bounds[1])
			rows := encodeWith(t, fl, part)
			part.Release()
			for i := range rows.Len() {
				k := int(bounds[0]) + i
				one := recordFromJSON(t, mem, schema, "["+rowsJSON[k]+"]")
				want := encodeWith(t, fl, one).Row(0)
				one.Release()
				requireBytes(t, want, rows.Row(i), fmt.Sprintf("%s slice %v row %d", fl, bounds, k))
			}
		}
	}
}

// Nested arrays that are themselves slices (a struct of sliced children, a
// list over a sliced child) are read at their own offsets.
func TestEncodeNestedSlices(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ints := recordFromJSON(t, mem, goldenSchema(nullable("v", arrow.PrimitiveTypes.Int32)),
		`[{"v": 10}, {"v": null}, {"v": 12}, {"v": 13}, {"v": 14}, {"v": 15}]`)
	defer ints.Release()
	strs := recordFromJSON(t, mem, goldenSchema(nullable("w", arrow.BinaryTypes.String)),
		`[{"w": "a"}, {"w": "bb"}, {"w": null}, {"w": "dddd"}, {"w": "e"}, {"w": "f"}]`)
	defer strs.Release()
	x := array.NewSlice(ints.Column(0), 2, 5) // 12 13 14
	defer x.Release()
	y := array.NewSlice(strs.Column(0), 1, 4) // bb null dddd
	defer y.Release()
	st, err := array.NewStructArray([]arrow.Array{x, y}, []string{"x", "y"})
	require.NoError(t, err)
	defer st.Release()
	// A list over a slice of the int column: [10 null] [12] [] at child offset 1 -> [null 12] [13] [].
	childSlice := array.NewSliceData(ints.Column(0).Data(), 1, 5)
	defer childSlice.Release()
	offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 2, 3, 3}))
	lt := listOfElem(arrow.PrimitiveTypes.Int32)
	ld := array.NewData(lt, 3, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{childSlice}, 0, 0)
	defer ld.Release()
	list := array.MakeFromData(ld)
	defer list.Release()

	schema := goldenSchema(nullable("st", st.DataType()), nullable("l", lt))
	rec := array.NewRecordBatch(schema, []arrow.Array{st, list}, 3)
	defer rec.Release()
	want := recordFromJSON(t, mem, schema, `[
		{"st": {"x": 12, "y": "bb"}, "l": [null, 12]},
		{"st": {"x": 13, "y": null}, "l": [13]},
		{"st": {"x": 14, "y": "dddd"}, "l": []}]`)
	defer want.Release()
	for _, fl := range flavors {
		got, exp := encodeWith(t, fl, rec), encodeWith(t, fl, want)
		require.Equal(t, exp.Offsets, got.Offsets, fl.String())
		requireBytes(t, exp.Data, got.Data, fl.String())
	}
}

func TestEncodeEmptyBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := goldenSchema(nullable("a", arrow.PrimitiveTypes.Int32), nullable("s", arrow.BinaryTypes.String))
	empty := recordFromJSON(t, mem, schema, `[]`)
	defer empty.Release()
	one := recordFromJSON(t, mem, schema, `[{"a": 5, "s": "hi"}]`)
	defer one.Release()
	enc, err := NewEncoder(schema)
	require.NoError(t, err)

	rows, err := enc.Encode(empty)
	require.NoError(t, err)
	require.Equal(t, 0, rows.Len())
	require.Empty(t, rows.Data)

	rows, err = enc.AppendRows(rows, one)
	require.NoError(t, err)
	rows, err = enc.AppendRows(rows, empty)
	require.NoError(t, err)
	require.Equal(t, []int{0, 32}, rows.Offsets)
	requireBytes(t, goldenBytes(`00000000 00000000 05000000 00000000 02000000 18000000 68690000 00000000`), rows.Data, "row")
}

// Zero-field structs are an empty bitset and no slots: 0 bytes, referenced
// by a size-0 word at the current cursor like an empty string.
func TestEncodeZeroFieldStruct(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	empty := arrow.StructOf()
	schema := goldenSchema(nullable("e", empty), nullable("i", arrow.PrimitiveTypes.Int32), nullable("a", listOfElem(empty)))
	rec := recordFromJSON(t, mem, schema, `[{"e": {}, "i": 5, "a": [{}, null]}, {"e": null, "i": 6, "a": null}]`)
	defer rec.Release()
	want := []string{
		`00000000 00000000  00000000 20000000  05000000 00000000  20000000 20000000
		 02000000 00000000  02000000 00000000  00000000 20000000  00000000 00000000`,
		`05000000 00000000  00000000 00000000  06000000 00000000  00000000 00000000`,
	}
	for _, fl := range flavors {
		rows := encodeWith(t, fl, rec)
		for i, w := range want {
			requireBytes(t, goldenBytes(w), rows.Row(i), fmt.Sprintf("%s row %d", fl, i))
		}
	}

	// A schema with no fields at all: every row is zero bytes.
	none := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 3)
	defer none.Release()
	rows := encodeWith(t, Spark, none)
	require.Equal(t, []int{0, 0, 0, 0}, rows.Offsets)
}

// 65 and 130 fields need two and three bitset words; a 65-element array
// needs a two-word element bitset.
func TestEncodeWideRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, nf := range []int{64, 65, 130} {
		fields := make([]arrow.Field, nf)
		vals := make([]string, nf)
		for i := range fields {
			fields[i] = nullable(fmt.Sprintf("f%d", i), arrow.PrimitiveTypes.Int64)
			vals[i] = fmt.Sprintf(`"f%d": %d`, i, i+1)
			if i == 1 || i == 64 || i == 129 {
				vals[i] = fmt.Sprintf(`"f%d": null`, i)
			}
		}
		schema := goldenSchema(fields...)
		rec := recordFromJSON(t, mem, schema, "[{"+strings.Join(vals, ",")+"}]")
		row := encodeWith(t, Spark, rec).Row(0)
		rec.Release()
		words := (nf + 63) / 64
		require.Len(t, row, 8*words+8*nf, "%d fields", nf)
		bitset := make([]byte, 8*words)
		bitset[0] = 2
		if nf > 64 {
			bitset[8] = 1
		}
		if nf > 129 {
			bitset[16] = 2
		}
		require.Equal(t, bitset, row[:8*words], "%d fields", nf)
		for i := range nf {
			slot := row[8*words+8*i : 8*words+8*i+8]
			want := uint64(i + 1)
			if i == 1 || i == 64 || i == 129 {
				want = 0
			}
			require.Equal(t, want, le64(slot), "%d fields, field %d", nf, i)
		}
	}

	elems := make([]string, 65)
	for i := range elems {
		elems[i] = fmt.Sprint(i)
	}
	elems[64] = "null"
	schema := goldenSchema(nullable("a", listOfElem(arrow.PrimitiveTypes.Int8)))
	rec := recordFromJSON(t, mem, schema, `[{"a": [`+strings.Join(elems, ",")+`]}]`)
	defer rec.Release()
	for _, fl := range flavors {
		row := encodeWith(t, fl, rec).Row(0)
		size := 8 + 16 + 65
		if fl == Spark {
			size = padTo8(size)
		}
		require.Equal(t, uint64(16)<<32|uint64(size), le64(row[8:16]), fl.String())
		arr := row[16:]
		require.Equal(t, uint64(65), le64(arr))
		require.Equal(t, uint64(0), le64(arr[8:]))
		require.Equal(t, uint64(1), le64(arr[16:]))
		require.Equal(t, byte(63), arr[24+63])
		require.Equal(t, byte(0), arr[24+64])
		require.Len(t, row, 16+padTo8(8+16+65), fl.String())
	}
}

func le64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func TestEncodeErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	// Types producers write are converted (internal/arrowconv); those
	// without a row-format counterpart are refused, naming the field.
	_, err := NewEncoder(goldenSchema(nullable("t", arrow.FixedWidthTypes.Time32ms)))
	require.ErrorIs(t, err, rowbridge.ErrUnsupportedType)
	require.ErrorContains(t, err, "field t")
	_, err = NewEncoder(goldenSchema(nullable("l", arrow.ListOf(arrow.FixedWidthTypes.MonthInterval))))
	require.ErrorIs(t, err, rowbridge.ErrUnsupportedType)
	require.ErrorContains(t, err, "field l.item")

	// A short decimal whose unscaled value needs more than 64 bits (built
	// with a builder: decimal parsing would reject it against the precision).
	dec18 := &arrow.Decimal128Type{Precision: 18, Scale: 0}
	schema := goldenSchema(nullable("s", arrow.StructOf(nullable("d", dec18))), nullable("d", dec18))
	sb := array.NewStructBuilder(mem, schema.Field(0).Type.(*arrow.StructType))
	defer sb.Release()
	db := array.NewDecimal128Builder(mem, dec18)
	defer db.Release()
	inner := sb.FieldBuilder(0).(*array.Decimal128Builder)
	for _, v := range []struct{ s, d decimal128.Num }{
		{decimal128.FromI64(1), decimal128.FromI64(math.MinInt64)}, // beyond precision 18, within int64
		{decimal128.FromI64(2), decimal128.New(0, 1<<63)},          // 2^63
		{decimal128.New(-2, 0), decimal128.FromI64(3)},             // -2^65
	} {
		sb.Append(true)
		inner.Append(v.s)
		db.Append(v.d)
	}
	sarr, darr := sb.NewArray(), db.NewArray()
	rec := array.NewRecordBatch(schema, []arrow.Array{sarr, darr}, 3)
	sarr.Release()
	darr.Release()
	defer rec.Release()
	enc, err := NewEncoder(schema)
	require.NoError(t, err)
	prior := rowbridge.Rows{Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}, Offsets: []int{0, 8}}
	got, err := enc.AppendRows(prior, rec)
	var ee *rowbridge.EncodeError
	require.ErrorAs(t, err, &ee)
	require.ErrorIs(t, err, rowbridge.ErrValue)
	require.Equal(t, 2, ee.Row) // columns are written in order: s.d fails first
	require.Equal(t, "s.d", ee.Field)
	require.Equal(t, []int{0, 8}, got.Offsets, "dst rolled back")
	require.Equal(t, []byte{1, 2, 3, 4, 5, 6, 7, 8}, got.Data)
	two := rec.NewSlice(0, 2)
	_, err = enc.Encode(two)
	two.Release()
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 0, ee.Row) // MinInt64 fits int64 but not precision 18
	require.Equal(t, "d", ee.Field)
	// The value is printed whole on 32-bit platforms too (Num.BigInt is not).
	require.ErrorContains(t, err, "unscaled value -9223372036854775808 exceeds decimal precision 18")
	one := rec.NewSlice(1, 2)
	_, err = enc.Encode(one)
	one.Release()
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 0, ee.Row)
	require.Equal(t, "d", ee.Field) // 2^63 does not fit int64
	require.ErrorContains(t, err, "unscaled value 9223372036854775808 exceeds")

	// A long decimal beyond its precision fails too, in both flavours.
	dec20 := &arrow.Decimal128Type{Precision: 20, Scale: 0}
	lschema := goldenSchema(nullable("l", dec20))
	lb := array.NewDecimal128Builder(mem, dec20)
	lb.Append(decimal128.GetScaleMultiplier(19)) // 10^19: fits
	lb.Append(decimal128.GetScaleMultiplier(20)) // 10^20: does not
	larr := lb.NewArray()
	lb.Release()
	lrec := array.NewRecordBatch(lschema, []arrow.Array{larr}, 2)
	larr.Release()
	defer lrec.Release()
	for _, fl := range []Flavor{Spark, Velox} {
		lenc, err := NewEncoder(lschema, WithFlavor(fl))
		require.NoError(t, err)
		_, err = lenc.Encode(lrec)
		require.ErrorAs(t, err, &ee, fl.String())
		require.ErrorIs(t, err, rowbridge.ErrValue)
		require.Equal(t, 1, ee.Row)
		require.Equal(t, "l", ee.Field)
		require.ErrorContains(t, err, "unscaled value 100000000000000000000 exceeds decimal precision 20")
	}

	// A null map key. arrow-go refuses to build such a map, so bind the
	// key and value arrays straight into a map view.
	mt := arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32)
	keys := recordFromJSON(t, mem, goldenSchema(nullable("k", arrow.PrimitiveTypes.Int32)), `[{"k": 1}, {"k": null}]`)
	defer keys.Release()
	mrec := recordFromJSON(t, mem, goldenSchema(nullable("m", mt)), `[{"m": []}, {"m": [{"key": 1, "value": 1}, {"key": 2, "value": 2}]}]`)
	defer mrec.Release()
	node, err := columnar.NewNode(mt, "m")
	require.NoError(t, err)
	mv := newEncView(newEncField(node, Spark))
	mv.bind(mrec.Column(0).Data())
	w := encWalker{spark: true, row: 1}
	require.Equal(t, 8+24+24, w.valueSize(&mv, 1))
	require.NoError(t, w.err)
	mv.kids[0].bind(keys.Column(0).Data())
	w.valueSize(&mv, 1)
	require.ErrorAs(t, w.err, &ee)
	require.ErrorIs(t, w.err, rowbridge.ErrValue)
	require.Equal(t, 1, ee.Row)
	require.Equal(t, "m.key", ee.Field)

	// A batch of another schema.
	_, err = enc.Encode(mrec)
	require.Error(t, err)
	other := recordFromJSON(t, mem, goldenSchema(nullable("s", arrow.PrimitiveTypes.Int32), nullable("d", arrow.PrimitiveTypes.Int32)), `[]`)
	defer other.Release()
	_, err = enc.Encode(other)
	require.Error(t, err)

	_, err = enc.AppendRows(rowbridge.Rows{Data: make([]byte, 8), Offsets: []int{0}}, rec)
	require.Error(t, err, "dst.Offsets not ending at len(Data)")
	_, err = NewEncoder(schema, WithFlavor(Flavor(7)))
	require.Error(t, err)
}

// One encoder, many goroutines sharing one sliced batch (offset > 0, so
// every array's null count starts unknown): every result equals the serial
// encoding of an identical slice, in both flavours. Run with -race: reading
// a sliced array's null count must not store it into the shared array.
func TestEncodeConcurrent(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewSource(5))
	for _, shape := range []string{"deepNesting", "allPrimitives", "mapKeysOfEveryKind", "notNull"} {
		var sh testgen.Shape
		for _, s := range testgen.Shapes() {
			if s.Name == shape {
				sh = s
			}
		}
		require.NotNil(t, sh.Schema, shape)
		full := testgen.RandomBatch(mem, r, sh.Schema, 60, sh.BatchOptions...)
		for _, fl := range flavors {
			t.Run(shape+"/"+fl.String(), func(t *testing.T) {
				skipArrowDecimals(t, sh.Schema)
				enc, err := NewEncoder(full.Schema(), WithFlavor(fl))
				require.NoError(t, err)
				serial := full.NewSlice(7, 51)
				defer serial.Release()
				want, err := enc.Encode(serial)
				require.NoError(t, err)
				shared := full.NewSlice(7, 51) // fresh arrays: null counts unknown
				defer shared.Release()
				var wg sync.WaitGroup
				errs := make(chan error, 4)
				for range 4 {
					wg.Go(func() {
						var rows rowbridge.Rows
						for range 20 {
							rows.Reset()
							var err error
							if rows, err = enc.AppendRows(rows, shared); err != nil {
								errs <- err
								return
							}
							if string(rows.Data) != string(want.Data) {
								errs <- errors.New("concurrent encode differs")
								return
							}
						}
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					t.Fatal(err)
				}
			})
		}
		full.Release()
	}
}

// AppendRows into a reused Rows allocates nothing once warm.
func TestAppendRowsReuseAllocs(t *testing.T) {
	if testgen.RaceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, g := range goldenRows {
		func() {
			rec := goldenRecord(t, mem, g)
			defer rec.Release()
			enc, err := NewEncoder(rec.Schema())
			require.NoError(t, err)
			var rows rowbridge.Rows
			allocs := testing.AllocsPerRun(50, func() {
				rows.Reset()
				rows, err = enc.AppendRows(rows, rec)
			})
			require.NoError(t, err)
			require.Zero(t, allocs, g.name)
		}()
	}
}
