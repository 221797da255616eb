package compute

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/casttest"
	"github.com/rowbridge/rowbridge/trycast"
)

// testCtx registers the functions in a fresh child registry and routes
// allocations to mem.
func testCtx(t testing.TB, mem memory.Allocator) context.Context {
	t.Helper()
	reg := compute.NewChildRegistry(compute.GetFunctionRegistry())
	if err := Register(reg); err != nil {
		t.Fatal(err)
	}
	ectx := compute.DefaultExecCtx()
	ectx.Registry = reg
	return compute.WithAllocator(compute.SetExecCtx(context.Background(), ectx), mem)
}

// stringCase is a public case whose input is a string.
type stringCase struct{ casttest.Case }

func (c stringCase) dialect() trycast.Dialect {
	switch c.DialectName {
	case "spark":
		return trycast.Spark
	case "spark_ansi":
		return trycast.SparkANSI
	}
	return trycast.Presto
}

func (c stringCase) name() string { return fmt.Sprintf("%s/%s/%q", c.DialectName, c.To, c.Input) }

func loadStringCases(t *testing.T) []stringCase {
	all, err := casttest.Load("../trycast/testdata/trycast_cases_public.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []stringCase
	for _, c := range all {
		if c.From == "string" {
			cases = append(cases, stringCase{c})
		}
	}
	if len(cases) < 100 {
		t.Fatalf("only %d string cases", len(cases))
	}
	return cases
}

// caseColumn is 40 rows of the case's input with a null every third row,
// sliced at offset 5.
func caseColumn(mem memory.Allocator, dt arrow.DataType, v string) arrow.Array {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for i := 0; i < 40; i++ {
		switch {
		case i%3 == 0:
			b.AppendNull()
		case dt.ID() == arrow.BINARY:
			b.(*array.BinaryBuilder).Append([]byte(v))
		case dt.ID() == arrow.LARGE_STRING:
			b.(*array.LargeStringBuilder).Append(v)
		default:
			b.(*array.StringBuilder).Append(v)
		}
	}
	full := b.NewArray()
	defer full.Release()
	return array.NewSlice(full, 5, 40)
}

func call(ctx context.Context, name string, opts compute.FunctionOptions, arg compute.Datum) (compute.Datum, error) {
	return compute.CallFunction(ctx, name, opts, arg)
}

func trySQL(opts *CastOptions) *TryOptions { return &TryOptions{Func: "sql_cast", Options: opts} }

// TestPublicCasesThroughCompute: every string case, for utf8, large_utf8
// and binary, as an array with nulls at offset 5, as two chunks and as a
// scalar, through try_cast, sql_cast and try(sql_cast). Values must equal
// the direct trycast.Cast (checked against the cases in package trycast);
// the null pattern and the sql_cast error are checked against the case.
func TestPublicCasesThroughCompute(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := testCtx(t, mem)
	for _, c := range loadStringCases(t) {
		to := casttest.ArrowType(t, c.To)
		opts := &CastOptions{ToType: to, Dialect: c.dialect()}
		input := c.Input.(string)
		wantErr := c.Expected == nil && c.PlainCastErrors
		for _, dt := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.Binary} {
			col := caseColumn(mem, dt, input)
			direct, err := trycast.Cast(mem, col, to, trycast.Options{Dialect: c.dialect()})
			if err != nil {
				t.Fatalf("%s: %v", c.name(), err)
			}
			checkArrayResults(t, ctx, c, col, direct, opts, wantErr)
			checkChunkedResults(t, ctx, mem, c, col, direct, opts, wantErr)
			checkScalarResults(t, ctx, c, col, direct, opts, wantErr)
			direct.Release()
			col.Release()
		}
	}
}

// callEach calls try_cast, try(sql_cast) and sql_cast with arg and hands
// each result to check, then releases it. When the case makes sql_cast
// fail (wantErr), checkErr gets its error instead. kind names the argument
// ("chunked ", "scalar ") in messages.
func callEach(t *testing.T, ctx context.Context, c stringCase, kind string, arg compute.Datum, opts *CastOptions, wantErr bool,
	checkErr func(error), check func(fn string, res compute.Datum)) {
	t.Helper()
	for _, fn := range []struct {
		name string
		opts compute.FunctionOptions
	}{{"try_cast", opts}, {"try", trySQL(opts)}, {"sql_cast", opts}} {
		res, err := call(ctx, fn.name, fn.opts, arg)
		if fn.name == "sql_cast" && wantErr {
			if err == nil {
				res.Release()
			}
			checkErr(err)
			continue
		}
		if err != nil {
			t.Errorf("%s: %s%s: %v", c.name(), kind, fn.name, err)
			continue
		}
		check(fn.name, res)
		res.Release()
	}
}

