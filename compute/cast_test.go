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

// publicCase is one of the public cases (docs/trycast-cases.md).
type publicCase struct{ casttest.Case }

func (c publicCase) dialect() trycast.Dialect {
	switch c.DialectName {
	case "spark":
		return trycast.Spark
	case "spark_ansi":
		return trycast.SparkANSI
	}
	return trycast.Presto
}

func (c publicCase) name() string {
	return fmt.Sprintf("%s/%s->%s/%q", c.DialectName, c.From, c.To, fmt.Sprint(c.Input))
}

// loadPublicCases is every public case, string and numeric sources alike.
func loadPublicCases(t *testing.T) []publicCase {
	all, err := casttest.Load("../trycast/testdata/trycast_cases_public.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := make([]publicCase, len(all))
	strs := 0
	for i, c := range all {
		cases[i] = publicCase{c}
		if c.From == "string" {
			strs++
		}
	}
	if strs < 100 || len(cases)-strs < 40 {
		t.Fatalf("only %d string and %d other cases", strs, len(cases)-strs)
	}
	return cases
}

// sourceTypes are the input types a case runs as: utf8, large_utf8 and
// binary for a string case, else the case's own type.
func sourceTypes(t *testing.T, from string) []arrow.DataType {
	if from == "string" {
		return []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.Binary}
	}
	return []arrow.DataType{casttest.ArrowType(t, from)}
}

type rowKind uint8

const (
	rowNull  rowKind = iota // null input
	rowCase                 // the case's input
	rowOther                // one of the other values
)

// caseColumn is the case's input among other valid values of its source
// type and nulls: rows 5..39 of a 40-row array (an offset that is not a
// multiple of 8) where row i is null when i%3 == 0, else the case's input
// when i%4 == 1, else one of up to three other values that convert. Row 0
// of the slice is the case's input, row 1 null.
type caseColumn struct {
	arr    arrow.Array
	kinds  []rowKind
	other  []int         // per row, the index into lone of a rowOther row
	lone   []arrow.Array // each other value cast alone by trycast.Cast
	nulls  int           // null inputs
	inputs int           // rows holding the case's input
}

