package interop

import (
	"bytes"
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/trycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// duckAgree are strings on which DuckDB's TRY_CAST(s AS INTEGER) and
// Presto's try_cast agree (measured with duckdb-wasm 1.32.0 / DuckDB v1.4.3).
var duckAgree = []string{
	"42", "+42", "-0", "007", "  12  ", "", "-", "2147483648", "-2147483648", "٣", "abc",
	"9223372036854775807", "NaN", "Infinity", "true", "1,234", "-7", "\t5\n", "2147483647",
	"-2147483649", "00012", " +3 ", "+", "1 2",
}

// duckDiverge are strings Presto rejects (docs/trycast.md, "string → tinyint, smallint, integer, bigint") but DuckDB
// converts: it rounds fractions, reads exponents, hex/binary prefixes and
// digit separators. The value is DuckDB's.
var duckDiverge = map[string]int32{
	"12.5": 13, "1e3": 1000, "0x1F": 31, "1_000": 1000, "-1.5e2": -150, "0b101": 5, "1.": 1, ".5": 1, "12.0": 12,
}

var duckSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "st", Type: arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
	{Name: "l", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int64, Nullable: true}), Nullable: true},
	{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
	{Name: "d", Type: &arrow.Decimal128Type{Precision: 12, Scale: 2}, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "dt", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

const duckRows = 600

// duckBatch builds the table DuckDB ingests, with nulls at every level.
func duckBatch(mem memory.Allocator) arrow.RecordBatch {
	r := rand.New(rand.NewSource(7))
	b := array.NewRecordBuilder(mem, duckSchema)
	defer b.Release()
	null := func() bool { return r.Intn(6) == 0 }
	diverge := make([]string, 0, len(duckDiverge))
	for s := range duckDiverge {
		diverge = append(diverge, s)
	}
	slices.Sort(diverge) // map order is random; the table must not be
	for i := 0; i < duckRows; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		sb := b.Field(1).(*array.StringBuilder)
		switch {
		case null():
			sb.AppendNull()
		case i%4 == 0:
			sb.Append(diverge[r.Intn(len(diverge))])
		default:
			sb.Append(duckAgree[r.Intn(len(duckAgree))])
		}
		st := b.Field(2).(*array.StructBuilder)
		if null() {
			st.AppendNull()
		} else {
			st.Append(true)
			if null() {
				st.FieldBuilder(0).(*array.Int32Builder).AppendNull()
			} else {
				st.FieldBuilder(0).(*array.Int32Builder).Append(int32(r.Intn(2001) - 1000))
			}
			if null() {
				st.FieldBuilder(1).(*array.StringBuilder).AppendNull()
			} else {
				st.FieldBuilder(1).(*array.StringBuilder).Append(fmt.Sprintf("b%d-é", r.Intn(50)))
			}
		}
		lb := b.Field(3).(*array.ListBuilder)
		if null() {
			lb.AppendNull()
		} else {
			lb.Append(true)
			for n := r.Intn(4); n > 0; n-- {
				if null() {
					lb.ValueBuilder().(*array.Int64Builder).AppendNull()
				} else {
					lb.ValueBuilder().(*array.Int64Builder).Append(r.Int63n(1<<40) - 1<<39)
				}
			}
		}
		mb := b.Field(4).(*array.MapBuilder)
		if null() {
			mb.AppendNull()
		} else {
			mb.Append(true)
			for k := r.Intn(3); k > 0; k-- {
				mb.KeyBuilder().(*array.StringBuilder).Append(fmt.Sprintf("k%d", k))
				if null() {
					mb.ItemBuilder().(*array.Int32Builder).AppendNull()
				} else {
					mb.ItemBuilder().(*array.Int32Builder).Append(int32(r.Intn(100)))
				}
			}
		}
		if null() {
			b.Field(5).AppendNull()
		} else {
			b.Field(5).(*array.Decimal128Builder).Append(decimal128.FromI64(r.Int63n(2e11) - 1e11))
		}
		if null() {
			b.Field(6).AppendNull()
		} else {
			b.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(r.Int63n(4e15) - 1e15))
		}
		if null() {
			b.Field(7).AppendNull()
		} else {
			b.Field(7).(*array.Date32Builder).Append(arrow.Date32(r.Intn(40000) - 10000))
		}
		if null() {
			b.Field(8).AppendNull()
		} else {
			b.Field(8).(*array.Float64Builder).Append(r.NormFloat64() * 1e6)
		}
	}
	return b.NewRecordBatch()
}