// wantSQLCastError is a checkErr of callEach that needs only some error.
func wantSQLCastError(t *testing.T, c stringCase, kind string) func(error) {
	return func(err error) {
		if err == nil {
			t.Errorf("%s: %ssql_cast: no error", c.name(), kind)
		}
	}
}

func checkArrayResults(t *testing.T, ctx context.Context, c stringCase, col, direct arrow.Array, opts *CastOptions, wantErr bool) {
	t.Helper()
	checkErr := func(err error) {
		var ve *trycast.ValueError
		if !errors.As(err, &ve) || ve.Row != 0 || !errors.Is(err, arrow.ErrInvalid) || !errors.Is(err, rowbridge.ErrValue) {
			t.Errorf("%s: sql_cast error %v, want row 0", c.name(), err)
		}
	}
	callEach(t, ctx, c, "", compute.NewDatumWithoutOwning(col), opts, wantErr, checkErr, func(fn string, res compute.Datum) {
		out := res.(*compute.ArrayDatum).MakeArray()
		defer out.Release()
		if !array.ApproxEqual(out, direct, array.WithNaNsEqual(true)) {
			t.Errorf("%s: %s gave %v, trycast.Cast %v", c.name(), fn, out, direct)
		}
		if err := array.ValidateFull(out); err != nil {
			t.Errorf("%s: %s: %v", c.name(), fn, err)
		}
		wantNulls := 12 // rows 6, 9, ..., 39 of the 5..39 slice
		if c.Expected == nil {
			wantNulls = col.Len()
		}
		if out.NullN() != wantNulls {
			t.Errorf("%s: %s: %d nulls, want %d", c.name(), fn, out.NullN(), wantNulls)
		}
	})
}

func checkChunkedResults(t *testing.T, ctx context.Context, mem memory.Allocator, c stringCase, col, direct arrow.Array, opts *CastOptions, wantErr bool) {
	t.Helper()
	a, b := array.NewSlice(col, 0, 17), array.NewSlice(col, 17, int64(col.Len()))
	ch := arrow.NewChunked(col.DataType(), []arrow.Array{a, b})
	a.Release()
	b.Release()
	defer ch.Release()
	callEach(t, ctx, c, "chunked ", compute.NewDatumWithoutOwning(ch), opts, wantErr, wantSQLCastError(t, c, "chunked "), func(fn string, res compute.Datum) {
		got := res.(*compute.ChunkedDatum).Value
		if len(got.Chunks()) != 2 {
			t.Errorf("%s: %d chunks", c.name(), len(got.Chunks()))
		}
		flat, err := array.Concatenate(got.Chunks(), mem)
		if err != nil {
			t.Fatal(err)
		}
		defer flat.Release()
		if !array.ApproxEqual(flat, direct, array.WithNaNsEqual(true)) {
			t.Errorf("%s: chunked %s gave %v, want %v", c.name(), fn, flat, direct)
		}
	})
}

func checkScalarResults(t *testing.T, ctx context.Context, c stringCase, col, direct arrow.Array, opts *CastOptions, wantErr bool) {
	t.Helper()
	sc, err := scalar.GetScalar(col, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := sc.(scalar.Releasable); ok {
		defer r.Release()
	}
	callEach(t, ctx, c, "scalar ", compute.NewDatumWithoutOwning(sc), opts, wantErr, wantSQLCastError(t, c, "scalar "), func(fn string, res compute.Datum) {
		got := res.(*compute.ScalarDatum).Value
		if got.IsValid() != direct.IsValid(0) {
			t.Errorf("%s: scalar %s valid %v, want %v", c.name(), fn, got.IsValid(), direct.IsValid(0))
			return
		}
		if !got.IsValid() {
			return
		}
		one, err := scalar.MakeArrayFromScalar(got, 1, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		defer one.Release()
		want := array.NewSlice(direct, 0, 1)
		defer want.Release()
		if !array.ApproxEqual(one, want, array.WithNaNsEqual(true)) {
			t.Errorf("%s: scalar %s = %s, want %v", c.name(), fn, got, want)
		}
	})
}