func newCaseColumn(t *testing.T, mem memory.Allocator, c publicCase, dt, to arrow.DataType) *caseColumn {
	t.Helper()
	col := &caseColumn{}
	var others []any
	for _, v := range casttest.OtherInputs(c.From) {
		if len(others) == 3 {
			break
		}
		if fmt.Sprint(v) == fmt.Sprint(c.Input) {
			continue
		}
		b := array.NewBuilder(mem, dt)
		err := casttest.Append(b, v)
		one := b.NewArray()
		b.Release()
		if err != nil {
			one.Release()
			continue // not a value of this type, a decimal too precise
		}
		out, f, err := trycast.CastWithFailures(mem, one, to, trycast.Options{Dialect: c.dialect()})
		one.Release()
		if err != nil {
			t.Fatalf("%s: %v", c.name(), err)
		}
		if f.Count > 0 || out.IsNull(0) {
			out.Release()
			continue
		}
		others = append(others, v)
		col.lone = append(col.lone, out)
	}
	if len(others) == 0 {
		t.Fatalf("%s: no other %s value converts to %s", c.name(), dt, to)
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for i := 0; i < 40; i++ {
		var kind rowKind
		k := (i / 2) % len(others)
		switch {
		case i%3 == 0:
			kind = rowNull
			b.AppendNull()
		case i%4 == 1:
			kind = rowCase
			if err := casttest.Append(b, c.Input); err != nil {
				t.Fatalf("%s: %v", c.name(), err)
			}
		default:
			kind = rowOther
			if err := casttest.Append(b, others[k]); err != nil {
				t.Fatal(err)
			}
		}
		if i < 5 {
			continue
		}
		col.kinds = append(col.kinds, kind)
		col.other = append(col.other, k)
		switch kind {
		case rowNull:
			col.nulls++
		case rowCase:
			col.inputs++
		}
	}
	full := b.NewArray()
	defer full.Release()
	col.arr = array.NewSlice(full, 5, 40)
	return col
}

func (col *caseColumn) release() {
	col.arr.Release()
	for _, a := range col.lone {
		a.Release()
	}
}

// check checks out, the result for rows [from, from+out.Len()) of the
// column: null inputs null, the case's input its expected result, every
// other value what it gives cast alone, and the exact null count.
func (col *caseColumn) check(t *testing.T, c publicCase, what string, out arrow.Array, from int) {
	t.Helper()
	if err := array.ValidateFull(out); err != nil {
		t.Errorf("%s: %s: %v", c.name(), what, err)
	}
	if err := casttest.NullSlots(out); err != nil {
		t.Errorf("%s: %s: %v", c.name(), what, err)
	}
	if from+out.Len() > col.arr.Len() {
		t.Errorf("%s: %s: %d rows from row %d of %d", c.name(), what, out.Len(), from, col.arr.Len())
		return
	}
	nulls := 0
	for j := 0; j < out.Len(); j++ {
		row := from + j
		switch col.kinds[row] {
		case rowNull:
			nulls++
			if out.IsValid(j) {
				t.Errorf("%s: %s: row %d: null input gave %s", c.name(), what, row, out.ValueStr(j))
			}
		case rowCase:
			if c.Expected == nil {
				nulls++
			}
			if err := casttest.CheckRow(c.Case, out, j); err != nil {
				t.Errorf("%s: %s: row %d: %v", c.name(), what, row, err)
			}
		case rowOther:
			lone := col.lone[col.other[row]]
			if out.IsNull(j) || !array.SliceApproxEqual(out, int64(j), int64(j+1), lone, 0, 1, array.WithNaNsEqual(true)) {
				t.Errorf("%s: %s: row %d: %s, alone it gives %s", c.name(), what, row, out.ValueStr(j), lone.ValueStr(0))
			}
		}
	}
	if out.NullN() != nulls {
		t.Errorf("%s: %s: NullN %d, want %d", c.name(), what, out.NullN(), nulls)
	}
}

func call(ctx context.Context, name string, opts compute.FunctionOptions, arg compute.Datum) (compute.Datum, error) {
	return compute.CallFunction(ctx, name, opts, arg)
}

func trySQL(opts *SQLCastOptions) *TryOptions { return &TryOptions{Func: "sql_cast", Options: opts} }

// TestPublicCasesThroughCompute: every public case (string cases for
// utf8, large_utf8 and binary) among other values and nulls at offset 5,
// as an array, as two chunks and as a scalar, through try_cast, sql_cast
// and try(sql_cast). The case's rows must hold its expected result, the
// others what they give alone; sql_cast must fail, naming the case's first
// row, exactly when the case's plain CAST errors in its dialect
// (plain_cast_errors: never for Spark legacy, which yields NULL).
//
// It runs on zeroed memory and on dirty memory (every byte handed out is
// 0xA5): null slots must hold zeros and zero lengths (casttest.NullSlots)
// either way.
func TestPublicCasesThroughCompute(t *testing.T) {
	casttest.EachMemory(t, func(t *testing.T, mem memory.Allocator) {
		ctx := testCtx(t, mem)
		for _, c := range loadPublicCases(t) {
			to := casttest.ArrowType(t, c.To)
			opts := &SQLCastOptions{ToType: to, Dialect: c.dialect()}
			wantErr := c.Expected == nil && c.PlainCastErrors
			for _, dt := range sourceTypes(t, c.From) {
				col := newCaseColumn(t, mem, c, dt, to)
				checkArrayResults(t, ctx, c, col, opts, wantErr)
				checkChunkedResults(t, ctx, c, col, opts, wantErr)
				checkScalarResults(t, ctx, c, col, opts, wantErr)
				col.release()
			}
		}
	})
}

// callEach calls try_cast, try(sql_cast) and sql_cast with arg and hands
// each result to check, then releases it. When the case makes sql_cast
// fail (wantErr), checkErr gets its error instead; a sql_cast error
// otherwise fails the test. kind names the argument ("chunked ",
// "scalar ") in messages.
func callEach(t *testing.T, ctx context.Context, c publicCase, kind string, arg compute.Datum, opts *SQLCastOptions, wantErr bool,
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

// wantRow0Error is a checkErr of callEach: sql_cast's error names row 0.
func wantRow0Error(t *testing.T, c publicCase, kind string) func(error) {
	return func(err error) {
		var ve *trycast.ValueError
		if !errors.As(err, &ve) || ve.Row != 0 || !errors.Is(err, arrow.ErrInvalid) || !errors.Is(err, rowbridge.ErrValue) {
			t.Errorf("%s: %ssql_cast error %v, want one for row 0", c.name(), kind, err)
		}
	}
}

func checkArrayResults(t *testing.T, ctx context.Context, c publicCase, col *caseColumn, opts *SQLCastOptions, wantErr bool) {
	t.Helper()
	callEach(t, ctx, c, "", compute.NewDatumWithoutOwning(col.arr), opts, wantErr, wantRow0Error(t, c, ""), func(fn string, res compute.Datum) {
		out := res.(*compute.ArrayDatum).MakeArray()
		defer out.Release()
		col.check(t, c, fn+" "+col.arr.DataType().String(), out, 0)
	})
}

func checkChunkedResults(t *testing.T, ctx context.Context, c publicCase, col *caseColumn, opts *SQLCastOptions, wantErr bool) {
	t.Helper()
	a, b := array.NewSlice(col.arr, 0, 17), array.NewSlice(col.arr, 17, int64(col.arr.Len()))
	ch := arrow.NewChunked(col.arr.DataType(), []arrow.Array{a, b})
	a.Release()
	b.Release()
	defer ch.Release()
	callEach(t, ctx, c, "chunked ", compute.NewDatumWithoutOwning(ch), opts, wantErr, wantRow0Error(t, c, "chunked "), func(fn string, res compute.Datum) {
		got := res.(*compute.ChunkedDatum).Value
		if len(got.Chunks()) != 2 {
			t.Errorf("%s: chunked %s: %d chunks", c.name(), fn, len(got.Chunks()))
			return
		}
		col.check(t, c, "chunked "+fn+" chunk 0", got.Chunk(0), 0)
		col.check(t, c, "chunked "+fn+" chunk 1", got.Chunk(1), 17)
	})
}

func checkScalarResults(t *testing.T, ctx context.Context, c publicCase, col *caseColumn, opts *SQLCastOptions, wantErr bool) {
	t.Helper()
	for row, wantErr := range []bool{wantErr, false} { // row 0 holds the case's input, row 1 is null
		sc, err := scalar.GetScalar(col.arr, row)
		if err != nil {
			t.Fatal(err)
		}
		kind := "scalar "
		if row == 1 {
			kind = "null scalar "
		}
		callEach(t, ctx, c, kind, compute.NewDatumWithoutOwning(sc), opts, wantErr, wantRow0Error(t, c, kind), func(fn string, res compute.Datum) {
			got := res.(*compute.ScalarDatum).Value
			if !arrow.TypeEqual(got.DataType(), opts.ToType) {
				t.Errorf("%s: %s%s: type %s", c.name(), kind, fn, got.DataType())
			}
			if row == 1 {
				if got.IsValid() {
					t.Errorf("%s: %s%s = %s, want null", c.name(), kind, fn, got)
				}
				return
			}
			one, err := scalar.MakeArrayFromScalar(got, 1, memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			defer one.Release()
			if err := casttest.CheckRow(c.Case, one, 0); err != nil {
				t.Errorf("%s: %s%s: %v", c.name(), kind, fn, err)
			}
		})
		if r, ok := sc.(scalar.Releasable); ok {
			r.Release()
		}
	}
}

// TestOffsetOverflowRowAcrossChunks: the row of a cast's offset overflow
// in a later chunk is counted from the whole input's first row, like a
// sql_cast error's.
func TestOffsetOverflowRowAcrossChunks(t *testing.T) {
	err := atRow(fmt.Errorf("wrapped: %w", &trycast.OffsetOverflowError{Row: 3, Limit: 10, To: arrow.BinaryTypes.String}), 17)
	var oe *trycast.OffsetOverflowError
	if !errors.As(err, &oe) || oe.Row != 20 || oe.Error()[:8] != "row 20: " {
		t.Errorf("got %v", err)
	}
	if other := errors.New("x"); atRow(other, 17) != other {
		t.Error("another error changed")
	}
}
