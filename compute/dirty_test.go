package compute

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/rowbridge/rowbridge/internal/casttest"
)

// TestTryOnDirtyMemory: try over arrow-go functions on memory that is
// handed out dirty (0xA5) gives the same rows as on zeroed memory, with
// zeros under its nulls: the runs of nulls for failing rows are written
// whole, not left to the allocator.
func TestTryOnDirtyMemory(t *testing.T) {
	casttest.EachMemory(t, testTryOnDirtyMemory)
}

func testTryOnDirtyMemory(t *testing.T, mem memory.Allocator) {
	ctx := testCtx(t, mem)
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	x := fromJSON(t, mem, i64, `[10, 20, 30, null, 50, 60, 70, 80, 90, 100, 110]`)
	y := fromJSON(t, mem, i64, `[2, 0, 0, 1, 5, 0, 7, 0, 0, 0, 11]`)
	s := fromJSON(t, mem, str, `["1", "x", "y", null, "5", "z", "7", "w", "v", "u", "11"]`)
	defer x.Release()
	defer y.Release()
	defer s.Release()
	check := func(what string, got arrow.Array, js string) {
		t.Helper()
		defer got.Release()
		if err := casttest.NullSlots(got); err != nil {
			t.Errorf("%s: %v", what, err)
		}
		want := fromJSON(t, mem, got.DataType(), js)
		defer want.Release()
		if !array.Equal(got, want) || got.NullN() != want.NullN() {
			t.Errorf("%s: got %v, want %v", what, got, want)
		}
	}
	check("try(divide)", callArray(t, ctx, "try", &TryOptions{Func: "divide"}, compute.NewDatumWithoutOwning(x), compute.NewDatumWithoutOwning(y)),
		`[5, null, null, null, 10, null, 10, null, null, null, 10]`)
	check("try(cast) to int64", callArray(t, ctx, "try", &TryOptions{Func: "cast", Options: compute.SafeCastOptions(i64)}, compute.NewDatumWithoutOwning(s)),
		`[1, null, null, null, 5, null, 7, null, null, null, 11]`)
	for _, fn := range []string{"try_cast", "sql_cast"} {
		opts := &SQLCastOptions{ToType: arrow.PrimitiveTypes.Int32}
		topts := compute.FunctionOptions(opts)
		name := fn
		if fn == "sql_cast" {
			topts, name = trySQL(opts), "try"
		}
		check(fn, callArray(t, ctx, name, topts, compute.NewDatumWithoutOwning(s)),
			`[1, null, null, null, 5, null, 7, null, null, null, 11]`)
	}
	// Scalars only: a failing call is a null scalar.
	res, err := compute.CallFunction(ctx, "try", &TryOptions{Func: "divide"}, compute.NewDatum(scalar.NewInt64Scalar(1)), compute.NewDatum(scalar.NewInt64Scalar(0)))
	if err != nil || res.(*compute.ScalarDatum).Value.IsValid() {
		t.Errorf("scalar try: %v %v", res, err)
	}
	if res != nil {
		res.Release()
	}
}