type duckQuery struct {
	SQL string `json:"sql"`
	Out string `json:"out"`
}

// duckResult reads a DuckDB result (IPC file bytes) into one batch.
func duckResult(t *testing.T, mem memory.Allocator, dir, out string) arrow.RecordBatch {
	t.Helper()
	schema, batches := readIPCFile(t, mem, filepath.Join(dir, out))
	defer releaseAll(batches)
	for _, rb := range batches {
		validateRead(t, rb)
	}
	return concatBatches(t, mem, schema, batches)
}

// column renders column name of rb row by row.
func column(t *testing.T, rb arrow.RecordBatch, name string) []any {
	t.Helper()
	idx := rb.Schema().FieldIndices(name)
	require.Len(t, idx, 1, "column %q in %s", name, rb.Schema())
	col := rb.Column(idx[0])
	out := make([]any, col.Len())
	for i := range out {
		out[i] = renderValue(col, i)
	}
	return out
}

// TestDuckDB: DuckDB (duckdb-wasm) ingests rowbridge's Arrow output as an
// IPC stream, runs SQL over it (nested access, aggregates, TRY_CAST), and
// rowbridge reads the Arrow results back, checks them against values
// computed in Go, and takes DuckDB's table through every row codec.
func TestDuckDB(t *testing.T) {
	node := requireNode(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()

	src := duckBatch(mem)
	defer src.Release()
	enc, dec, err := newCodec("unsaferow-spark", duckSchema, mem)
	require.NoError(t, err)
	rows, err := encodeAll(enc, []arrow.RecordBatch{src})
	require.NoError(t, err)
	tbl, err := dec.Decode(rows.Slices())
	require.NoError(t, err)
	defer tbl.Release()
	testgen.EqualBatches(t, src, tbl)
	writeIPC(t, mem, duckSchema, filepath.Join(dir, "t.arrows"), "", tbl)

	queries := []duckQuery{
		{Out: "all.arrow", SQL: "SELECT * FROM t ORDER BY id"},
		{Out: "nested.arrow", SQL: `SELECT id, st.a AS a, st.b AS b, len(l)::BIGINT AS n, l[1] AS first,
			list_sum(l)::BIGINT AS lsum, cardinality(m)::BIGINT AS mn, map_keys(m) AS mk FROM t ORDER BY id`},
		{Out: "agg.arrow", SQL: `SELECT count(*)::BIGINT AS n, count(s)::BIGINT AS ns, sum(id)::BIGINT AS sid,
			sum(st.a)::BIGINT AS sa, count(st)::BIGINT AS nst, sum(len(l))::BIGINT AS nl,
			sum(d)::DECIMAL(18,2) AS sd, min(ts) AS mints, max(dt) AS maxdt, count(f)::BIGINT AS nf FROM t`},
		{Out: "trycast.arrow", SQL: "SELECT id, s, TRY_CAST(s AS INTEGER) AS v FROM t ORDER BY id"},
	}
	writeJSON(t, filepath.Join(dir, "duck.json"), map[string]any{
		"tables":  []map[string]string{{"name": "t", "stream": "t.arrows"}},
		"queries": queries,
	})
	code, stdout, stderr := runNode(t, node, "duck.mjs", dir)
	t.Log(strings.TrimSpace(stdout))
	require.Equal(t, 0, code, "duck.mjs failed:\n%s", stderr)

	t.Run("all", func(t *testing.T) { checkDuckAll(t, mem, dir, tbl) })
	t.Run("nested", func(t *testing.T) { checkDuckNested(t, mem, dir, tbl) })
	t.Run("aggregates", func(t *testing.T) { checkDuckAggregates(t, mem, dir, tbl) })
	t.Run("try_cast", func(t *testing.T) { checkDuckTryCast(t, mem, dir, tbl) })
}

// checkDuckAll: SELECT * comes back with the same values, and DuckDB's own
// Arrow (its schema and buffers) survives every row codec exactly.
func checkDuckAll(t *testing.T, mem memory.Allocator, dir string, tbl arrow.RecordBatch) {
	res := duckResult(t, mem, dir, "all.arrow")
	defer res.Release()
	require.Equal(t, tbl.NumRows(), res.NumRows())
	t.Logf("DuckDB schema: %s", res.Schema())
	for _, f := range tbl.Schema().Fields() {
		assert.Equal(t, column(t, tbl, f.Name), column(t, res, f.Name), "column %s", f.Name)
	}
	for _, codec := range codecs {
		enc, dec, err := newCodec(codec, res.Schema(), mem)
		require.NoError(t, err, "%s schema %s", codec, res.Schema())
		rows, err := encodeAll(enc, []arrow.RecordBatch{res})
		require.NoError(t, err, codec)
		again, err := dec.Decode(rows.Slices())
		require.NoError(t, err, codec)
		testgen.EqualBatches(t, res, again)
		again.Release()

		// The rows of DuckDB's copy are the rows of the original, byte for
		// byte: nothing was lost on the way through DuckDB.
		origEnc, _, err := newCodec(codec, tbl.Schema(), mem)
		require.NoError(t, err, codec)
		orig, err := encodeAll(origEnc, []arrow.RecordBatch{tbl})
		require.NoError(t, err, codec)
		require.Equal(t, orig.Offsets, rows.Offsets, "%s row sizes", codec)
		require.True(t, bytes.Equal(orig.Data, rows.Data), "%s: the rows of DuckDB's result differ from the original rows", codec)
	}
}

func checkDuckNested(t *testing.T, mem memory.Allocator, dir string, tbl arrow.RecordBatch) {
	res := duckResult(t, mem, dir, "nested.arrow")
	defer res.Release()
	st := tbl.Column(2).(*array.Struct)
	l := tbl.Column(3).(*array.List)
	m := tbl.Column(4).(*array.Map)
	lv := l.ListValues().(*array.Int64)
	want := map[string][]any{}
	for i := 0; i < int(tbl.NumRows()); i++ {
		a, b := any(nil), any(nil)
		if st.IsValid(i) {
			a, b = renderValue(st.Field(0), i), renderValue(st.Field(1), i)
		}
		want["a"] = append(want["a"], a)
		want["b"] = append(want["b"], b)
		var n, first, lsum any
		if l.IsValid(i) {
			start, end := l.ValueOffsets(i)
			n = fmt.Sprint(end - start)
			if end > start {
				first = renderValue(lv, int(start))
			}
			sum, valid := int64(0), false
			for j := start; j < end; j++ {
				if lv.IsValid(int(j)) {
					sum, valid = sum+lv.Value(int(j)), true
				}
			}
			if valid {
				lsum = fmt.Sprint(sum)
			}
		}
		want["n"] = append(want["n"], n)
		want["first"] = append(want["first"], first)
		want["lsum"] = append(want["lsum"], lsum)
		var mn, mk any
		if m.IsValid(i) {
			start, end := m.ValueOffsets(i)
			mn = fmt.Sprint(end - start)
			keys := []any{}
			for j := start; j < end; j++ {
				keys = append(keys, renderValue(m.Keys(), int(j)))
			}
			mk = keys
		}
		want["mn"] = append(want["mn"], mn)
		want["mk"] = append(want["mk"], mk)
	}
	for _, name := range []string{"a", "b", "n", "first", "lsum", "mn", "mk"} {
		assert.Equal(t, want[name], column(t, res, name), "DuckDB %s", name)
	}
}

func checkDuckAggregates(t *testing.T, mem memory.Allocator, dir string, tbl arrow.RecordBatch) {
	res := duckResult(t, mem, dir, "agg.arrow")
	defer res.Release()
	require.Equal(t, int64(1), res.NumRows())
	count := func(a arrow.Array) string { return fmt.Sprint(a.Len() - a.NullN()) }
	st := tbl.Column(2).(*array.Struct)
	l := tbl.Column(3).(*array.List)
	var sid, sa, nl int64
	var sd decimal128.Num
	mints, maxdt := int64(1<<62), int32(-1<<30)
	for i := 0; i < int(tbl.NumRows()); i++ {
		sid += tbl.Column(0).(*array.Int64).Value(i)
		if st.IsValid(i) && st.Field(0).IsValid(i) {
			sa += int64(st.Field(0).(*array.Int32).Value(i))
		}
		if l.IsValid(i) {
			start, end := l.ValueOffsets(i)
			nl += end - start
		}
		if d := tbl.Column(5).(*array.Decimal128); d.IsValid(i) {
			sd = sd.Add(d.Value(i))
		}
		if ts := tbl.Column(6).(*array.Timestamp); ts.IsValid(i) {
			mints = min(mints, int64(ts.Value(i)))
		}
		if dt := tbl.Column(7).(*array.Date32); dt.IsValid(i) {
			maxdt = max(maxdt, int32(dt.Value(i)))
		}
	}
	want := map[string]any{
		"n": fmt.Sprint(tbl.NumRows()), "ns": count(tbl.Column(1)), "sid": fmt.Sprint(sid), "sa": fmt.Sprint(sa),
		"nst": count(st), "nl": fmt.Sprint(nl), "sd": sd.BigInt().String(), "mints": fmt.Sprint(mints),
		"maxdt": maxdt, "nf": count(tbl.Column(8)),
	}
	for name, w := range want {
		assert.Equal(t, []any{w}, column(t, res, name), "DuckDB %s", name)
	}
}

// checkDuckTryCast compares DuckDB's TRY_CAST(s AS INTEGER) with rowbridge's
// Presto try_cast of the same column read back from DuckDB.
func checkDuckTryCast(t *testing.T, mem memory.Allocator, dir string, tbl arrow.RecordBatch) {
	res := duckResult(t, mem, dir, "trycast.arrow")
	defer res.Release()
	require.Equal(t, column(t, tbl, "s"), column(t, res, "s"))
	s := res.Column(1)
	ours, err := trycast.Cast(mem, s, arrow.PrimitiveTypes.Int32, trycast.Options{Dialect: trycast.Presto})
	require.NoError(t, err)
	defer ours.Release()
	theirs := res.Column(2)
	require.True(t, arrow.TypeEqual(arrow.PrimitiveTypes.Int32, theirs.DataType()), "DuckDB type %s", theirs.DataType())
	agreed, diverged := 0, 0
	for i := 0; i < s.Len(); i++ {
		if s.IsNull(i) {
			assert.True(t, ours.IsNull(i) && theirs.IsNull(i), "row %d: null input", i)
			continue
		}
		in := s.(*array.String).Value(i)
		if v, ok := duckDiverge[in]; ok {
			diverged++
			assert.True(t, ours.IsNull(i), "rowbridge try_cast(%q) should be null under Presto", in)
			assert.Equal(t, v, renderValue(theirs, i), "DuckDB TRY_CAST(%q)", in)
			continue
		}
		agreed++
		assert.Equal(t, renderValue(theirs, i), renderValue(ours, i), "TRY_CAST(%q): DuckDB vs rowbridge", in)
	}
	assert.Greater(t, agreed, 300)
	assert.Greater(t, diverged, 50)
}
