package unsaferow

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/ddl"
)

// UnsafeRow carries no types, so a wrong schema can only be caught where
// the bytes contradict it. These tests decode rows written for one schema
// with another (issue 14, item 3) and hand-crafted rows that break each
// rule Spark and Velox both follow.

func mustParseDDL(t testing.TB, s string) *arrow.Schema {
	t.Helper()
	schema, err := ddl.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// encodeJSON writes the JSON rows of the schema as UnsafeRows of the flavour.
func encodeJSON(t testing.TB, mem memory.Allocator, fl Flavor, schemaDDL, js string) [][]byte {
	t.Helper()
	schema := mustParseDDL(t, schemaDDL)
	rec := recordFromJSON(t, mem, schema, js)
	defer rec.Release()
	enc, err := NewEncoder(schema, WithFlavor(fl))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := enc.Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	return rows.Slices()
}

func TestDecodeWrongSchema(t *testing.T) {
	cases := []struct {
		name, wrote, read, json string
		err                     error
		field                   string
		offset                  int
		msg                     string
	}{
		// The example: the old decoder printed "\u0000" and 274877906952.
		{"swapped columns", "id BIGINT, name STRING", "name STRING, id BIGINT",
			`[{"id": 1, "name": "alice"}, {"id": 2, "name": "bob"}]`,
			rowbridge.ErrLayout, "name", 8, "points into the first 24 bytes"},
		{"swapped columns, id 0", "id BIGINT, name STRING", "name STRING, id BIGINT",
			`[{"id": 0, "name": "alice"}]`,
			rowbridge.ErrLayout, "name", 8, "points into the first 24 bytes"},
		{"string read as bigint", "id BIGINT, name STRING", "a BIGINT, b BIGINT",
			`[{"id": 1, "name": "alice"}]`,
			rowbridge.ErrLayout, "", 32, "fields are all fixed-width and take exactly 24"},
		{"fewer fields, last one null", "a STRING, b STRING, c STRING", "a STRING, b STRING",
			`[{"a": "x", "b": "y", "c": null}]`,
			rowbridge.ErrLayout, "", 0, "null bit 2 is set, but the row has 2 fields"},
		{"fewer fixed fields", "a INT, b INT, c INT", "a INT, b INT",
			`[{"a": 1, "b": 2, "c": 3}]`,
			rowbridge.ErrLayout, "", 32, "take exactly 24"},
		{"bigint elements read as int", "arr ARRAY<BIGINT>", "arr ARRAY<INT>",
			`[{"arr": [1, 2, 3]}]`,
			rowbridge.ErrLayout, "arr", 16, "array of 40 bytes, but 3 elements of 4 bytes take 28 (32 padded)"},
		{"map of bigint to int read as int to bigint", "m MAP<BIGINT, INT>", "m MAP<INT, BIGINT>",
			`[{"m": [{"key": 1, "value": 2}, {"key": 3, "value": 4}, {"key": 5, "value": 6}]}]`,
			rowbridge.ErrLayout, "m.key", 24, "array of 40 bytes, but 3 elements of 4 bytes take 28 (32 padded)"},
		{"struct of three read as struct of two", "s STRUCT<a: STRING, b: STRING, c: STRING>", "s STRUCT<a: STRING, b: STRING>",
			`[{"s": {"a": "x", "b": "y", "c": null}}]`,
			rowbridge.ErrLayout, "s", 16, "null bit 2 is set, but the struct has 2 fields"},
		{"struct of strings read as struct of ints", "s STRUCT<a: STRING, b: STRING>", "s STRUCT<a: INT, b: INT>",
			`[{"s": {"a": "x", "b": "y"}}]`,
			rowbridge.ErrLayout, "s", 16, "struct of 40 bytes; its 2 fields are all fixed-width and take exactly 24"},
	}
	for _, c := range cases {
		for _, fl := range flavors {
			t.Run(c.name+"/"+fl.String(), func(t *testing.T) {
				mem := checkedMem(t)
				rows := encodeJSON(t, mem, fl, c.wrote, c.json)
				dec := mustDecoder(t, mustParseDDL(t, c.read), mem)
				rec, err := dec.Decode(rows)
				if err == nil {
					defer rec.Release()
					t.Fatalf("decoded %s rows as %s:\n%v", c.wrote, c.read, rec)
				}
				assertDecodeError(t, err, c.err, c.field, c.offset)
				var de *rowbridge.DecodeError
				errors.As(err, &de)
				if de.Row != 0 || !strings.Contains(err.Error(), c.msg) {
					t.Fatalf("got %q, want row 0 and %q", err, c.msg)
				}
			})
		}
	}
}

// schemaCases are hand-crafted rows (Spark layout unless named) that break
// one rule each: what no Spark or Velox writer produces for the schema.
func schemaCases() []hostileCase {
	e1, e2, e3 := goldenRows[0], goldenRows[2], goldenRows[3]
	pair := goldenSchema(nullable("s", arrow.StructOf(nullable("x", arrow.PrimitiveTypes.Int32), nullable("y", arrow.PrimitiveTypes.Int32))))
	pairStr := goldenSchema(nullable("s", arrow.StructOf(nullable("x", arrow.PrimitiveTypes.Int32), nullable("y", arrow.BinaryTypes.String))))
	strArr := goldenSchema(nullable("arr", listOfElem(arrow.BinaryTypes.String)))
	i32Arr := goldenSchema(nullable("arr", listOfElem(arrow.PrimitiveTypes.Int32)))
	i16Arr := goldenSchema(nullable("arr", listOfElem(arrow.PrimitiveTypes.Int16)))
	i64 := goldenSchema(nullable("a", arrow.PrimitiveTypes.Int64))

	with := func(b []byte, edit func([]byte)) []byte { edit(b); return b }
	put := func(b []byte, at int, w uint64) { binary.LittleEndian.PutUint64(b[at:], w) }
	wide := make([]arrow.Field, 65)
	wideVals := make([]hv, 65)
	for i := range wide {
		wide[i] = nullable(fmt.Sprintf("f%d", i), arrow.PrimitiveTypes.Int64)
		wideVals[i] = hI64(int64(i))
	}
	// A pair struct of 24 bytes followed by 8 more inside its slot's size.
	longPair := handRow(hVar(append(handRow(hI32(1), hI32(2)), make([]byte, 8)...)))
	// Arrays of int16 of 3 elements: 22 bytes, or 24 padded; here 32.
	i16Long := handRow(hVar(append(handArray(2, hI16(1), hI16(2), hI16(3)), make([]byte, 8)...)))
	// Arrays of int32 of 3 elements: 28 bytes, or 32 padded; here 40.
	i32Long := handRow(hVar(append(handArray(4, hI32(1), hI32(2), hI32(3)), make([]byte, 8)...)))
	// Two strings: header 16, words 16, payloads at 32 and 40.
	twoStr := handRow(hVar(handArray(8, hStr("x"), hStr("y"))))
	return []hostileCase{
		{"offset into the null bits", e1.schema, patched(e1.spark, 16, 0<<32|3), rowbridge.ErrLayout, "b", 16},
		{"offset into the slots", e1.schema, patched(e1.spark, 16, 8<<32|3), rowbridge.ErrLayout, "b", 16},
		{"offset at the last slot", e1.schema, patched(e1.spark, 16, 24<<32|8), rowbridge.ErrLayout, "b", 16},
		{"offset not 8-aligned", e1.schema, patched(e1.spark, 16, 0x21<<32|3), rowbridge.ErrLayout, "b", 16},
		{"velox offset not 8-aligned", e1.schema, patched(e1.velox, 16, 0x24<<32|3), rowbridge.ErrLayout, "b", 16},
		{"empty string into the slots", e1.schema, patched(e1.spark, 16, 16<<32), rowbridge.ErrLayout, "b", 16},
		{"null bit past the fields", e1.schema, with(goldenBytes(e1.spark), func(b []byte) { b[0] |= 0x08 }), rowbridge.ErrLayout, "", 0},
		{"null bit 63 of 3 fields", e1.schema, with(goldenBytes(e1.spark), func(b []byte) { b[7] = 0x80 }), rowbridge.ErrLayout, "", 7},
		{"null bit 70 of 65 fields", goldenSchema(wide...), with(handRow(wideVals...), func(b []byte) { b[8] |= 0x40 }), rowbridge.ErrLayout, "", 8},
		{"fixed-only row too long", i64, append(handRow(hI64(5)), make([]byte, 8)...), rowbridge.ErrLayout, "", 24},
		{"nested null bit past the fields", pair, with(handRow(hVar(handRow(hI32(1), hI32(2)))), func(b []byte) { b[16] |= 0x04 }), rowbridge.ErrLayout, "s", 16},
		{"fixed-only nested struct too long", pair, longPair, rowbridge.ErrLayout, "s", 16},
		{"nested struct not a multiple of 8", pairStr, with(handRow(hVar(handRow(hI32(1), hStr("abc")))), func(b []byte) { put(b, 8, 16<<32|28) }), rowbridge.ErrLayout, "s", 16},
		{"nested offset into its slots", pairStr, with(handRow(hVar(handRow(hI32(1), hStr("abc")))), func(b []byte) { put(b, 32, 8<<32|3) }), rowbridge.ErrLayout, "s.y", 32},
		{"int array of 40 bytes", i32Arr, i32Long, rowbridge.ErrLayout, "arr", 16},
		{"int16 array of 32 bytes", i16Arr, i16Long, rowbridge.ErrLayout, "arr", 16},
		{"string array of 28 bytes", strArr, with(handRow(hVar(handArray(8, hStr("x")))), func(b []byte) { put(b, 8, 16<<32|28) }), rowbridge.ErrLayout, "arr", 16},
		{"element null bit past the count", e2.schema, with(goldenBytes(e2.spark), func(b []byte) { b[24] |= 0x08 }), rowbridge.ErrLayout, "arr", 24},
		{"velox element null bit past the count", e2.schema, with(goldenBytes(e2.velox), func(b []byte) { b[31] = 0x01 }), rowbridge.ErrLayout, "arr", 31},
		{"element offset into the element words", strArr, with(twoStr, func(b []byte) { put(b, 16+24, 16<<32|1) }), rowbridge.ErrLayout, "arr.element", 40},
		{"element offset into the header", strArr, with(handRow(hVar(handArray(8, hStr("x"), hStr("y")))), func(b []byte) { put(b, 16+24, 0<<32|8) }), rowbridge.ErrLayout, "arr.element", 40},
		{"element offset not 8-aligned", strArr, with(handRow(hVar(handArray(8, hStr("x"), hStr("y")))), func(b []byte) { put(b, 16+24, 33<<32|1) }), rowbridge.ErrLayout, "arr.element", 40},
		{"key array bytes one word too many", e3.schema, patched(e3.spark, 16, 0x28), rowbridge.ErrLayout, "m.key", 24},
		{"value null bit past the count", e3.schema, with(goldenBytes(e3.spark), func(b []byte) { b[64] |= 0x10 }), rowbridge.ErrLayout, "m.value", 64},
		{"velox value offset into its words", e3.schema, patched(e3.velox, 0x44, 0x10<<32|1), rowbridge.ErrLayout, "m.value", 0x44},
	}
}

// hostile32Cases are sizes whose products or sums pass 2^31 or 2^32: on a
// 32-bit platform they would wrap to small, plausible numbers unless
// computed in 64 bits. Each must fail cleanly on every platform.
func hostile32Cases() []hostileCase {
	e1, e2, e3 := goldenRows[0], goldenRows[2], goldenRows[3]
	i64Arr := goldenSchema(nullable("arr", listOfElem(arrow.PrimitiveTypes.Int64)))
	i32Arr := goldenSchema(nullable("arr", listOfElem(arrow.PrimitiveTypes.Int32)))
	strArr := goldenSchema(nullable("arr", listOfElem(arrow.BinaryTypes.String)))
	// An array whose header plus count*width is 2^32 plus its own size: 8 +
	// 8*ceil(c/64) + c*width wraps to exactly size in 32 bits.
	wrapping := func(width, m int) []byte {
		c := uint64(64 * m)
		need := 8 + 8*uint64(m) + c*uint64(width)
		size := need - 1<<32
		b := handRow(hVar(make([]byte, size)))
		binary.LittleEndian.PutUint64(b[16:], c)
		return b
	}
	twoStr := handRow(hVar(handArray(8, hStr("x"), hStr("y"))))
	binary.LittleEndian.PutUint64(twoStr[40:], 0xfffffff8<<32|0x10)
	return []hostileCase{
		{"offset+size past 2^32", e1.schema, patched(e1.spark, 16, 0xfffffff8<<32|0x10), rowbridge.ErrOutOfBounds, "b", 16},
		{"size 2^32-1", e1.schema, patched(e1.spark, 16, 0x20<<32|0xffffffff), rowbridge.ErrOutOfBounds, "b", 16},
		{"offset 2^32-8, size 2^32-1", e1.schema, patched(e1.spark, 16, 0xfffffff8<<32|0xffffffff), rowbridge.ErrOutOfBounds, "b", 16},
		{"element offset+size past 2^32", strArr, twoStr, rowbridge.ErrOutOfBounds, "arr.element", 40},
		{"8-byte elements wrapping 2^32", i64Arr, wrapping(8, 8259553), rowbridge.ErrCount, "arr", 16},
		{"4-byte elements wrapping 2^32", i32Arr, wrapping(4, 16268816), rowbridge.ErrCount, "arr", 16},
		{"count 2^32+3", e2.schema, patched(e2.spark, 16, 1<<32|3), rowbridge.ErrCount, "arr", 16},
		{"count 2^31", e2.schema, patched(e2.spark, 16, 1<<31), rowbridge.ErrCount, "arr", 16},
		{"key array bytes 2^32+32", e3.schema, patched(e3.spark, 16, 1<<32|0x20), rowbridge.ErrOutOfBounds, "m", 16},
		{"key array bytes 2^63", e3.schema, patched(e3.spark, 16, 1<<63|0x20), rowbridge.ErrOutOfBounds, "m", 16},
		{"map of 2^32+96 bytes", e3.schema, patched(e3.spark, 8, 0x10<<32|0xffffffff), rowbridge.ErrOutOfBounds, "m", 8},
	}
}

func TestDecodeRefusesWhatNoWriterWrites(t *testing.T) {
	for _, c := range schemaCases() {
		t.Run(c.name, func(t *testing.T) { runHostileCase(t, c) })
	}
}

func TestDecodeHostileSizesOn32Bit(t *testing.T) {
	for _, c := range hostile32Cases() {
		t.Run(c.name, func(t *testing.T) { runHostileCase(t, c) })
	}
	// String sizes that add up past 2^32 over rows: the sizing pass must
	// not wrap its total (it sums in int64 and falls back to the checked
	// path, which names the first bad value).
	mem := checkedMem(t)
	schema := goldenRows[0].schema
	dec := mustDecoder(t, schema, mem)
	rows := make([][]byte, 3)
	for i := range rows {
		rows[i] = patched(goldenRows[0].spark, 16, 0x20<<32|math.MaxUint32)
	}
	rows[0] = goldenBytes(goldenRows[0].spark)
	_, err := dec.Decode(rows)
	assertDecodeError(t, err, rowbridge.ErrOutOfBounds, "b", 16)
}

// Rows that Spark and Velox write must all pass the checks: every golden
// row, both flavours, in one batch with the rows of the other.
func TestDecodeChecksAcceptBothWriters(t *testing.T) {
	for _, g := range goldenRows {
		t.Run(g.name, func(t *testing.T) {
			mem := checkedMem(t)
			dec := mustDecoder(t, g.schema, mem)
			rec := decodeValid(t, dec, [][]byte{goldenBytes(g.spark), goldenBytes(g.velox)})
			rec.Release()
		})
	}
}
