package compactrow

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// requireDecodeError decodes rows and checks the error is the DecodeError
// wrapping sentinel at (row, field, offset).
func requireDecodeError(t *testing.T, schema *arrow.Schema, rows []string, sentinel error, row int, field string, offset int) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dec, err := NewDecoder(schema, WithAllocator(mem))
	require.NoError(t, err)
	bs := make([][]byte, len(rows))
	for i, h := range rows {
		bs[i] = unhex(t, h)
	}
	rec, err := dec.Decode(bs)
	require.Nil(t, rec)
	require.ErrorIs(t, err, sentinel)
	var de *rowbridge.DecodeError
	require.True(t, errors.As(err, &de), "%T %v", err, err)
	require.Equal(t, row, de.Row, "%v", err)
	require.Equal(t, field, de.Field, "%v", err)
	require.Equal(t, offset, de.Offset, "%v", err)
}

var schemaStrings = fields(nf("s", arrow.BinaryTypes.String))

// Strings are checked on the copied column; values that are invalid alone
// but valid joined ("\xe2\x82" then "\xac" make "€") are still caught.
func TestDecodeUTF8SplitAcrossValues(t *testing.T) {
	requireDecodeError(t, schemaStrings, []string{"00 02000000 e282", "00 01000000 ac"}, rowbridge.ErrUTF8, 0, "s", 1)
	requireDecodeError(t, schemaStrings, []string{"00 02000000 6162", "00 01000000 ac", "00 01000000 ff"}, rowbridge.ErrUTF8, 1, "s", 1)
	// Elements of one array, then a map's keys and values.
	requireDecodeError(t, fields(nf("a", arrow.ListOf(arrow.BinaryTypes.String))),
		[]string{"00 02000000 00 02000000 e282 01000000 ac"}, rowbridge.ErrUTF8, 0, "a.item", 6)
	requireDecodeError(t, fields(nf("m", arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String))),
		[]string{"00 01000000 00 01000000 61 01000000 00 01000000 61", "00 01000000 00 01000000 62 01000000 00 01000000 80"},
		rowbridge.ErrUTF8, 1, "m.value", 16)
}

// The error is the first fault in row order, and within a row in the order
// the row is read, whether the fault is in the layout or in a value.
func TestDecodeFirstFault(t *testing.T) {
	// A bad string in row 0 comes before a truncated row 1.
	requireDecodeError(t, schemaE1, []string{"04 01000000 01000000 ff 0000000000000000", "00 0100"},
		rowbridge.ErrUTF8, 0, "s", 5)
	// Within a row: a bad string before a truncated field after it ...
	requireDecodeError(t, schemaE1, []string{"00 01000000 01000000 ff 000000"}, rowbridge.ErrUTF8, 0, "s", 5)
	// ... and before trailing bytes, but after a NOT NULL flag read earlier.
	requireDecodeError(t, schemaE1, []string{"00 01000000 01000000 ff 0000000000000000 00"}, rowbridge.ErrUTF8, 0, "s", 5)
	notNullB := arrow.NewSchema([]arrow.Field{nf("i", arrow.PrimitiveTypes.Int32), nf("s", arrow.BinaryTypes.String),
		{Name: "b", Type: arrow.PrimitiveTypes.Int64}}, nil)
	// The flag of b is read with s's field, before s's bytes.
	requireDecodeError(t, notNullB, []string{"04 01000000 01000000 ff 0000000000000000"}, rowbridge.ErrUTF8, 0, "s", 5)
	// A good string, then a bad layout: the layout error.
	requireDecodeError(t, schemaE1, []string{"00 01000000 01000000 61 000000"}, rowbridge.ErrTruncated, 0, "b", 10)
}

var schemaFixed = arrow.NewSchema([]arrow.Field{nf("a", arrow.PrimitiveTypes.Int64), nf("b", arrow.FixedWidthTypes.Boolean),
	{Name: "c", Type: arrow.PrimitiveTypes.Int16}}, nil)

