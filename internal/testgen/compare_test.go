package testgen

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder captures failures instead of failing the real test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, format)
	_ = args
}

func batchFromJSON(t *testing.T, mem memory.Allocator, schema *arrow.Schema, js string) arrow.RecordBatch {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(js))
	require.NoError(t, err)
	return rec
}

func TestDiffBatchesFindsNestedDifference(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema, err := ddl.Parse("id INT, m MAP<STRING, STRUCT<a: ARRAY<INT>, b: DOUBLE>>")
	require.NoError(t, err)
	want := batchFromJSON(t, mem, schema, `[
		{"id": 1, "m": [{"key": "x", "value": {"a": [1, 2], "b": 0.5}}]},
		{"id": 2, "m": [{"key": "y", "value": {"a": [3, null], "b": 1.5}}, {"key": "z", "value": null}]}]`)
	defer want.Release()
	got := batchFromJSON(t, mem, schema, `[
		{"id": 1, "m": [{"key": "x", "value": {"a": [1, 2], "b": 0.5}}]},
		{"id": 2, "m": [{"key": "y", "value": {"a": [3, 4], "b": 1.5}}, {"key": "z", "value": null}]}]`)
	defer got.Release()

	assert.Empty(t, DiffBatches(want, want, 10))
	diffs := DiffBatches(want, got, 10)
	require.Len(t, diffs, 1)
	assert.Equal(t, `row 1, column 1 "m": m{0}.value.a[1]: want null, got 4`, diffs[0])

	rec := &recorder{TB: t}
	assert.False(t, EqualBatches(rec, want, got))
	assert.Len(t, rec.errs, 1)
	assert.True(t, EqualBatches(rec, got, got))
}

func TestDiffBatchesFloatsAndNulls(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema, err := ddl.Parse("f DOUBLE, s STRUCT<x: INT>")
	require.NoError(t, err)
	build := func(f float64, x int32, structNull bool) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, schema)
		defer b.Release()
		b.Field(0).(*array.Float64Builder).Append(f)
		sb := b.Field(1).(*array.StructBuilder)
		if structNull {
			// A null struct whose child slot still holds a value: ignored.
			sb.Append(false)
			sb.FieldBuilder(0).(*array.Int32Builder).Append(x)
		} else {
			sb.Append(true)
			sb.FieldBuilder(0).(*array.Int32Builder).Append(x)
		}
		return b.NewRecordBatch()
	}
	nan1, nan2 := build(math.NaN(), 1, false), build(math.Float64frombits(0x7ff8000000000123), 1, false)
	pz, nz := build(0, 1, false), build(math.Copysign(0, -1), 1, false)
	n1, n2 := build(1, 5, true), build(1, 6, true)
	v1, v2 := build(1, 5, false), build(1, 6, false)
	for _, r := range []arrow.RecordBatch{nan1, nan2, pz, nz, n1, n2, v1, v2} {
		defer r.Release()
	}
	assert.Empty(t, DiffBatches(nan1, nan2, 10), "NaN equals NaN")
	assert.Equal(t, []string{`row 0, column 0 "f": f: want 0, got -0`}, DiffBatches(pz, nz, 10))
	assert.Empty(t, DiffBatches(n1, n2, 10), "values under a null struct do not count")
	assert.Equal(t, []string{`row 0, column 1 "s": s.x: want 5, got 6`}, DiffBatches(v1, v2, 10))
	assert.Len(t, DiffBatches(n1, v1, 10), 1)

	other, err := ddl.Parse("g DOUBLE, s STRUCT<x: INT>")
	require.NoError(t, err)
	o := array.NewRecordBatch(other, v1.Columns(), 1)
	defer o.Release()
	d := DiffBatches(v1, o, 10)
	require.Len(t, d, 1)
	assert.Contains(t, d[0], "schema differs")
}

func TestValidateBatchCatchesNullsInNotNullColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	nullable, err := ddl.Parse("a INT")
	require.NoError(t, err)
	strict, err := ddl.Parse("a INT NOT NULL")
	require.NoError(t, err)
	rec := batchFromJSON(t, mem, nullable, `[{"a": 1}, {"a": null}]`)
	defer rec.Release()
	assert.True(t, ValidateBatch(t, rec))
	bad := array.NewRecordBatch(strict, rec.Columns(), 2)
	defer bad.Release()
	r := &recorder{TB: t}
	assert.False(t, ValidateBatch(r, bad))
	assert.Len(t, r.errs, 1)
}

// What arrow-go's builders leave under nulls on zeroed memory is exactly
// what NullSlotProblem accepts: batches built by RecordFromJSON and by
// RandomBatch with nulls at every level compare equal to themselves.
func TestBuilderNullSlotsPass(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema, err := ddl.Parse("i INT, b BOOLEAN, d DECIMAL(30,2), s STRING, l ARRAY<BIGINT>, " +
		"m MAP<INT, STRING>, st STRUCT<x: INT NOT NULL, y: STRING, z: STRUCT<q: DOUBLE, n: VOID>, w: ARRAY<INT>>")
	require.NoError(t, err)
	rec := batchFromJSON(t, mem, schema, `[
		{"i": null, "b": null, "d": null, "s": null, "l": null, "m": null, "st": null},
		{"i": 1, "b": true, "d": "1.50", "s": "x", "l": [1, null], "m": [{"key": 1, "value": null}],
		 "st": {"x": 1, "y": null, "z": null, "w": [null]}}]`)
	defer rec.Release()
	assert.Empty(t, DiffBatches(rec, rec, 10))
	for _, p := range []float64{0.5, 1} {
		for seed := range int64(50) {
			r := rand.New(rand.NewSource(seed))
			s := RandomSchema(r)
			rb := RandomBatch(mem, r, s, 10, WithNullProbability(p))
			assert.Empty(t, DiffBatches(rb, rb, 10), "seed %d, schema %s", seed, s)
			rb.Release()
		}
	}
}

