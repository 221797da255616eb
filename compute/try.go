package compute

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
)

func tryImpl(ctx context.Context, opts compute.FunctionOptions, args ...compute.Datum) (compute.Datum, error) {
	o, ok := opts.(*TryOptions)
	if !ok || o == nil || o.Func == "" {
		return nil, fmt.Errorf("%w: try needs *compute.TryOptions naming a function, got %T", arrow.ErrInvalid, opts)
	}
	reg := compute.GetExecCtx(ctx).Registry
	if reg == nil {
		reg = compute.GetFunctionRegistry()
	}
	fn, ok := reg.GetFunction(o.Func)
	if !ok {
		return nil, fmt.Errorf("%w: try: function %q not found", arrow.ErrKey, o.Func)
	}
	switch fn {
	case compute.Function(sqlCastFn), compute.Function(tryCastFn):
		if len(args) != 1 {
			return nil, fmt.Errorf("%w: try: %s takes 1 argument, got %d", arrow.ErrInvalid, o.Func, len(args))
		}
		// Our casts report failures as a bitmap: no error to catch.
		mode := modeTrySQL
		if fn == compute.Function(tryCastFn) {
			mode = modeTryCast
		}
		return castDatum(ctx, o.Func, o.Options, mode, args[0])
	case compute.Function(tryFn):
		return fn.Execute(ctx, o.Options, args...)
	}
	return isolate(ctx, fn, o.Options, args)
}

// isolate evaluates fn, which fails for a whole call when any row fails, and
// nulls just the failing rows: a failing range is split in halves until
// each failure is a single row, so the work grows with the failures (about
// 2·log2(n) calls each), not with the rows. An error that also happens on
// zero rows does not depend on the data and is returned.
func isolate(ctx context.Context, fn compute.Function, opts compute.FunctionOptions, args []compute.Datum) (compute.Datum, error) {
	res, err := fn.Execute(ctx, opts, args...)
	if err == nil {
		return res, nil
	}
	mem := compute.GetAllocator(ctx)
	flat, n, scalars, ferr := flattenArgs(mem, args)
	if ferr != nil {
		return nil, err
	}
	defer releaseAll(flat)
	iso := isolator{ctx: ctx, fn: fn, opts: opts, mem: mem, args: flat}
	probe, perr := iso.call(0, 0)
	if perr != nil {
		return nil, err
	}
	iso.dt = probe.DataType()
	probe.Release()
	if n == 1 {
		iso.nulls = 1
	} else {
		mid := n / 2
		if err := iso.solve(0, mid); err != nil {
			iso.release()
			return nil, err
		}
		if err := iso.solve(mid, n); err != nil {
			iso.release()
			return nil, err
		}
	}
	iso.flush()
	out, err := array.Concatenate(iso.pieces, mem)
	iso.release()
	if err != nil {
		return nil, err
	}
	defer out.Release()
	if scalars {
		sc, err := scalar.GetScalar(out, 0)
		if err != nil {
			return nil, err
		}
		return ownedScalar(sc), nil
	}
	return compute.NewDatum(out), nil
}

// flattenArgs turns every argument into an array datum of one common length
// (chunked arrays concatenated); when all are scalars, each becomes a
// one-row array and scalars reports it.
func flattenArgs(mem memory.Allocator, args []compute.Datum) (flat []compute.Datum, n int, scalars bool, err error) {
	n = -1
	for _, a := range args {
		switch a := a.(type) {
		case *compute.ArrayDatum:
			n = int(a.Len())
		case *compute.ChunkedDatum:
			n = int(a.Len())
		}
	}
	scalars = n < 0
	if scalars {
		n = 1
	}
	for _, a := range args {
		var arr arrow.Array
		switch a := a.(type) {
		case *compute.ArrayDatum:
			arr = a.MakeArray()
		case *compute.ChunkedDatum:
			arr, err = array.Concatenate(a.Chunks(), mem)
		case *compute.ScalarDatum:
			if scalars {
				arr, err = scalar.MakeArrayFromScalar(a.Value, 1, mem)
			} else {
				flat = append(flat, a)
				continue
			}
		default:
			err = fmt.Errorf("%w: try: argument kind %s", arrow.ErrNotImplemented, a.Kind())
		}
		if err == nil && arr.Len() != n {
			arr.Release()
			err = fmt.Errorf("%w: try: arguments of different lengths", arrow.ErrInvalid)
		}
		if err != nil {
			releaseAll(flat)
			return nil, 0, false, err
		}
		flat = append(flat, compute.NewDatum(arr))
		arr.Release()
	}
	return flat, n, scalars, nil
}

// releaseAll releases the array datums flattenArgs made; scalar datums
// are the caller's.
func releaseAll(ds []compute.Datum) {
	for _, d := range ds {
		if _, ok := d.(*compute.ArrayDatum); ok {
			d.Release()
		}
	}
}

type isolator struct {
	ctx    context.Context
	fn     compute.Function
	opts   compute.FunctionOptions
	mem    memory.Allocator
	args   []compute.Datum
	dt     arrow.DataType
	pieces []arrow.Array
	nulls  int // failing rows not yet appended to pieces
}

// call evaluates fn on rows [lo, hi) of every array argument.
func (s *isolator) call(lo, hi int) (arrow.Array, error) {
	sliced := make([]compute.Datum, len(s.args))
	for i, a := range s.args {
		if ad, ok := a.(*compute.ArrayDatum); ok {
			d := array.NewSliceData(ad.Value, int64(lo), int64(hi))
			sliced[i] = compute.NewDatum(d)
			d.Release()
		} else {
			sliced[i] = a
		}
	}
	defer releaseAll(sliced)
	res, err := s.fn.Execute(s.ctx, s.opts, sliced...)
	if err != nil {
		return nil, err
	}
	defer res.Release()
	switch r := res.(type) {
	case *compute.ArrayDatum:
		return r.MakeArray(), nil
	case *compute.ChunkedDatum:
		return array.Concatenate(r.Chunks(), s.mem)
	}
	return nil, fmt.Errorf("%w: try: %s returned %s", arrow.ErrNotImplemented, s.fn.Name(), res.Kind())
}

func (s *isolator) solve(lo, hi int) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	out, err := s.call(lo, hi)
	if err == nil {
		s.flush()
		s.pieces = append(s.pieces, out)
		return nil
	}
	if hi-lo == 1 {
		s.nulls++
		return nil
	}
	mid := lo + (hi-lo)/2
	if err := s.solve(lo, mid); err != nil {
		return err
	}
	return s.solve(mid, hi)
}

// flush appends the pending failing rows as one run of nulls.
func (s *isolator) flush() {
	if s.nulls > 0 {
		s.pieces = append(s.pieces, array.MakeArrayOfNull(s.mem, s.dt, s.nulls))
		s.nulls = 0
	}
}

func (s *isolator) release() {
	for _, p := range s.pieces {
		p.Release()
	}
	s.pieces = nil
}