// Rows whose fields are all fixed-width are checked for their size and
// their null flags only; the faults are those the field walk reports.
func TestDecodeFixedRows(t *testing.T) {
	good := "02 0100000000000000 00 0700"
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dec, err := NewDecoder(schemaFixed, WithAllocator(mem))
	require.NoError(t, err)
	rec, err := dec.Decode([][]byte{unhex(t, good), unhex(t, "00 ffffffffffffffff 01 0800")})
	require.NoError(t, err)
	validateBatch(t, rec)
	want := fromJSON(t, mem, schemaFixed, `[{"a":1,"b":null,"c":7},{"a":-1,"b":true,"c":8}]`)
	requireSameBatch(t, want, rec)
	want.Release()
	rec.Release()

	requireDecodeError(t, schemaFixed, []string{good, "00 0100000000000000 00 07"}, rowbridge.ErrTruncated, 1, "c", 10)
	requireDecodeError(t, schemaFixed, []string{good, "00 01"}, rowbridge.ErrTruncated, 1, "a", 1)
	requireDecodeError(t, schemaFixed, []string{good, ""}, rowbridge.ErrTruncated, 1, "", 0)
	requireDecodeError(t, schemaFixed, []string{good, "00 0100000000000000 00 0700 00"}, rowbridge.ErrLayout, 1, "", 12)
	requireDecodeError(t, schemaFixed, []string{good, "04 0100000000000000 00 0700"}, rowbridge.ErrLayout, 1, "c", 0)
	// A short row is walked field by field: a's missing bytes come before c's flag.
	requireDecodeError(t, schemaFixed, []string{good, "04 01"}, rowbridge.ErrTruncated, 1, "a", 1)
}

// The leading fixed-width fields of a struct are located from the struct,
// in rows and in arrays, with nulls at both levels.
func TestDecodeStructPrefix(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	st := arrow.StructOf(nf("x", arrow.PrimitiveTypes.Int32), nf("y", arrow.FixedWidthTypes.Boolean),
		nf("z", arrow.BinaryTypes.String), nf("w", arrow.PrimitiveTypes.Int16))
	schema := fields(nf("s", st), nf("l", arrow.ListOf(st)))
	rec := fromJSON(t, mem, schema, `[
		{"s":{"x":1,"y":true,"z":"a","w":2},"l":[{"x":3,"y":false,"z":null,"w":null},null,{"x":null,"y":null,"z":"b","w":4}]},
		{"s":null,"l":null},
		{"s":{"x":null,"y":false,"z":null,"w":5},"l":[]}]`)
	defer rec.Release()
	roundTrip(t, mem, rec)

	requireDecodeError(t, fields(nf("s", arrow.StructOf(nf("x", arrow.PrimitiveTypes.Int32),
		arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Int32}))), []string{"00 02 00000000 00000000"},
		rowbridge.ErrLayout, 0, "s.y", 1)
	requireDecodeError(t, fields(nf("s", st)), []string{"00 00 01000000 01 0300"}, rowbridge.ErrTruncated, 0, "s.z", 7)
	requireDecodeError(t, fields(nf("s", st)), []string{"00 00 01000000"}, rowbridge.ErrTruncated, 0, "s.y", 6)
}

var (
	dec52  = &arrow.Decimal128Type{Precision: 5, Scale: 2}
	dec200 = &arrow.Decimal128Type{Precision: 20, Scale: 0}
)

