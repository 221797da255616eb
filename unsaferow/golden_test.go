package unsaferow

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// goldenRow is one worked example of docs/row-examples.md: a schema, its value as
// Arrow JSON (array.RecordFromJSON, one object per row), and the exact bytes
// Spark and Velox (HEAD) write for it. Both byte strings must decode to the
// value; the Encoder must reproduce each flavour byte for byte. The Velox
// bytes here have zero null-element slots (what our Velox flavour writes);
// garbage in those slots is covered by the decoder tests.
type goldenRow struct {
	name   string
	schema *arrow.Schema
	json   string // one row, as a JSON array of one object
	spark  string // hex, whitespace ignored
	velox  string
}

// goldenBytes decodes a golden hex string, ignoring whitespace.
func goldenBytes(s string) []byte {
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		panic(err)
	}
	return b
}

func goldenSchema(fields ...arrow.Field) *arrow.Schema { return arrow.NewSchema(fields, nil) }

func nullable(name string, dt arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: dt, Nullable: true}
}

// listOfElem is a list with Spark's element name.
func listOfElem(dt arrow.DataType) *arrow.ListType {
	return arrow.ListOfField(arrow.Field{Name: "element", Type: dt, Nullable: true})
}

var (
	e5Value  = arrow.StructOf(nullable("a", listOfElem(arrow.PrimitiveTypes.Int32)), nullable("b", arrow.PrimitiveTypes.Int32))
	e6Struct = arrow.StructOf(
		nullable("bo", arrow.FixedWidthTypes.Boolean),
		nullable("i8", arrow.PrimitiveTypes.Int8),
		nullable("i16", arrow.PrimitiveTypes.Int16),
		nullable("f32", arrow.PrimitiveTypes.Float32),
		nullable("d", arrow.FixedWidthTypes.Date32),
		nullable("ts", &arrow.TimestampType{Unit: arrow.Microsecond}),
	)
)

