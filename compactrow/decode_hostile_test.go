package compactrow

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

var (
	schemaE1 = fields(nf("i", arrow.PrimitiveTypes.Int32), nf("s", arrow.BinaryTypes.String), nf("b", arrow.PrimitiveTypes.Int64))
	schemaE2 = fields(nf("a", arrow.ListOf(arrow.PrimitiveTypes.Int32)))
	schemaE3 = fields(nf("m", arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String)))
	schemaE4 = fields(nf("d", &arrow.Decimal128Type{Precision: 38, Scale: 10}))
	schemaE5 = fields(nf("m", arrow.MapOf(arrow.PrimitiveTypes.Int32,
		arrow.StructOf(nf("a", arrow.ListOf(arrow.PrimitiveTypes.Int32)), nf("b", arrow.PrimitiveTypes.Int32)))))
	schemaE8      = fields(nf("a", arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32))))
	schemaUnknown = fields(nf("u", arrow.ListOf(arrow.Null)), nf("i", arrow.PrimitiveTypes.Int32))
	schemaStruct  = fields(nf("s", arrow.StructOf(nf("a", arrow.PrimitiveTypes.Int32), nf("b", arrow.BinaryTypes.String))))
	schemaStructs = fields(nf("a", arrow.ListOf(arrow.StructOf(nf("x", arrow.BinaryTypes.String)))))
	schemaBools   = fields(nf("a", arrow.ListOf(arrow.FixedWidthTypes.Boolean)), nf("b", arrow.FixedWidthTypes.Boolean))
	schemaBigints = fields(nf("a", arrow.ListOf(arrow.PrimitiveTypes.Int64)))
	schemaLongs   = fields(nf("a", arrow.ListOf(&arrow.Decimal128Type{Precision: 38})))
	schemaTexts   = fields(nf("a", arrow.ListOf(arrow.BinaryTypes.String)))
)

const (
	rowE3 = "00 03000000 00 01000000 02000000 03000000 03000000 02 01000000 61 03000000 78797a"
	rowE5 = "00 02000000 00 01000000 02000000 02000000 01 16000000 00000000 08000000 00 01000000 00 07000000 05000000"
	rowE8 = "00 03000000 00 33000000 0c000000 1d000000 2a000000 03000000 00 01000000 02000000 03000000 02000000 00 04000000 05000000 01000000 00 06000000"
)