// Decimals whose unscaled value has more digits than the precision are
// rejected wherever they sit, as the UnsafeRow decoder rejects them.
func TestDecodeDecimalPrecision(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	// ±(10^p - 1) is the widest value that fits.
	for _, tc := range []struct {
		schema *arrow.Schema
		rows   []string
		want   string
	}{
		{fields(nf("a", dec52)), []string{"00 9f86010000000000", "00 6179feffffffffff"}, `[{"a":"999.99"},{"a":"-999.99"}]`},
		{fields(nf("d", dec200)), []string{"00 ffff0f632d5ec76b 0500000000000000"}, `[{"d":"99999999999999999999"}]`},
		// A null element's slot is not a value, whatever its bytes.
		{fields(nf("l", arrow.ListOf(dec52))), []string{"00 02000000 02 0100000000000000 a086010000000000"}, `[{"l":["0.01",null]}]`},
		{fields(nf("l", arrow.ListOf(dec200))), []string{"00 02000000 02 01000000000000000000000000000000 000010632d5ec76b0500000000000000"}, `[{"l":["1",null]}]`},
		{fields(nf("m", arrow.MapOf(arrow.PrimitiveTypes.Int32, dec52))), []string{"00 01000000 00 07000000 01000000 01 a086010000000000"}, `[{"m":[{"key":7,"value":null}]}]`},
	} {
		dec, err := NewDecoder(tc.schema, WithAllocator(mem))
		require.NoError(t, err)
		bs := make([][]byte, len(tc.rows))
		for i, h := range tc.rows {
			bs[i] = unhex(t, h)
		}
		rec, err := dec.Decode(bs)
		require.NoError(t, err)
		validateBatch(t, rec)
		if !decimalsBroken(tc.schema) { // arrowGoDecimals32: the JSON want is wrong
			want := fromJSON(t, mem, tc.schema, tc.want)
			requireSameBatch(t, want, rec)
			want.Release()
		}
		rec.Release()
	}

	bad := "a086010000000000" // 100000 for DECIMAL(5,2)
	for _, tc := range []struct {
		name   string
		schema *arrow.Schema
		rows   []string
		field  string
		offset int
	}{
		{"row prefix", fields(nf("a", dec52)), []string{"00 " + bad}, "a", 1},
		{"negative", fields(nf("a", dec52)), []string{"00 6079feffffffffff"}, "a", 1},
		{"long", fields(nf("d", dec200)), []string{"00 000010632d5ec76b 0500000000000000"}, "d", 1},
		{"long minimum", fields(nf("d", dec200)), []string{"00 0000000000000000 0000000000000080"}, "d", 1},
		{"struct prefix", fields(nf("s", arrow.StructOf(nf("x", dec52)))), []string{"00 00 " + bad}, "s.x", 2},
		{"after a string", fields(nf("t", arrow.BinaryTypes.String), nf("b", dec52)), []string{"00 01000000 61 " + bad}, "b", 6},
		{"array element", fields(nf("l", arrow.ListOf(dec52))), []string{"00 02000000 00 0100000000000000 " + bad}, "l.item", 14},
		{"map key", fields(nf("m", arrow.MapOf(dec200, arrow.PrimitiveTypes.Int32))),
			[]string{"00 01000000 00 000010632d5ec76b0500000000000000 01000000 00 07000000"}, "m.key", 6},
		{"array of arrays", fields(nf("a", arrow.ListOf(arrow.ListOf(dec52)))),
			[]string{"00 01000000 00 11000000 04000000 01000000 00 " + bad}, "a.item.item", 19},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requireDecodeError(t, tc.schema, tc.rows, rowbridge.ErrDecimal, 0, tc.field, tc.offset)
		})
	}
	// The message names the value, on 32-bit machines too.
	for _, tc := range []struct{ row, value string }{
		{"00 000010632d5ec76b 0500000000000000", "100000000000000000000"},
		{"00 0000000000000000 0000000000000080", "-170141183460469231731687303715884105728"},
		{"00 0000f09cd2a13894 faffffffffffffff", "-100000000000000000000"},
	} {
		dec, err := NewDecoder(fields(nf("d", dec200)))
		require.NoError(t, err)
		_, err = dec.Decode([][]byte{unhex(t, tc.row)})
		require.ErrorContains(t, err, "unscaled value "+tc.value+" exceeds")
	}
}

