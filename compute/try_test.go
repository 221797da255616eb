package compute

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/rowbridge/rowbridge/trycast"
)

func fromJSON(t testing.TB, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	a, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// callArray calls a function whose result is an array, and validates it.
func callArray(t *testing.T, ctx context.Context, name string, opts compute.FunctionOptions, args ...compute.Datum) arrow.Array {
	t.Helper()
	d, err := compute.CallFunction(ctx, name, opts, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	out := d.(*compute.ArrayDatum).MakeArray()
	if err := array.ValidateFull(out); err != nil {
		t.Fatal(err)
	}
	return out
}

func expectArray(t *testing.T, mem memory.Allocator, got arrow.Array, js string) {
	t.Helper()
	defer got.Release()
	want := fromJSON(t, mem, got.DataType(), js)
	defer want.Release()
	if !array.Equal(got, want) || got.NullN() != want.NullN() {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestSQLCastErrorNamesRow: the error names the first failing row of the
// whole input, across chunks, and its value.
func TestSQLCastErrorNamesRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := testCtx(t, mem)
	a := fromJSON(t, mem, arrow.BinaryTypes.String, `["1", null, "2"]`)
	b := fromJSON(t, mem, arrow.BinaryTypes.String, `["3", "4x", "bad"]`)
	ch := arrow.NewChunked(arrow.BinaryTypes.String, []arrow.Array{a, b})
	a.Release()
	b.Release()
	defer ch.Release()
	_, err := compute.CallFunction(ctx, "sql_cast", &CastOptions{ToType: arrow.PrimitiveTypes.Int32}, compute.NewDatumWithoutOwning(ch))
	var ve *trycast.ValueError
	if !errors.As(err, &ve) || ve.Row != 4 || ve.Value != `"4x"` {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), "row 4") || !strings.Contains(err.Error(), `"4x"`) {
		t.Errorf("message %q", err)
	}
	// Spark legacy CAST yields null instead of failing.
	res, err := compute.CallFunction(ctx, "sql_cast", &CastOptions{ToType: arrow.PrimitiveTypes.Int32, Dialect: trycast.Spark}, compute.NewDatumWithoutOwning(ch))
	if err != nil {
		t.Fatal(err)
	}
	if n := res.(*compute.ChunkedDatum).NullN(); n != 3 {
		t.Errorf("spark sql_cast: %d nulls, want 3", n)
	}
	res.Release()
}

// TestNestedModes: Spark ANSI try_cast nulls the element, try(sql_cast)
// the row, sql_cast fails naming the row.
func TestNestedModes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := testCtx(t, mem)
	in := fromJSON(t, mem, arrow.ListOf(arrow.BinaryTypes.String), `[["1","2"], ["3","x"], null]`)
	defer in.Release()
	arg := compute.NewDatumWithoutOwning(in)
	for _, d := range []trycast.Dialect{trycast.SparkANSI, trycast.Presto} {
		opts := &CastOptions{ToType: arrow.ListOf(arrow.PrimitiveTypes.Int32), Dialect: d}
		tc := callArray(t, ctx, "try_cast", opts, arg)
		if d == trycast.Presto {
			expectArray(t, mem, tc, `[[1,2], null, null]`)
		} else {
			expectArray(t, mem, tc, `[[1,2], [3,null], null]`)
		}
		expectArray(t, mem, callArray(t, ctx, "try", trySQL(opts), arg), `[[1,2], null, null]`)
		var ve *trycast.ValueError
		if _, err := compute.CallFunction(ctx, "sql_cast", opts, arg); !errors.As(err, &ve) || ve.Row != 1 {
			t.Errorf("%s sql_cast: %v", d, err)
		}
	}
	spark := &CastOptions{ToType: arrow.ListOf(arrow.PrimitiveTypes.Int32), Dialect: trycast.Spark}
	expectArray(t, mem, callArray(t, ctx, "try", trySQL(spark), arg), `[[1,2], [3,null], null]`)
}

// countingCast registers "counted_cast", arrow-go's cast (which fails the
// whole call on one bad string), counting its calls.
func countingCast(t *testing.T, ctx context.Context, calls *atomic.Int64) {
	reg := compute.GetExecCtx(ctx).Registry
	fn := compute.NewMetaFunction("counted_cast", compute.Unary(), compute.FunctionDoc{ArgNames: []string{"x"}},
		func(ctx context.Context, opts compute.FunctionOptions, args ...compute.Datum) (compute.Datum, error) {
			calls.Add(1)
			return compute.CallFunction(ctx, "cast", opts, args...)
		})
	if !reg.AddFunction(fn, false) {
		t.Fatal("cannot add counted_cast")
	}
}

// TestTryIsolatesFailingRows: try over an arrow-go function that fails
// the whole call nulls just the failing rows, with calls growing with the
// failures, not the rows.
func TestTryIsolatesFailingRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := testCtx(t, mem)
	var calls atomic.Int64
	countingCast(t, ctx, &calls)
	opts := &TryOptions{Func: "counted_cast", Options: compute.SafeCastOptions(arrow.PrimitiveTypes.Int32)}

	in := fromJSON(t, mem, arrow.BinaryTypes.String, `["1", "x", "3", null, "y", "6"]`)
	defer in.Release()
	expectArray(t, mem, callArray(t, ctx, "try", opts, compute.NewDatumWithoutOwning(in)),
		`[1, null, 3, null, null, 6]`)

	b := array.NewStringBuilder(mem)
	for i := 0; i < 4096; i++ {
		if i == 1234 {
			b.Append("bad")
		} else {
			b.Append("7")
		}
	}
	big := b.NewArray()
	b.Release()
	defer big.Release()
	calls.Store(0)
	out := callArray(t, ctx, "try", opts, compute.NewDatumWithoutOwning(big))
	if out.NullN() != 1 || out.IsValid(1234) || out.(*array.Int32).Value(1235) != 7 {
		t.Errorf("got %d nulls", out.NullN())
	}
	out.Release()
	if n := calls.Load(); n > 2*12+3 {
		t.Errorf("%d calls for one failure in 4096 rows", n)
	}

	// Two arguments, one a scalar: divide by zero fails only its rows.
	x := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[10, 20, 30]`)
	y := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[2, 0, 3]`)
	defer x.Release()
	defer y.Release()
	expectArray(t, mem, callArray(t, ctx, "try", &TryOptions{Func: "divide"},
		compute.NewDatumWithoutOwning(x), compute.NewDatumWithoutOwning(y)), `[5, null, 10]`)
	zero := compute.NewDatum(scalar.NewInt64Scalar(0))
	expectArray(t, mem, callArray(t, ctx, "try", &TryOptions{Func: "divide"},
		compute.NewDatumWithoutOwning(x), zero), `[null, null, null]`)

	// Scalars only: a failing call is a null scalar.
	res, err := compute.CallFunction(ctx, "try", opts, compute.NewDatum(scalar.NewStringScalar("nope")))
	if err != nil || res.(*compute.ScalarDatum).Value.IsValid() {
		t.Errorf("scalar try: %v %v", res, err)
	}
	if res != nil {
		res.Release()
	}

	// An error that does not depend on the rows is returned, not nulled.
	bad := &TryOptions{Func: "counted_cast", Options: compute.SafeCastOptions(arrow.FixedWidthTypes.Time32s)}
	if res, err := compute.CallFunction(ctx, "try", bad, compute.NewDatumWithoutOwning(in)); err == nil {
		res.Release()
		t.Error("unsupported cast under try: no error")
	}
}

// TestTryOfOwnCasts: try(try_cast) and try(try(sql_cast)) are try_cast.
func TestTryOfOwnCasts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := testCtx(t, mem)
	in := fromJSON(t, mem, arrow.BinaryTypes.String, `["1", "x"]`)
	defer in.Release()
	arg := compute.NewDatumWithoutOwning(in)
	opts := &CastOptions{ToType: arrow.PrimitiveTypes.Int8}
	expectArray(t, mem, callArray(t, ctx, "try", &TryOptions{Func: "try_cast", Options: opts}, arg), `[1, null]`)
	expectArray(t, mem, callArray(t, ctx, "try", &TryOptions{Func: "try", Options: trySQL(opts)}, arg), `[1, null]`)
}
