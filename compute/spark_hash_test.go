package compute

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
)

func jsonArray(t *testing.T, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	a, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Release)
	return a
}

func int32s(t *testing.T, d compute.Datum) []int32 {
	t.Helper()
	var arr arrow.Array
	switch d := d.(type) {
	case *compute.ArrayDatum:
		arr = d.MakeArray()
	case *compute.ChunkedDatum:
		if len(d.Chunks()) != 1 {
			t.Fatalf("%d chunks, want 1", len(d.Chunks()))
		}
		arr = d.Chunks()[0]
		arr.Retain()
	default:
		t.Fatalf("result is a %s", d.Kind())
	}
	defer arr.Release()
	if err := array.ValidateFull(arr); err != nil {
		t.Fatal(err)
	}
	if arr.DataType().ID() != arrow.INT32 || arr.NullN() != 0 {
		t.Fatalf("result %s with %d nulls", arr.DataType(), arr.NullN())
	}
	return append([]int32(nil), arr.(*array.Int32).Int32Values()...)
}

// TestSparkHashArrays: hash('Spark', array(123), 2) = -1321691492 is the
// example of Spark's own function documentation (Murmur3Hash's
// ExpressionDescription); the others are Velox's HashTest StringInt32
// (hash(c0, c1) with nulls) and Sail's hash(1, 'a', 2).
func TestSparkHashArrays(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the arrays' cleanups
	ctx := testCtx(t, mem)
	s := jsonArray(t, mem, arrow.BinaryTypes.String, `["Spark", null, "", null, "", "a"]`)
	l := jsonArray(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int32), `[[123], null, null, null, null, null]`)
	i := jsonArray(t, mem, arrow.PrimitiveTypes.Int32, `[2, null, null, 0, 0, null]`)
	out, err := compute.CallFunction(ctx, "spark_hash", nil, compute.NewDatumWithoutOwning(s), compute.NewDatumWithoutOwning(l), compute.NewDatumWithoutOwning(i))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	want := []int32{-1321691492, 42, 142593372, 933211791, 1143746540, 0}
	got := int32s(t, out)
	for r := 0; r < 5; r++ {
		if got[r] != want[r] {
			t.Errorf("row %d: %d, want %d", r, got[r], want[r])
		}
	}
	// Sail: hash(1, 'a', 2) = -355304976, with scalars broadcast over one array.
	a := jsonArray(t, mem, arrow.BinaryTypes.String, `["a", "a"]`)
	out2, err := compute.CallFunction(ctx, "spark_hash", nil, compute.NewDatum(int32(1)), compute.NewDatumWithoutOwning(a), compute.NewDatum(scalar.NewInt32Scalar(2)))
	if err != nil {
		t.Fatal(err)
	}
	defer out2.Release()
	if got := int32s(t, out2); got[0] != -355304976 || got[1] != -355304976 {
		t.Errorf("hash(1, 'a', 2) = %v, want -355304976 twice", got)
	}
}

// TestSparkHashChunked: chunked arguments whose chunk layouts differ give
// the hash of the concatenated rows (Velox's array<bigint> values:
// [1..5] -> 2101165938, [] -> 42, [1, 2, 3] -> 1045631400; then a second
// argument of nulls, which changes nothing).
func TestSparkHashChunked(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the arrays' cleanups
	ctx := testCtx(t, mem)
	lt := arrow.ListOf(arrow.PrimitiveTypes.Int64)
	c1 := arrow.NewChunked(lt, []arrow.Array{jsonArray(t, mem, lt, `[[1, 2, 3, 4, 5]]`), jsonArray(t, mem, lt, `[[], [1, 2, 3]]`)})
	defer c1.Release()
	c2 := arrow.NewChunked(arrow.PrimitiveTypes.Int32, []arrow.Array{jsonArray(t, mem, arrow.PrimitiveTypes.Int32, `[null, null]`),
		jsonArray(t, mem, arrow.PrimitiveTypes.Int32, `[]`), jsonArray(t, mem, arrow.PrimitiveTypes.Int32, `[null]`)})
	defer c2.Release()
	d1, d2 := compute.NewDatum(c1), compute.NewDatum(c2) // each holds a reference
	defer d1.Release()
	defer d2.Release()
	out, err := compute.CallFunction(ctx, "spark_hash", nil, d1, d2)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	got := int32s(t, out)
	for r, w := range []int32{2101165938, 42, 1045631400} {
		if got[r] != w {
			t.Errorf("row %d: %d, want %d", r, got[r], w)
		}
	}
	// All scalars: a scalar result (hash(42) = 29417773, Sail); a null
	// scalar leaves it as is.
	sc, err := compute.CallFunction(ctx, "spark_hash", nil, compute.NewDatum(int32(42)), compute.NewDatum(scalar.MakeNullScalar(arrow.BinaryTypes.String)))
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Release()
	if v, ok := sc.(*compute.ScalarDatum); !ok || v.Value.(*scalar.Int32).Value != 29417773 {
		t.Errorf("hash(42, null) = %v, want scalar 29417773", sc)
	}
}

func TestSparkHashErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the arrays' cleanups
	ctx := testCtx(t, mem)
	if _, err := compute.CallFunction(ctx, "spark_hash", nil); err == nil {
		t.Error("no arguments accepted")
	}
	m := jsonArray(t, mem, arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32), `[[{"key": 1, "value": 1}]]`)
	i := jsonArray(t, mem, arrow.PrimitiveTypes.Int32, `[1]`)
	_, err := compute.CallFunction(ctx, "spark_hash", nil, compute.NewDatumWithoutOwning(i), compute.NewDatumWithoutOwning(m))
	if !errors.Is(err, arrow.ErrNotImplemented) || !strings.Contains(err.Error(), "argument 1") {
		t.Errorf("map argument: %v", err)
	}
	u := jsonArray(t, mem, arrow.PrimitiveTypes.Uint64, `[1]`)
	if _, err := compute.CallFunction(ctx, "spark_hash", nil, compute.NewDatumWithoutOwning(u)); !errors.Is(err, arrow.ErrNotImplemented) {
		t.Errorf("uint64 argument: %v", err)
	}
	two := jsonArray(t, mem, arrow.PrimitiveTypes.Int32, `[1, 2]`)
	if _, err := compute.CallFunction(ctx, "spark_hash", nil, compute.NewDatumWithoutOwning(i), compute.NewDatumWithoutOwning(two)); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("lengths 1 and 2: %v", err)
	}
}