// Decimal faults take their place in the order of faults: rows first, then
// the order the row is read.
func TestDecodeDecimalFirstFault(t *testing.T) {
	bad, one := "a086010000000000", "0100000000000000"
	two := fields(nf("a", dec52), nf("b", dec52))
	requireDecodeError(t, two, []string{"00 " + one + bad, "00 " + bad + one}, rowbridge.ErrDecimal, 0, "b", 9)
	// Before a truncated row and before a fault later in the row.
	after := fields(nf("t", arrow.BinaryTypes.String), nf("b", dec52))
	requireDecodeError(t, after, []string{"00 01000000 61 " + bad, "00 0100"}, rowbridge.ErrDecimal, 0, "b", 6)
	requireDecodeError(t, fields(nf("a", dec52), nf("t", arrow.BinaryTypes.String)), []string{"00 " + bad + " 05000000 61"},
		rowbridge.ErrDecimal, 0, "a", 1)
	// Against strings, by position in the row.
	requireDecodeError(t, fields(nf("a", dec52), nf("s", arrow.BinaryTypes.String)), []string{"00 " + bad + " 01000000 ff"},
		rowbridge.ErrDecimal, 0, "a", 1)
	requireDecodeError(t, fields(nf("s", arrow.BinaryTypes.String), nf("a", dec52)), []string{"00 01000000 ff " + bad},
		rowbridge.ErrUTF8, 0, "s", 1)
	// A NOT NULL flag is read with its field: after the decimal before it,
	// before the decimal after it.
	x := arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32}
	requireDecodeError(t, arrow.NewSchema([]arrow.Field{x, nf("b", dec52)}, nil), []string{"01 00000000 " + bad},
		rowbridge.ErrLayout, 0, "x", 0)
	requireDecodeError(t, arrow.NewSchema([]arrow.Field{nf("b", dec52), x}, nil), []string{"02 " + bad + " 00000000"},
		rowbridge.ErrDecimal, 0, "b", 1)
}

// Null flags of fixed-width arrays are counted a word at a time for up to
// 63 elements and byte by byte beyond; unused bits of the last flag byte
// are ignored either way. Every length and element width around those
// limits decodes to what was encoded.
func TestDecodeArrayNullCounts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64} {
		schema := fields(nf("a", arrow.ListOf(dt)), nf("b", arrow.PrimitiveTypes.Int8))
		enc, err := NewEncoder(schema)
		require.NoError(t, err)
		dec, err := NewDecoder(schema, WithAllocator(mem))
		require.NoError(t, err)
		for n := range 70 {
			js := "["
			for j := range n {
				if j > 0 {
					js += ","
				}
				if j%3 == 1 || j%7 == 0 {
					js += "null"
				} else {
					js += "1"
				}
			}
			want := fromJSON(t, mem, schema, `[{"a":`+js+`],"b":5},{"a":[],"b":6}]`)
			rows, err := enc.Encode(want)
			require.NoError(t, err)
			bs := rows.Slices()
			if n%8 != 0 { // set the unused bits of the last flag byte
				bs[0][4+nullBytes(n)] |= 0xff << (n % 8)
			}
			got, err := dec.Decode(bs)
			require.NoError(t, err, "%s, %d elements", dt, n)
			validateBatch(t, got)
			requireSameBatch(t, want, got)
			require.Equal(t, want.Column(0).(*array.List).ListValues().NullN(), got.Column(0).(*array.List).ListValues().NullN())
			got.Release()
			want.Release()
		}
	}
}