// Each bad row is decoded as row 1 after a valid row 0 of the same schema.
var hostileCases = []struct {
	name   string
	schema *arrow.Schema
	good   string
	bad    string
	err    error
	field  string
	offset int
}{
	{"empty row", schemaE1, "04 01000000 00000000 0000000000000000", "", rowbridge.ErrTruncated, "", 0},
	{"string length missing", schemaE1, "04 01000000 00000000 0000000000000000", "00 01000000", rowbridge.ErrTruncated, "s", 5},
	{"string length past row", schemaE1, "04 01000000 00000000 0000000000000000", "00 01000000 05000000 616263", rowbridge.ErrOutOfBounds, "s", 5},
	{"string length negative", schemaE1, "04 01000000 00000000 0000000000000000", "00 01000000 ffffffff 0000000000000000", rowbridge.ErrOutOfBounds, "s", 5},
	{"string length huge", schemaE1, "04 01000000 00000000 0000000000000000", "00 01000000 ffffff7f 0000000000000000", rowbridge.ErrOutOfBounds, "s", 5},
	{"bigint truncated", schemaE1, "04 01000000 00000000 0000000000000000", "00 01000000 00000000 000000", rowbridge.ErrTruncated, "b", 9},
	{"null int truncated", schemaE1, "04 01000000 00000000 0000000000000000", "07 0000", rowbridge.ErrTruncated, "i", 1},
	{"trailing byte", schemaE1, "04 01000000 00000000 0000000000000000", "04 01000000 03000000 616263 0000000000000000 00", rowbridge.ErrLayout, "", 20},
	{"invalid utf8", schemaE1, "04 01000000 00000000 0000000000000000", "04 01000000 02000000 c328 0000000000000000", rowbridge.ErrUTF8, "s", 5},
	{"array count negative", schemaE2, "00 00000000", "00 ffffffff", rowbridge.ErrCount, "a", 1},
	{"array count huge", schemaE2, "00 00000000", "00 ffffff7f 00", rowbridge.ErrCount, "a", 1},
	{"array body short", schemaE2, "00 00000000", "00 03000000 00 01000000", rowbridge.ErrCount, "a", 1},
	{"array count truncated", schemaE2, "00 00000000", "00 0300", rowbridge.ErrTruncated, "a", 1},
	{"serializedSize past row", schemaE8, rowE8, "00 03000000 00 34000000 0c000000 1d000000 2a000000 03000000 00 01000000 02000000 03000000 02000000 00 04000000 05000000 01000000 00 06000000", rowbridge.ErrOutOfBounds, "a", 6},
	{"serializedSize negative", schemaE8, rowE8, "00 03000000 00 f0ffffff 0c000000 1d000000 2a000000", rowbridge.ErrOutOfBounds, "a", 6},
	{"serializedSize below offset table", schemaE8, rowE8, "00 03000000 00 08000000 0c000000 1d000000 2a000000", rowbridge.ErrLayout, "a", 6},
	{"offset table disagrees", schemaE8, rowE8, "00 03000000 00 33000000 0c000000 1c000000 2a000000 03000000 00 01000000 02000000 03000000 02000000 00 04000000 05000000 01000000 00 06000000", rowbridge.ErrLayout, "a.item", 14},
	{"serializedSize beyond elements", schemaE8, rowE8, "00 03000000 00 34000000 0c000000 1d000000 2a000000 03000000 00 01000000 02000000 03000000 02000000 00 04000000 05000000 01000000 00 06000000 00", rowbridge.ErrLayout, "a", 61},
	{"serializedSize cuts last element", schemaE8, rowE8, "00 03000000 00 32000000 0c000000 1d000000 2a000000 03000000 00 01000000 02000000 03000000 02000000 00 04000000 05000000 01000000 00 06000000", rowbridge.ErrCount, "a.item", 52},
	{"complex array count negative", schemaE8, rowE8, "00 ffffffff", rowbridge.ErrCount, "a", 1},
	{"complex array table truncated", schemaE8, rowE8, "00 03000000 00 33000000 0c000000", rowbridge.ErrCount, "a", 1},
	{"map value count differs", schemaE3, rowE3, "00 03000000 00 01000000 02000000 03000000 02000000 02 01000000 61 03000000 78797a", rowbridge.ErrCount, "m.value", 18},
	{"map null key", schemaE3, rowE3, "00 03000000 01 01000000 02000000 03000000 03000000 02 01000000 61 03000000 78797a", rowbridge.ErrLayout, "m.key", 5},
	{"map value past row", schemaE3, rowE3, "00 03000000 00 01000000 02000000 03000000 03000000 02 01000000 61 04000000 78797a", rowbridge.ErrOutOfBounds, "m.value", 28},
	{"map values missing", schemaE3, rowE3, "00 03000000 00 01000000 02000000 03000000", rowbridge.ErrTruncated, "m.value", 18},
	{"map struct value offset wrong", schemaE5, rowE5, "00 02000000 00 01000000 02000000 02000000 01 16000000 00000000 09000000 00 01000000 00 07000000 05000000", rowbridge.ErrLayout, "m.value", 27},
	{"map struct inner array short", schemaE5, rowE5, "00 02000000 00 01000000 02000000 02000000 01 16000000 00000000 08000000 00 02000000 00 07000000 05000000", rowbridge.ErrTruncated, "m.value.b", 45},
	{"unknown array flags short", schemaUnknown, "00 02000000 03 07000000", "00 09000000 03", rowbridge.ErrCount, "u", 1},
	{"unknown array then int short", schemaUnknown, "00 02000000 03 07000000", "00 02000000 03 0700", rowbridge.ErrTruncated, "i", 6},
	{"struct flags missing", schemaStruct, "00 00 01000000 00000000", "00", rowbridge.ErrTruncated, "s", 1},
	{"struct string past row", schemaStruct, "00 00 01000000 00000000", "00 00 01000000 0a000000 6162", rowbridge.ErrOutOfBounds, "s.b", 6},
	{"string overruns element body", schemaStructs, "00 01000000 00 0b000000 04000000 00 02000000 6869", "00 01000000 00 09000000 04000000 00 02000000 6869", rowbridge.ErrOutOfBounds, "a.item.x", 15},
	{"element overruns body", schemaStructs, "00 01000000 00 0b000000 04000000 00 02000000 6869", "00 01000000 00 04000000 04000000 00 02000000 6869", rowbridge.ErrOutOfBounds, "a.item", 14},
	{"long decimal truncated", schemaE4, "01 00000000000000000000000000000000", "00 0102", rowbridge.ErrTruncated, "d", 1},
	{"map with null-type keys", fields(nf("m", arrow.MapOf(arrow.Null, arrow.PrimitiveTypes.Int32))), "00 00000000 00000000", "00 01000000 01 01000000 00 07000000", rowbridge.ErrLayout, "m.key", 1},
	{"bool array short", schemaBools, "00 02000000 00 0100 01", "00 02000000 00 01", rowbridge.ErrCount, "a", 1},
	// Counts whose sizes overflow a 32-bit int: (n+7)/8 for 2^31-1, n*8 =
	// 2^31, and sizes that wrap to the few bytes left.
	{"string array count huge", schemaTexts, "00 00000000", "00 ffffff7f 00", rowbridge.ErrCount, "a", 1},
	{"nested array count huge", schemaE8, rowE8, "00 ffffff7f 00", rowbridge.ErrCount, "a", 1},
	{"map key count huge", schemaE3, rowE3, "00 ffffff7f 00", rowbridge.ErrCount, "m.key", 1},
	{"bigint array 2^31 bytes", schemaBigints, "00 00000000", "00 00000010 00000000 00000000", rowbridge.ErrCount, "a", 1},
	{"bigint array size wraps", schemaBigints, "00 00000000", "00 20f8811f 00000000", rowbridge.ErrCount, "a", 1},
	{"decimal array size wraps", schemaLongs, "00 00000000", "00 813fe00f 00", rowbridge.ErrCount, "a", 1},
	{"nested array table wraps", schemaE8, rowE8, "00 e0830f3e", rowbridge.ErrCount, "a", 1},
}

