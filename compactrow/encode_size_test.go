package compactrow

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// Row sizes from docs/row-layout.md ("CompactRow rows") and docs/velox-benchmarks.md ("Row serde: encoded sizes").
func TestRowSizes(t *testing.T) {
	i64, f64 := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64
	fw5 := []arrow.Field{nf("a", i64), nf("b", f64), nf("c", arrow.FixedWidthTypes.Boolean), nf("d", arrow.PrimitiveTypes.Int8), nf("e", arrow.PrimitiveTypes.Float32)}
	many := func(n int, dt arrow.DataType, prefix string) []arrow.Field {
		out := make([]arrow.Field, n)
		for i := range out {
			out[i] = nf(fmt.Sprintf("%s%d", prefix, i), dt)
		}
		return out
	}
	str50 := `"` + strings.Repeat("x", 50) + `"`
	obj := func(fs []arrow.Field, val func(arrow.Field) string) string {
		parts := make([]string, len(fs))
		for i, f := range fs {
			parts[i] = fmt.Sprintf("%q:%s", f.Name, val(f))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	zero := func(f arrow.Field) string {
		switch f.Type.ID() {
		case arrow.BOOL:
			return "true"
		case arrow.STRING:
			return str50
		}
		return "1"
	}
	ints := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprint(i)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	type tc struct {
		name   string
		fields []arrow.Field
		json   string
		size   int
	}
	cases := []tc{
		{"ROW(UNKNOWN)", []arrow.Field{nf("u", arrow.Null)}, `[{"u":null}]`, 1},
		{"ROW(BOOLEAN,BIGINT,INTEGER,SMALLINT,DOUBLE)", []arrow.Field{nf("a", arrow.FixedWidthTypes.Boolean), nf("b", i64),
			nf("c", arrow.PrimitiveTypes.Int32), nf("d", arrow.PrimitiveTypes.Int16), nf("e", f64)}, `[{"a":null,"b":null,"c":null,"d":null,"e":null}]`, 24},
		{"fixedWidth5", fw5, "", 23},
		{"fixedWidth10", append(append(many(6, i64, "a"), nf("d", f64)), many(3, i64, "b")...), "", 82},
		{"fixedWidth20", append(append(many(10, i64, "a"), many(8, f64, "d")...), many(2, i64, "b")...), "", 163},
		{"strings1", []arrow.Field{nf("a", i64), nf("s", arrow.BinaryTypes.String)}, "", 63},
		{"strings5", append([]arrow.Field{nf("a", i64)}, many(5, arrow.BinaryTypes.String, "s")...), "", 279},
		{"structs", []arrow.Field{nf("a", i64), nf("s", arrow.StructOf(fw5...))}, `[{"a":1,"s":{"a":1,"b":1,"c":true,"d":1,"e":1}}]`, 32},
		{"decimals", []arrow.Field{nf("a", i64), nf("d", &arrow.Decimal128Type{Precision: 12, Scale: 2}),
			nf("e", &arrow.Decimal128Type{Precision: 38, Scale: 18})}, `[{"a":1,"d":"1.25","e":"3.5"}]`, 33},
	}
	for _, l := range []int{0, 1, 8, 9, 19} {
		size := 13
		if l > 0 {
			size = 14 + 8*l + nullBytes(l) - 1
		}
		cases = append(cases, tc{fmt.Sprintf("arrays L=%d", l), []arrow.Field{nf("a", i64), nf("l", arrow.ListOf(i64))},
			fmt.Sprintf(`[{"a":1,"l":%s}]`, ints(l)), size})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			js := c.json
			if js == "" {
				js = "[" + obj(c.fields, zero) + "]"
			}
			schema := arrow.NewSchema(c.fields, nil)
			rec := fromJSON(t, mem, schema, js)
			defer rec.Release()
			enc, err := NewEncoder(schema)
			require.NoError(t, err)
			rows, err := enc.Encode(rec)
			require.NoError(t, err)
			require.Equal(t, 1, rows.Len())
			require.Len(t, rows.Row(0), c.size)
		})
	}
}