// Arrays of arrays of at most one 8-byte element take a path without a
// branch on the inner length; empty inner arrays, also after the last
// element, leave every element in place.
func TestDecodeArraysOfShortArrays(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	long := "[" + strings.Repeat("9,", 69) + "10]" // past the one-word flags of the fast scan
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64,
		arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int32} {
		schema := fields(nf("a", arrow.ListOf(arrow.ListOf(dt))))
		for _, js := range []string{
			`[{"a":[[1],[],[2],[]]},{"a":[[],[]]},{"a":[[3]]},{"a":[[]]}]`,
			`[{"a":[[]]},{"a":[[4],[5,6],[],[7]]},{"a":null},{"a":[[],[8],[]]}]`,
			`[{"a":[[],[]]},{"a":[]}]`,
			`[{"a":[[1],[2,null],[3]]},{"a":[[4],null,[5]]},{"a":[[null]]},{"a":[[6]]}]`,
			`[{"a":[[1],` + long + `,[2],[3,4,5]]},{"a":[]},{"a":[[6],[7]]}]`,
			`[{"a":[]},{"a":[[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20],[1]]}]`,
		} {
			rec := fromJSON(t, mem, schema, js)
			roundTrip(t, mem, rec)
			rec.Release()
		}
	}
}

// Flat rows (a fixed prefix, then strings and arrays of fixed-width
// elements) take a scan loop of their own; a row it leaves half-way (here
// at a null array element or a null field) goes to the general scan, and
// what the loop recorded of it is taken back: the string data is exactly
// the bytes of the values.
func TestDecodeFlatRowsLeftHalfWay(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := fields(nf("i", arrow.PrimitiveTypes.Int64), nf("s", arrow.BinaryTypes.String),
		nf("a", arrow.ListOf(arrow.PrimitiveTypes.Int32)), nf("t", arrow.BinaryTypes.String))
	rec := fromJSON(t, mem, schema, `[
		{"i":1,"s":"ab","a":[1,2],"t":"x"},
		{"i":2,"s":"cde","a":[3,null],"t":"yz"},
		{"i":3,"s":"f","a":[4],"t":null},
		{"i":null,"s":"gh","a":[],"t":"w"},
		{"i":5,"s":"ij","a":[5,6,7],"t":""}]`)
	defer rec.Release()
	enc, err := NewEncoder(schema)
	require.NoError(t, err)
	rows, err := enc.Encode(rec)
	require.NoError(t, err)
	dec, err := NewDecoder(schema, WithAllocator(mem))
	require.NoError(t, err)
	got, err := dec.Decode(rows.Slices())
	require.NoError(t, err)
	defer got.Release()
	validateBatch(t, got)
	requireSameBatch(t, rec, got)
	require.Len(t, got.Column(1).Data().Buffers()[2].Bytes(), len("abcdefghij"))
	require.Len(t, got.Column(3).Data().Buffers()[2].Bytes(), len("xyzw"))
	require.Equal(t, 8, got.Column(2).(*array.List).ListValues().Len())
}

