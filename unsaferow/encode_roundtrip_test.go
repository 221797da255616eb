package unsaferow

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// requireRoundTrip encodes rec in both flavours, decodes the rows and
// checks the batch equals rec and passes ValidateFull.
func requireRoundTrip(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch, name string) {
	t.Helper()
	dec, err := NewDecoder(rec.Schema(), WithAllocator(mem))
	require.NoError(t, err, name)
	for _, fl := range flavors {
		rows := encodeWith(t, fl, rec)
		got, err := dec.Decode(rows.Slices())
		require.NoError(t, err, "%s/%s", name, fl)
		for i, col := range got.Columns() {
			require.NoError(t, array.ValidateFull(col), "%s/%s column %d", name, fl, i)
		}
		if !array.RecordApproxEqual(rec, got) {
			t.Errorf("%s/%s: round trip differs", name, fl)
			for i := range rec.NumCols() {
				if !array.ApproxEqual(rec.Column(int(i)), got.Column(int(i))) {
					t.Logf("column %d:\nwant %v\ngot  %v", i, rec.Column(int(i)), got.Column(int(i)))
				}
			}
		}
		got.Release()
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	for _, g := range goldenRows {
		rec := goldenRecord(t, mem, g)
		requireRoundTrip(t, mem, rec, g.name)
		rec.Release()
	}

	for _, s := range encBenchShapes() {
		rec := s.record(mem, 200)
		requireRoundTrip(t, mem, rec, s.name)
		part := rec.NewSlice(37, 151)
		requireRoundTrip(t, mem, part, s.name+"/slice")
		part.Release()
		rec.Release()
	}

	// Nulls at every level, sliced at an odd offset.
	schema := goldenSchema(
		nullable("i8", arrow.PrimitiveTypes.Int8),
		nullable("bo", arrow.FixedWidthTypes.Boolean),
		nullable("ts", &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}),
		nullable("dt", arrow.FixedWidthTypes.Date32),
		nullable("bin", arrow.BinaryTypes.Binary),
		nullable("ld", &arrow.Decimal128Type{Precision: 38, Scale: 4}),
		nullable("sd", &arrow.Decimal128Type{Precision: 9, Scale: 3}),
		nullable("n", arrow.Null),
		nullable("an", listOfElem(arrow.Null)),
		nullable("ald", listOfElem(&arrow.Decimal128Type{Precision: 25, Scale: 0})),
		nullable("ms", arrow.MapOf(arrow.BinaryTypes.String, arrow.StructOf(
			nullable("x", listOfElem(arrow.PrimitiveTypes.Int16)),
			nullable("y", &arrow.Decimal128Type{Precision: 20, Scale: 1}),
			nullable("e", arrow.StructOf())))),
	)
	var rows []string
	for i := range 21 {
		nullIf := func(cond bool, v string) string {
			if cond {
				return "null"
			}
			return v
		}
		var entries []string
		for j := range i % 4 {
			entries = append(entries, fmt.Sprintf(`{"key": "k%d", "value": %s}`, j,
				nullIf(j == 2, fmt.Sprintf(`{"x": %s, "y": %s, "e": %s}`,
					nullIf(i%3 == 0, fmt.Sprintf("[%d, null, %d]", i, -i)), nullIf(j == 1, `"-12.5"`), nullIf(i%2 == 0, "{}")))))
		}
		rows = append(rows, fmt.Sprintf(`{"i8": %s, "bo": %s, "ts": %s, "dt": %s, "bin": %s, "ld": %s, "sd": %s,
			"n": null, "an": %s, "ald": %s, "ms": %s}`,
			nullIf(i%3 == 1, fmt.Sprint(i-10)), nullIf(i%4 == 2, fmt.Sprint(i%3 == 0)),
			nullIf(i%5 == 3, fmt.Sprint(int64(i)*-86400000000123)), nullIf(i%6 == 4, fmt.Sprint(i*100-700)),
			nullIf(i%7 == 5, `"AQID"`), nullIf(i%2 == 1, fmt.Sprintf(`"%d.0001"`, i*i*i*1000003)),
			nullIf(i%3 == 2, fmt.Sprintf(`"-%d.125"`, i)),
			nullIf(i%4 == 0, "["+strings.Repeat("null,", i%3)+"null]"),
			nullIf(i%5 == 0, fmt.Sprintf(`["%d", null, "-%d"]`, int64(i)*99999999999, i)),
			nullIf(i%6 == 5, "["+strings.Join(entries, ",")+"]")))
	}
	rec := recordFromJSON(t, mem, schema, "["+strings.Join(rows, ",")+"]")
	defer rec.Release()
	requireRoundTrip(t, mem, rec, "nulls")
	part := rec.NewSlice(3, 17)
	defer part.Release()
	requireRoundTrip(t, mem, part, "nulls/slice")

	// Wide: 130 top-level fields and a 65-field struct (multi-word bitsets).
	var top, inner []arrow.Field
	var vals, ivals []string
	for i := range 65 {
		inner = append(inner, nullable(fmt.Sprintf("g%d", i), arrow.PrimitiveTypes.Int32))
		ivals = append(ivals, fmt.Sprintf(`"g%d": %s`, i, map[bool]string{true: "null", false: fmt.Sprint(i)}[i%32 == 0]))
	}
	for i := range 130 {
		dt, v := arrow.DataType(arrow.BinaryTypes.String), fmt.Sprintf(`"%d"`, i)
		if i == 100 {
			dt, v = arrow.StructOf(inner...), "{"+strings.Join(ivals, ",")+"}"
		}
		if i%64 == 63 {
			v = "null"
		}
		top = append(top, nullable(fmt.Sprintf("f%d", i), dt))
		vals = append(vals, fmt.Sprintf(`"f%d": %s`, i, v))
	}
	wide := recordFromJSON(t, mem, goldenSchema(top...), "[{"+strings.Join(vals, ",")+"}]")
	defer wide.Release()
	requireRoundTrip(t, mem, wide, "wide")
}
