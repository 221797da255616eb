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
	"github.com/rowbridge/rowbridge/internal/casttest"
	"github.com/rowbridge/rowbridge/trycast"
)

func fromJSON(t testing.TB, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	if dec, ok := dt.(*arrow.Decimal128Type); ok { // arrow-go v18.8.0 parses decimals wrong on 386
		a, err := casttest.DecimalArray(mem, dec, js)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
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
	_, err := compute.CallFunction(ctx, "sql_cast", &SQLCastOptions{ToType: arrow.PrimitiveTypes.Int32}, compute.NewDatumWithoutOwning(ch))
	var ve *trycast.ValueError
	if !errors.As(err, &ve) || ve.Row != 4 || ve.Value != `"4x"` {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), "row 4") || !strings.Contains(err.Error(), `"4x"`) {
		t.Errorf("message %q", err)
	}
	// Spark legacy CAST yields null instead of failing.
	res, err := compute.CallFunction(ctx, "sql_cast", &SQLCastOptions{ToType: arrow.PrimitiveTypes.Int32, Dialect: trycast.Spark}, compute.NewDatumWithoutOwning(ch))
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
		opts := &SQLCastOptions{ToType: arrow.ListOf(arrow.PrimitiveTypes.Int32), Dialect: d}
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
	spark := &SQLCastOptions{ToType: arrow.ListOf(arrow.PrimitiveTypes.Int32), Dialect: trycast.Spark}
	expectArray(t, mem, callArray(t, ctx, "try", trySQL(spark), arg), `[[1,2], [3,null], null]`)
}

// countedCast is arrow-go's cast (which fails the whole call on one bad
// string) counting its calls. It reports itself as a scalar function, which
// it is in effect: try accepts only element-wise functions.
type countedCast struct {
	compute.Function
	calls *atomic.Int64
}

func (c countedCast) Name() string           { return "counted_cast" }
func (c countedCast) Kind() compute.FuncKind { return compute.FuncScalar }
func (c countedCast) Execute(ctx context.Context, opts compute.FunctionOptions, args ...compute.Datum) (compute.Datum, error) {
	c.calls.Add(1)
	return c.Function.Execute(ctx, opts, args...)
}

// countingCast registers "counted_cast", a countedCast.
func countingCast(t *testing.T, ctx context.Context, calls *atomic.Int64) {
	reg := compute.GetExecCtx(ctx).Registry
	cast, ok := reg.GetFunction("cast")
	if !ok {
		t.Fatal("no cast")
	}
	if !reg.AddFunction(countedCast{cast, calls}, false) {
		t.Fatal("cannot add counted_cast")
	}
}

// kindAs is a function reporting another kind, to stand for the kinds
// arrow-go v18.8.0 registers none of (aggregates).
type kindAs struct {
	compute.Function
	name string
	kind compute.FuncKind
}

func (k kindAs) Name() string           { return k.name }
func (k kindAs) Kind() compute.FuncKind { return k.kind }

// TestTryRefusesNotElementWise: try cannot isolate the failing rows of a
// function whose rows depend on each other; it refuses vector functions,
// aggregates and meta functions other than arrow-go's cast, whether or not
// the call would fail, and still runs scalar functions and cast.
func TestTryRefusesNotElementWise(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := testCtx(t, mem)
	reg := compute.GetExecCtx(ctx).Registry
	add, _ := reg.GetFunction("add")
	for _, k := range []kindAs{
		{add, "sum", compute.FuncScalarAgg},
		{add, "hash_sum", compute.FuncHashAgg},
		{add, "my_meta", compute.FuncMeta},
	} {
		if !reg.AddFunction(k, false) {
			t.Fatalf("cannot add %s", k.name)
		}
	}
	in := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[9223372036854775806, 1, 1, 1, 5, 6, 7, 8]`)
	defer in.Release()
	good := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2]`)
	defer good.Release()
	idx := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[1, 0]`)
	defer idx.Release()
	for _, c := range []struct {
		fn   string
		args []arrow.Array
	}{
		{"cumulative_sum_checked", []arrow.Array{in}},
		{"cumulative_sum_checked", []arrow.Array{good}},
		{"unique", []arrow.Array{in}},
		{"take", []arrow.Array{good, idx}},
		{"sum", []arrow.Array{in, in}},
		{"hash_sum", []arrow.Array{in, in}},
		{"my_meta", []arrow.Array{in, in}},
	} {
		ds := make([]compute.Datum, len(c.args))
		for i, a := range c.args {
			ds[i] = compute.NewDatumWithoutOwning(a)
		}
		res, err := compute.CallFunction(ctx, "try", &TryOptions{Func: c.fn}, ds...)
		if !errors.Is(err, arrow.ErrNotImplemented) || !strings.Contains(err.Error(), c.fn) {
			t.Errorf("try(%s): got %v, %v; want an arrow.ErrNotImplemented naming it", c.fn, res, err)
		}
		if res != nil {
			res.Release()
		}
	}
	// Element-wise functions still isolate their failing rows.
	one := compute.NewDatum(scalar.NewInt64Scalar(1))
	defer one.Release()
	expectArray(t, mem, callArray(t, ctx, "try", &TryOptions{Func: "add"}, compute.NewDatumWithoutOwning(in), one),
		`[9223372036854775807, 2, 2, 2, 6, 7, 8, 9]`)
	expectArray(t, mem, callArray(t, ctx, "try", &TryOptions{Func: "add"}, compute.NewDatumWithoutOwning(in), compute.NewDatumWithoutOwning(in)),
		`[null, 2, 2, 2, 10, 12, 14, 16]`)
	strs := fromJSON(t, mem, arrow.BinaryTypes.String, `["1", "x"]`)
	defer strs.Release()
	expectArray(t, mem, callArray(t, ctx, "try", &TryOptions{Func: "cast", Options: compute.SafeCastOptions(arrow.PrimitiveTypes.Int8)},
		compute.NewDatumWithoutOwning(strs)), `[1, null]`)
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
	opts := &SQLCastOptions{ToType: arrow.PrimitiveTypes.Int8}
	expectArray(t, mem, callArray(t, ctx, "try", &TryOptions{Func: "try_cast", Options: opts}, arg), `[1, null]`)
	expectArray(t, mem, callArray(t, ctx, "try", &TryOptions{Func: "try", Options: trySQL(opts)}, arg), `[1, null]`)
}