var goldenRows = []goldenRow{
	{
		name: "E1/int-string-nullbigint",
		schema: goldenSchema(nullable("a", arrow.PrimitiveTypes.Int32), nullable("b", arrow.BinaryTypes.String),
			nullable("c", arrow.PrimitiveTypes.Int64)),
		json: `[{"a": 1, "b": "abc", "c": null}]`,
		spark: `04000000 00000000  01000000 00000000  03000000 20000000  00000000 00000000
		        61626300 00000000`,
		velox: `04000000 00000000  01000000 00000000  03000000 20000000  00000000 00000000
		        61626300 00000000`,
	},
	{
		name: "E1/empty-string",
		schema: goldenSchema(nullable("a", arrow.PrimitiveTypes.Int32), nullable("b", arrow.BinaryTypes.String),
			nullable("c", arrow.PrimitiveTypes.Int64)),
		json:  `[{"a": 2, "b": "", "c": null}]`,
		spark: `04000000 00000000  02000000 00000000  00000000 20000000  00000000 00000000`,
		velox: `04000000 00000000  02000000 00000000  00000000 20000000  00000000 00000000`,
	},
	{
		name:   "E2/array-int",
		schema: goldenSchema(nullable("arr", listOfElem(arrow.PrimitiveTypes.Int32))),
		json:   `[{"arr": [1, null, 3]}]`,
		spark: `00000000 00000000  20000000 10000000  03000000 00000000  02000000 00000000
		        01000000 00000000  03000000 00000000`,
		velox: `00000000 00000000  1c000000 10000000  03000000 00000000  02000000 00000000
		        01000000 00000000  03000000 00000000`,
	},
	{
		name:   "E3/map-int-string",
		schema: goldenSchema(nullable("m", arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String))),
		json:   `[{"m": [{"key": 1, "value": "a"}, {"key": 2, "value": null}, {"key": 3, "value": "xyz"}]}]`,
		spark: `00000000 00000000  60000000 10000000
		        20000000 00000000  03000000 00000000  00000000 00000000  01000000 02000000  03000000 00000000
		        03000000 00000000  02000000 00000000  01000000 28000000  00000000 00000000  03000000 30000000
		        61000000 00000000  78797a00 00000000`,
		velox: `00000000 00000000  5c000000 10000000
		        1c000000 00000000  03000000 00000000  00000000 00000000  01000000 02000000  03000000
		        03000000 00000000  02000000 00000000  01000000 28000000  00000000 00000000  03000000 30000000
		        61000000 00000000  78797a00 00000000
		        00000000`,
	},
	{
		name:   "E4a/long-decimal",
		schema: goldenSchema(nullable("d", &arrow.Decimal128Type{Precision: 38, Scale: 10})),
		json:   `[{"d": "12345.6789012345"}]`,
		spark:  `00000000 00000000  06000000 10000000  7048860d df790000  00000000 00000000`,
		velox:  `00000000 00000000  06000000 10000000  7048860d df790000`,
	},
	{
		name:   "E4b/long-decimal-minus-one",
		schema: goldenSchema(nullable("d", &arrow.Decimal128Type{Precision: 38, Scale: 10})),
		json:   `[{"d": "-0.0000000001"}]`,
		spark:  `00000000 00000000  01000000 10000000  ff000000 00000000  00000000 00000000`,
		velox:  `00000000 00000000  01000000 10000000  ff000000 00000000`,
	},
	{
		name:   "E4c/long-decimal-null",
		schema: goldenSchema(nullable("d", &arrow.Decimal128Type{Precision: 38, Scale: 10})),
		json:   `[{"d": null}]`,
		spark:  `01000000 00000000  00000000 10000000  00000000 00000000  00000000 00000000`,
		velox:  `01000000 00000000  00000000 00000000`,
	},
	{
		name:   "E4d/long-decimal-11-bytes",
		schema: goldenSchema(nullable("d", &arrow.Decimal128Type{Precision: 38, Scale: 2})),
		json:   `[{"d": "123456789012345678901234.57"}]`,
		spark:  `00000000 00000000  0b000000 10000000  0a364c98 227eaa6a  dcbac100 00000000`,
		velox:  `00000000 00000000  0b000000 10000000  0a364c98 227eaa6a  dcbac100 00000000`,
	},
	{
		name:   "E5/map-of-struct-with-null-value",
		schema: goldenSchema(nullable("m", arrow.MapOf(arrow.PrimitiveTypes.Int32, e5Value))),
		json:   `[{"m": [{"key": 1, "value": null}, {"key": 2, "value": {"a": [7], "b": 5}}]}]`,
		spark: `00000000 00000000  70000000 10000000
		        18000000 00000000  02000000 00000000  00000000 00000000  01000000 02000000
		        02000000 00000000  01000000 00000000  00000000 00000000  30000000 20000000
		        00000000 00000000  18000000 18000000  05000000 00000000
		        01000000 00000000  00000000 00000000  07000000 00000000`,
		velox: `00000000 00000000  70000000 10000000
		        18000000 00000000  02000000 00000000  00000000 00000000  01000000 02000000
		        02000000 00000000  01000000 00000000  00000000 00000000  30000000 20000000
		        00000000 00000000  14000000 18000000  05000000 00000000
		        01000000 00000000  00000000 00000000  07000000 00000000`,
	},
	{
		name:   "E6/struct-of-fixed",
		schema: goldenSchema(nullable("s", e6Struct)),
		json:   `[{"s": {"bo": true, "i8": -1, "i16": -2, "f32": 1.5, "d": 19000, "ts": 1700000000123456}}]`,
		spark: `00000000 00000000  38000000 10000000
		        00000000 00000000  01000000 00000000  ff000000 00000000  feff0000 00000000
		        0000c03f 00000000  384a0000 00000000  40222018 240a0600`,
		velox: `00000000 00000000  38000000 10000000
		        00000000 00000000  01000000 00000000  ff000000 00000000  feff0000 00000000
		        0000c03f 00000000  384a0000 00000000  40222018 240a0600`,
	},
	{
		name:   "E7/empty-array-null-string",
		schema: goldenSchema(nullable("a", listOfElem(arrow.BinaryTypes.String)), nullable("s", arrow.BinaryTypes.String)),
		json:   `[{"a": [], "s": null}]`,
		spark:  `02000000 00000000  08000000 18000000  00000000 00000000  00000000 00000000`,
		velox:  `02000000 00000000  08000000 18000000  00000000 00000000  00000000 00000000`,
	},
	{
		// Spark gives NullType elements 8 bytes, Velox none (docs/row-layout.md, "UnsafeRow arrays").
		name:   "array-of-nulltype",
		schema: goldenSchema(nullable("a", listOfElem(arrow.Null))),
		json:   `[{"a": [null, null]}]`,
		spark: `00000000 00000000  20000000 10000000  02000000 00000000  03000000 00000000
		        00000000 00000000  00000000 00000000`,
		velox: `00000000 00000000  10000000 10000000  02000000 00000000  03000000 00000000`,
	},
}

// goldenRecord is the expected value of g as a one-row record batch.
func goldenRecord(t testing.TB, mem memory.Allocator, g goldenRow) arrow.RecordBatch {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, g.schema, strings.NewReader(g.json))
	if err != nil {
		t.Fatalf("%s: bad golden JSON: %v", g.name, err)
	}
	return rec
}

func TestGoldenTableIsWellFormed(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, g := range goldenRows {
		for _, h := range []string{g.spark, g.velox} {
			if n := len(goldenBytes(h)); n%8 != 0 || n == 0 {
				t.Errorf("%s: row of %d bytes", g.name, n)
			}
		}
		rec := goldenRecord(t, mem, g)
		if rec.NumRows() != 1 {
			t.Errorf("%s: %d rows in JSON", g.name, rec.NumRows())
		}
		rec.Release()
	}
}
