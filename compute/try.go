package compute

import (
	"context"
	"fmt"
	"slices"

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
	if err := elementWise(fn); err != nil {
		return nil, err
	}
	return isolate(ctx, fn, o.Options, args)
}

// arrowCast is arrow-go's own cast, a meta function that dispatches to
// element-wise cast kernels.
var arrowCast, _ = compute.GetFunctionRegistry().GetFunction("cast")

// elementWise is nil when row i of fn's result depends only on row i of
// its arguments, so that try may evaluate fn on pieces of the rows and put
// the pieces together: scalar functions (all 76 arrow-go v18.8.0 registers
// are element-wise, none keeps state between rows) and arrow-go's cast.
// Vector functions (cumulative_sum_checked would restart its running sum in
// every piece), aggregates, and meta functions, which may dispatch to
// either, are refused.
func elementWise(fn compute.Function) error {
	if fn.Kind() == compute.FuncScalar || (arrowCast != nil && fn == arrowCast) {
		return nil
	}
	kind := "meta"
	switch fn.Kind() {
	case compute.FuncVector:
		kind = "vector"
	case compute.FuncScalarAgg:
		kind = "aggregate"
	case compute.FuncHashAgg:
		kind = "hash aggregate"
	}
	return fmt.Errorf("%w: try: %s is a %s function, not element-wise, so its failing rows cannot be isolated",
		arrow.ErrNotImplemented, fn.Name(), kind)
}

// isolate evaluates fn, which fails for a whole call when any row fails, and
// nulls just the failing rows: a failing range is split in halves until
// each failure is a single row, so the work grows with the failures (about
// 2·log2(n) calls each), not with the rows. An error that also happens on
// zero rows does not depend on the data and is returned.
//
// Every result has exact null counts, whatever arrow-go reported (see
// fixNullCount), and a chunked argument gives a chunked result laid out
// like the arguments' chunks, whether or not a row failed.
func isolate(ctx context.Context, fn compute.Function, opts compute.FunctionOptions, args []compute.Datum) (compute.Datum, error) {
	mem := compute.GetAllocator(ctx)
	ctx = wholeSpans(ctx)
	layout, aligned := chunkLayout(args)
	if !aligned {
		var (
			made []compute.Datum
			err  error
		)
		if args, made, err = alignChunks(mem, args, layout); err != nil {
			return nil, err
		}
		defer func() {
			for _, d := range made {
				d.Release()
			}
		}()
	}
	res, err := fn.Execute(ctx, opts, args...)
	if err == nil {
		return normalize(mem, res, layout)
	}
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
	defer iso.release()
	if layout != nil {
		return chunkedDatum(mem, iso.dt, iso.pieces, layout)
	}
	out, err := array.Concatenate(iso.pieces, mem)
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
				arr, err = scalar.MakeArrayFromScalar(a.Value, 1, zeroed(mem))
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
		return fixNullCount(r.MakeArray()), nil
	case *compute.ChunkedDatum:
		chunks := fixedChunks(r.Value)
		defer releaseArrays(chunks)
		if len(chunks) == 1 {
			chunks[0].Retain()
			return chunks[0], nil
		}
		return array.Concatenate(chunks, s.mem)
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
		s.pieces = append(s.pieces, array.MakeArrayOfNull(zeroed(s.mem), s.dt, s.nulls))
		s.nulls = 0
	}
}

func (s *isolator) release() {
	for _, p := range s.pieces {
		p.Release()
	}
	s.pieces = nil
}

// normalize takes over res, a successful result of the function try
// wraps, and returns it with exact null counts and, when layout is not nil
// (a chunked argument), as a chunked datum of those chunk lengths.
func normalize(mem memory.Allocator, res compute.Datum, layout []int) (compute.Datum, error) {
	switch r := res.(type) {
	case *compute.ArrayDatum:
		arr := fixNullCount(r.MakeArray())
		defer arr.Release()
		res.Release()
		if layout != nil {
			return chunkedDatum(mem, arr.DataType(), []arrow.Array{arr}, layout)
		}
		return compute.NewDatum(arr), nil
	case *compute.ChunkedDatum:
		chunks := fixedChunks(r.Value)
		defer releaseArrays(chunks)
		dt := r.Type()
		res.Release()
		if layout == nil {
			layout = make([]int, len(chunks))
			for i, c := range chunks {
				layout[i] = c.Len()
			}
		}
		return chunkedDatum(mem, dt, chunks, layout)
	}
	return res, nil
}

func releaseArrays(as []arrow.Array) {
	for _, a := range as {
		a.Release()
	}
}

// chunkLayout is the chunk lengths of a result over args: nil when no
// argument is chunked; the one chunked argument's (or several with the
// same) chunk lengths; otherwise the runs between every argument's chunk
// boundaries, and aligned is false.
func chunkLayout(args []compute.Datum) (layout []int, aligned bool) {
	aligned = true
	var cuts []int
	for _, a := range args {
		ch, ok := a.(*compute.ChunkedDatum)
		if !ok {
			continue
		}
		lens := make([]int, 0, len(ch.Chunks()))
		pos := 0
		for _, c := range ch.Chunks() {
			lens = append(lens, c.Len())
			pos += c.Len()
			cuts = append(cuts, pos)
		}
		if layout == nil {
			layout = lens
		} else if !slices.Equal(layout, lens) {
			aligned = false
		}
	}
	if aligned {
		return layout, true
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	layout = layout[:0]
	pos := 0
	for _, c := range cuts {
		if c > pos {
			layout = append(layout, c-pos)
			pos = c
		}
	}
	return layout, false
}

// chunkedDatum lays the rows of pieces (arrays of type dt with exact null
// counts, which it does not take over) out as chunks of the given lengths:
// slices sharing the pieces' buffers, concatenated only where a chunk
// spans pieces. When the lengths do not add up to the rows, the pieces
// are the chunks.
func chunkedDatum(mem memory.Allocator, dt arrow.DataType, pieces []arrow.Array, layout []int) (compute.Datum, error) {
	total, want := 0, 0
	for _, p := range pieces {
		total += p.Len()
	}
	for _, n := range layout {
		want += n
	}
	if total != want {
		ch := arrow.NewChunked(dt, pieces)
		defer ch.Release()
		return compute.NewDatum(ch), nil
	}
	chunks := make([]arrow.Array, 0, len(layout))
	defer func() { releaseArrays(chunks) }()
	p, pos := 0, 0 // the next row is row pos of pieces[p]
	for _, n := range layout {
		var parts []arrow.Array
		for n > 0 || len(parts) == 0 {
			for p < len(pieces)-1 && pos == pieces[p].Len() {
				p, pos = p+1, 0
			}
			if p == len(pieces) { // no pieces at all: only empty chunks
				break
			}
			k := min(n, pieces[p].Len()-pos)
			parts = append(parts, array.NewSlice(pieces[p], int64(pos), int64(pos+k)))
			pos += k
			n -= k
		}
		switch len(parts) {
		case 0:
			a := array.MakeArrayOfNull(zeroed(mem), dt, 0)
			chunks = append(chunks, a)
		case 1:
			chunks = append(chunks, parts[0])
		default:
			a, err := array.Concatenate(parts, mem)
			releaseArrays(parts)
			if err != nil {
				return nil, err
			}
			chunks = append(chunks, a)
		}
	}
	ch := arrow.NewChunked(dt, chunks)
	defer ch.Release()
	return compute.NewDatum(ch), nil
}
