package bench

import (
	"context"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	rbcompute "github.com/rowbridge/rowbridge/compute"
	"github.com/rowbridge/rowbridge/trycast"
)

// The Velox CastBenchmark shape: 1000-row utf8 columns without nulls,
// each expression evaluated 100 times per run (100,000 row casts), Presto
// semantics, int32 target. The *_1m groups run the same expressions once
// over 1M-row columns.
const (
	veloxRows  = 1000
	veloxIters = 100
	bigRows    = 1_000_000
)

// CastCases lists the cast benchmarks: try_cast, try(sql_cast) and sql_cast
// next to arrow-go's compute.CastArray and a strconv+builder loop.
func CastCases() []Case {
	var cases []Case
	for _, g := range []struct {
		name        string
		rows, iters int
	}{{"cast_int", veloxRows, veloxIters}, {"cast_int_1m", bigRows, 1}} {
		valid := func(i int) string { return strconv.Itoa(i) }
		empty := func(int) string { return "" }
		invalid := func(int) string { return "$" }
		add := func(name string, col func(int) string, expr evaluator) {
			cases = append(cases, castCase(g.name, name, g.rows, g.iters, col, arrow.PrimitiveTypes.Int32, expr))
		}
		add("try_cast(empty)", empty, tryCast)
		add("try(sql_cast(empty))", empty, trySQLCast)
		add("try_cast(invalid)", invalid, tryCast)
		add("try(sql_cast(invalid))", invalid, trySQLCast)
		add("try_cast(valid)", valid, tryCast)
		add("try(sql_cast(valid))", valid, trySQLCast)
		add("sql_cast(valid)", valid, sqlCast)
		add("trycast.Cast(valid)", valid, directCast)
		add("arrow_cast(valid)", valid, arrowCast)
		add("strconv_builder(valid)", valid, strconvBuilder)
	}
	dec := &arrow.Decimal128Type{Precision: 12, Scale: 2}
	for _, s := range []struct {
		group, name string
		col         func(int) string
		to          arrow.DataType
		expr        evaluator
	}{
		{"cast_double", "try_cast(valid)", func(i int) string { return strconv.Itoa(i) + ".12345678910" }, arrow.PrimitiveTypes.Float64, tryCast},
		{"cast_double", "try_cast(nan)", func(int) string { return "NaN" }, arrow.PrimitiveTypes.Float64, tryCast},
		{"cast_double", "try_cast(invalid)", func(int) string { return "$" }, arrow.PrimitiveTypes.Float64, tryCast},
		{"cast_double", "try(sql_cast(invalid))", func(int) string { return "$" }, arrow.PrimitiveTypes.Float64, trySQLCast},
		{"cast_double", "arrow_cast(valid)", func(i int) string { return strconv.Itoa(i) + ".12345678910" }, arrow.PrimitiveTypes.Float64, arrowCast},
		{"cast_date", "try_cast(valid)", func(i int) string { return fmt.Sprintf("2024-05-%02d", i%30+1) }, arrow.FixedWidthTypes.Date32, tryCast},
		{"cast_date", "try_cast(invalid)", func(i int) string { return "2024-05..." + strconv.Itoa(i) }, arrow.FixedWidthTypes.Date32, tryCast},
		{"cast_date", "try_cast(empty)", func(int) string { return "" }, arrow.FixedWidthTypes.Date32, tryCast},
		{"cast_decimal", "try_cast(valid)", func(i int) string { return strconv.Itoa(i) + "." + strconv.Itoa(i%100) }, dec, tryCast},
		{"cast_decimal", "try_cast(invalid)", func(int) string { return "$" }, dec, tryCast},
		{"cast_decimal", "try(sql_cast(invalid))", func(int) string { return "$" }, dec, trySQLCast},
	} {
		cases = append(cases, castCase(s.group, s.name, veloxRows, veloxIters, s.col, s.to, s.expr))
	}
	return cases
}

// An evaluator casts col to type to once and releases the result.
type evaluator func(ctx context.Context, mem memory.Allocator, col arrow.Array, to arrow.DataType) error

func castCase(group, name string, rows, iters int, col func(int) string, to arrow.DataType, expr evaluator) Case {
	return Case{
		Group: group,
		Name:  name,
		Rows:  rows * iters,
		Setup: func(mem memory.Allocator) (func() error, func()) {
			if err := rbcompute.Register(compute.GetFunctionRegistry()); err != nil {
				panic(err) // only if another function took our names
			}
			ctx := compute.WithAllocator(context.Background(), mem)
			arr := stringColumn(mem, rows, col)
			run := func() error {
				for range iters {
					if err := expr(ctx, mem, arr, to); err != nil {
						return err
					}
				}
				return nil
			}
			return run, arr.Release
		},
	}
}

func stringColumn(mem memory.Allocator, rows int, col func(int) string) arrow.Array {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	for i := range rows {
		b.Append(col(i))
	}
	return b.NewArray()
}

func call(ctx context.Context, name string, opts compute.FunctionOptions, col arrow.Array) error {
	in := compute.NewDatumWithoutOwning(col)
	out, err := compute.CallFunction(ctx, name, opts, in)
	if err != nil {
		return err
	}
	out.Release()
	return nil
}

func tryCast(ctx context.Context, _ memory.Allocator, col arrow.Array, to arrow.DataType) error {
	return call(ctx, "try_cast", &rbcompute.SQLCastOptions{ToType: to}, col)
}

func sqlCast(ctx context.Context, _ memory.Allocator, col arrow.Array, to arrow.DataType) error {
	return call(ctx, "sql_cast", &rbcompute.SQLCastOptions{ToType: to}, col)
}

func trySQLCast(ctx context.Context, _ memory.Allocator, col arrow.Array, to arrow.DataType) error {
	return call(ctx, "try", &rbcompute.TryOptions{Func: "sql_cast", Options: &rbcompute.SQLCastOptions{ToType: to}}, col)
}

func directCast(_ context.Context, mem memory.Allocator, col arrow.Array, to arrow.DataType) error {
	out, err := trycast.Cast(mem, col, to, trycast.Options{})
	if err != nil {
		return err
	}
	out.Release()
	return nil
}

func arrowCast(ctx context.Context, _ memory.Allocator, col arrow.Array, to arrow.DataType) error {
	out, err := compute.CastArray(ctx, col, compute.SafeCastOptions(to))
	if err != nil {
		return err
	}
	out.Release()
	return nil
}

// strconvBuilder is the naive baseline: strconv.ParseInt per value into an
// arrow-go builder, null on error (int32 targets only).
func strconvBuilder(_ context.Context, mem memory.Allocator, col arrow.Array, _ arrow.DataType) error {
	strs := col.(*array.String)
	b := array.NewInt32Builder(mem)
	defer b.Release()
	b.Reserve(strs.Len())
	for i := range strs.Len() {
		v, err := strconv.ParseInt(strs.Value(i), 10, 32)
		if err != nil {
			b.AppendNull()
			continue
		}
		b.Append(int32(v))
	}
	out := b.NewArray()
	out.Release()
	return nil
}
