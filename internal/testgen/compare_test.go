package testgen

import (
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
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