// Top-level strings are copied in 16-, 8- and 4-byte moves that overlap
// at the end: every length from 0 to 100 keeps its bytes, into dirty
// buffers.
func TestDecodeStringLengths(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer checked.AssertSize(t, 0)
	mem := testgen.DirtyAllocator(checked)
	schema := fields(nf("s", arrow.BinaryTypes.String), nf("b", arrow.BinaryTypes.Binary))
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for n := range 101 {
		v := make([]byte, n)
		for i := range v {
			v[i] = byte('a' + (n+i)%26)
		}
		b.Field(0).(*array.StringBuilder).Append(string(v))
		b.Field(1).(*array.BinaryBuilder).Append(v)
		if n%5 == 0 {
			b.Field(0).AppendNull()
			b.Field(1).AppendNull()
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	roundTrip(t, mem, rec)
}

// Maps of fixed-width keys and values are flat too: rows left half-way
// (a null value, a null map) keep keys and values aligned with their maps.
func TestDecodeFlatMapsLeftHalfWay(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := fields(nf("i", arrow.PrimitiveTypes.Int64), nf("s", arrow.BinaryTypes.String),
		nf("m", arrow.MapOf(arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float32)),
		nf("a", arrow.ListOf(arrow.PrimitiveTypes.Int16)))
	rec := fromJSON(t, mem, schema, `[
		{"i":1,"s":"ab","m":[{"key":1,"value":1.5},{"key":2,"value":2.5}],"a":[1]},
		{"i":2,"s":"c","m":[{"key":3,"value":null}],"a":[2]},
		{"i":3,"s":"d","m":[{"key":4,"value":4.5}],"a":[3,null]},
		{"i":4,"s":"e","m":null,"a":[]},
		{"i":5,"s":"f","m":[],"a":[4]},
		{"i":6,"s":"g","m":[{"key":5,"value":5.5}],"a":null}]`)
	defer rec.Release()
	roundTrip(t, mem, rec)

	// A value count that differs from the key count is still named.
	enc, err := NewEncoder(schema)
	require.NoError(t, err)
	rows, err := enc.Encode(rec)
	require.NoError(t, err)
	bs := rows.Slices()
	at := 1 + 8 + 4 + 1 + 4 + 1 + 8 // the value count of row 2's map
	bs[2][at]++
	dec, err := NewDecoder(schema, WithAllocator(mem))
	require.NoError(t, err)
	got, err := dec.Decode(bs)
	require.Nil(t, got)
	require.ErrorIs(t, err, rowbridge.ErrCount)
	var de *rowbridge.DecodeError
	require.True(t, errors.As(err, &de))
	require.Equal(t, 2, de.Row)
	require.Equal(t, "m.value", de.Field)
	require.Equal(t, at, de.Offset)
}

// Arrays of arrays of fixed-width elements are flat too; a row left
// half-way after one (at a null element of the next field) takes back its
// inner arrays and their elements.
func TestDecodeFlatListsLeftHalfWay(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := fields(nf("i", arrow.PrimitiveTypes.Int64),
		nf("l", arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int64))),
		nf("a", arrow.ListOf(arrow.PrimitiveTypes.Int32)))
	rec := fromJSON(t, mem, schema, `[
		{"i":1,"l":[[1],[],[2,3]],"a":[1]},
		{"i":2,"l":[[4],[5]],"a":[2,null]},
		{"i":3,"l":[[6,null],[7]],"a":[3]},
		{"i":4,"l":[[8],null],"a":[]},
		{"i":5,"l":[],"a":[4]},
		{"i":6,"l":null,"a":[5]},
		{"i":7,"l":[[],[9]],"a":[6]}]`)
	defer rec.Release()
	roundTrip(t, mem, rec)

	// Unused bits set in the last flag byte of row 0's outer array (3
	// elements) are ignored, by the general scan the row then goes to.
	enc, err := NewEncoder(schema)
	require.NoError(t, err)
	rows, err := enc.Encode(rec)
	require.NoError(t, err)
	bs := rows.Slices()
	bs[0][1+8+4] |= 0xf8
	dec, err := NewDecoder(schema, WithAllocator(mem))
	require.NoError(t, err)
	got, err := dec.Decode(bs)
	require.NoError(t, err)
	defer got.Release()
	validateBatch(t, got)
	requireSameBatch(t, rec, got)
}

// Structs of fixed-width fields are flat too: a null field in one, or a
// null struct, sends the row to the general scan, also half-way through.
func TestDecodeFlatStructsLeftHalfWay(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := fields(nf("i", arrow.PrimitiveTypes.Int64),
		nf("s", arrow.StructOf(nf("a", arrow.PrimitiveTypes.Int64), nf("b", arrow.FixedWidthTypes.Boolean))),
		nf("a", arrow.ListOf(arrow.PrimitiveTypes.Int32)))
	rec := fromJSON(t, mem, schema, `[
		{"i":1,"s":{"a":1,"b":true},"a":[1]},
		{"i":2,"s":{"a":null,"b":false},"a":[2]},
		{"i":3,"s":{"a":3,"b":true},"a":[3,null]},
		{"i":4,"s":null,"a":[]},
		{"i":5,"s":{"a":5,"b":null},"a":[4]},
		{"i":6,"s":{"a":6,"b":false},"a":null}]`)
	defer rec.Release()
	roundTrip(t, mem, rec)
}