func TestDecodeHostile(t *testing.T) {
	require.GreaterOrEqual(t, len(hostileCases), 25)
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			dec, err := NewDecoder(tc.schema, WithAllocator(mem))
			require.NoError(t, err)

			good := unhex(t, tc.good)
			rec, err := dec.Decode([][]byte{good})
			require.NoError(t, err, "the valid row must decode")
			validateBatch(t, rec)
			rec.Release()

			rec, err = dec.Decode([][]byte{good, unhex(t, tc.bad)})
			require.Nil(t, rec)
			require.ErrorIs(t, err, tc.err)
			var de *rowbridge.DecodeError
			require.True(t, errors.As(err, &de), "%T", err)
			require.Equal(t, 1, de.Row, "%v", err)
			require.Equal(t, tc.field, de.Field, "%v", err)
			require.Equal(t, tc.offset, de.Offset, "%v", err)
		})
	}
}

// The null bytes of a non-empty ARRAY<UNKNOWN> are skipped, so the field
// after it is read from the right place (Velox's reader gets this wrong).
func TestDecodeUnknownArrayThenField(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want := fromJSON(t, mem, schemaUnknown, `[{"u":[null,null],"i":7},{"u":[],"i":-1},{"u":null,"i":3}]`)
	defer want.Release()
	rows := [][]byte{unhex(t, "00 02000000 03 07000000"), unhex(t, "00 00000000 ffffffff"), unhex(t, "01 03000000")}

	enc, err := NewEncoder(schemaUnknown)
	require.NoError(t, err)
	got, err := enc.Encode(want)
	require.NoError(t, err)
	require.Equal(t, rows, got.Slices())

	dec, err := NewDecoder(schemaUnknown, WithAllocator(mem))
	require.NoError(t, err)
	rec, err := dec.Decode(rows)
	require.NoError(t, err)
	defer rec.Release()
	validateBatch(t, rec)
	requireSameBatch(t, want, rec)
}

// Unused bits of the last null-flag byte are ignored, as Velox ignores them.
func TestDecodeIgnoresUnusedNullBits(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dec, err := NewDecoder(schemaE2, WithAllocator(mem))
	require.NoError(t, err)
	rec, err := dec.Decode([][]byte{unhex(t, "f0 | 03 00 00 00 | fa | 01 00 00 00 00 00 00 00 03 00 00 00")})
	require.NoError(t, err)
	defer rec.Release()
	validateBatch(t, rec)
	want := fromJSON(t, mem, schemaE2, `[{"a":[1,null,3]}]`)
	defer want.Release()
	requireSameBatch(t, want, rec)
}

// Velox leaves a null element's offset-table entry 0; other writers might
// not, and the entry is never needed, so any value is accepted.
func TestDecodeIgnoresNullElementOffset(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dec, err := NewDecoder(schemaE5, WithAllocator(mem))
	require.NoError(t, err)
	row := unhex(t, "00 02000000 00 01000000 02000000 02000000 01 16000000 ffffffff 08000000 00 01000000 00 07000000 05000000")
	rec, err := dec.Decode([][]byte{row})
	require.NoError(t, err)
	defer rec.Release()
	validateBatch(t, rec)
	want := fromJSON(t, mem, schemaE5, `[{"m":[{"key":1,"value":null},{"key":2,"value":{"a":[7],"b":5}}]}]`)
	defer want.Release()
	requireSameBatch(t, want, rec)
}

// Every proper prefix of a valid row fails with a DecodeError (never a
// panic); for rows without trailing optional parts none decodes.
func TestDecodePrefixesOfGoldenRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tc := range goldenCases {
		dec, err := NewDecoder(tc.schema, WithAllocator(mem))
		require.NoError(t, err)
		for _, h := range tc.rows {
			row := unhex(t, h)
			for n := range len(row) {
				rec, err := dec.Decode([][]byte{row[:n:n]})
				require.Nil(t, rec, "%s prefix %d", tc.name, n)
				var de *rowbridge.DecodeError
				require.True(t, errors.As(err, &de), "%s prefix %d: %v", tc.name, n, err)
				require.LessOrEqual(t, de.Offset, n)
			}
		}
	}
}