// Garbage under a null slot is a difference in got (and only in got): the
// same values built by builders on dirty memory, or a null string, list or
// struct slot that still holds a value.
func TestDiffBatchesSeesGarbageUnderNulls(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer checked.AssertSize(t, 0)
	schema, err := ddl.Parse("i INT, d DECIMAL(30,2), ts TIMESTAMP, st STRUCT<x: BIGINT>")
	require.NoError(t, err)
	js := `[{"i": null, "d": "1.00", "ts": null, "st": null}, {"i": 7, "d": null, "ts": 1, "st": {"x": null}}]`
	clean := batchFromJSON(t, checked, schema, js)
	defer clean.Release()
	dirty := batchFromJSON(t, DirtyAllocator(checked), schema, js)
	defer dirty.Release()
	assert.Empty(t, DiffBatches(dirty, clean, 10), "want is not checked under nulls")
	assert.Equal(t, []string{
		`row 0, column 0 "i": i: under a null, bytes a5a5a5a5, not zero`,
		`row 1, column 1 "d": d: under a null, bytes a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5, not zero`,
		`row 0, column 2 "ts": ts: under a null, bytes a5a5a5a5a5a5a5a5, not zero`,
		`row 0, column 3 "st": st: under a null, field x: bytes a5a5a5a5a5a5a5a5, not zero`,
		`row 1, column 3 "st": st.x: under a null, bytes a5a5a5a5a5a5a5a5, not zero`,
	}, DiffBatches(clean, dirty, 10))
	rec := &recorder{TB: t}
	assert.False(t, EqualBatches(rec, clean, dirty))
	assert.Equal(t, DiffBatches(clean, dirty, 10), NullSlotDiffs(dirty, 10), "NullSlotDiffs alone finds the same slots")
	assert.Empty(t, NullSlotDiffs(clean, 10))
	assert.Len(t, NullSlotDiffs(dirty, 2), 2)

	// Hand-made slots: a null string of 3 bytes, a null list of 2 elements,
	// a null struct whose field is valid, a null BOOLEAN whose bit is set.
	valid := memory.NewBufferBytes([]byte{0b10})
	str := array.NewData(arrow.BinaryTypes.String, 2, []*memory.Buffer{valid,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 3, 4})), memory.NewBufferBytes([]byte("abcd"))}, nil, 1, 0)
	defer str.Release()
	elems := array.NewData(arrow.PrimitiveTypes.Int32, 3, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{1, 2, 3}))}, nil, 0, 0)
	defer elems.Release()
	list := array.NewData(arrow.ListOf(arrow.PrimitiveTypes.Int32), 2, []*memory.Buffer{valid,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 2, 3}))}, []arrow.ArrayData{elems}, 1, 0)
	defer list.Release()
	field := array.NewData(arrow.PrimitiveTypes.Int32, 2, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{5, 6}))}, nil, 0, 0)
	defer field.Release()
	st := array.NewData(arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32}), 2,
		[]*memory.Buffer{valid}, []arrow.ArrayData{field}, 1, 0)
	defer st.Release()
	boolean := array.NewData(arrow.FixedWidthTypes.Boolean, 2, []*memory.Buffer{valid, memory.NewBufferBytes([]byte{0b11})}, nil, 1, 0)
	defer boolean.Release()
	for _, c := range []struct {
		data *array.Data
		want string
	}{
		{str, `a value of 3 bytes "abc"`},
		{list, `2 entries`},
		{st, `field x holds 5, not null`},
		{boolean, `the value bit is set`},
	} {
		a := array.MakeFromData(c.data)
		assert.Equal(t, c.want, NullSlotProblem(a, 0), "%s", a.DataType())
		a.Release()
	}
}

// Decimals that differ only above the low 32 bits of a word differ, and
// are shown exactly, on 32-bit machines too (arrow-go's ValueStr keeps the
// low half of each word there).
func TestDiffBatchesDecimalsExact(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	d128 := &arrow.Decimal128Type{Precision: 38, Scale: 2}
	d256 := &arrow.Decimal256Type{Precision: 76, Scale: 2}
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: d128}, {Name: "b", Type: d256}}, nil)
	batch := func(hi uint64) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, schema)
		defer b.Release()
		b.Field(0).(*array.Decimal128Builder).Append(decimal128.New(0, hi))
		b.Field(1).(*array.Decimal256Builder).Append(decimal256.New(0, 0, 0, hi))
		return b.NewRecordBatch()
	}
	want, got := batch(1<<40), batch(2<<40)
	defer want.Release()
	defer got.Release()
	assert.Equal(t, []string{
		`row 0, column 0 "a": a: want 10995116277.76, got 21990232555.52`,
		`row 0, column 1 "b": b: want 10995116277.76, got 21990232555.52`,
	}, DiffBatches(want, got, 10))
}
