package compute

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/rowbridge/rowbridge/trycast"
)

// castMode is how a cast treats a value that does not convert.
type castMode uint8

const (
	modeTryCast castMode = iota // null per the dialect's try_cast
	modeSQLCast                 // the dialect's CAST: error, or null for Spark legacy
	modeTrySQL                  // try(sql_cast): a failing row is null at the top level
)

func tryCastImpl(ctx context.Context, opts compute.FunctionOptions, args ...compute.Datum) (compute.Datum, error) {
	return castDatum(ctx, "try_cast", opts, modeTryCast, args[0])
}

func sqlCastImpl(ctx context.Context, opts compute.FunctionOptions, args ...compute.Datum) (compute.Datum, error) {
	return castDatum(ctx, "sql_cast", opts, modeSQLCast, args[0])
}

// castDatum casts an array, each chunk of a chunked array (so every chunk
// keeps an exact null count), or a scalar.
func castDatum(ctx context.Context, name string, opts compute.FunctionOptions, mode castMode, arg compute.Datum) (compute.Datum, error) {
	o, topts, err := castOptions(name, opts)
	if err != nil {
		return nil, err
	}
	strict := mode == modeSQLCast && trycast.RaisesOnFailure(o.Dialect)
	topts.NullFailedRows = mode == modeTrySQL && trycast.RaisesOnFailure(o.Dialect)
	c := datumCaster{mem: compute.GetAllocator(ctx), to: o.ToType, opts: topts, strict: strict}
	switch a := arg.(type) {
	case *compute.ArrayDatum:
		in := a.MakeArray()
		defer in.Release()
		out, err := c.array(in, 0)
		if err != nil {
			return nil, err
		}
		defer out.Release()
		return compute.NewDatum(out), nil
	case *compute.ChunkedDatum:
		return c.chunked(a.Value)
	case *compute.ScalarDatum:
		return c.scalar(a.Value)
	}
	return nil, arrow.ErrNotImplemented
}

type datumCaster struct {
	mem    memory.Allocator
	to     arrow.DataType
	opts   trycast.Options
	strict bool
}

// array casts one array; base is its first row's index in the whole input,
// for the error of a strict cast.
func (c datumCaster) array(in arrow.Array, base int) (arrow.Array, error) {
	if !c.strict {
		out, err := trycast.Cast(c.mem, in, c.to, c.opts)
		return out, atRow(err, base)
	}
	out, f, err := trycast.CastWithFailures(c.mem, in, c.to, c.opts)
	if err != nil {
		return nil, atRow(err, base)
	}
	if f.Count > 0 {
		out.Release()
		return nil, trycast.NewValueError(in, f.First, base, c.to, c.opts.Dialect)
	}
	return out, nil
}

// atRow counts the row of an offset overflow from the whole input's first
// row, base rows before the chunk's.
func atRow(err error, base int) error {
	var oe *trycast.OffsetOverflowError
	if errors.As(err, &oe) {
		oe.Row += base
	}
	return err
}

func (c datumCaster) chunked(in *arrow.Chunked) (compute.Datum, error) {
	outs := make([]arrow.Array, 0, len(in.Chunks()))
	defer func() {
		for _, a := range outs {
			a.Release()
		}
	}()
	base := 0
	for _, ch := range in.Chunks() {
		out, err := c.array(ch, base)
		if err != nil {
			return nil, err
		}
		outs = append(outs, out)
		base += ch.Len()
	}
	res := arrow.NewChunked(c.to, outs)
	defer res.Release()
	return compute.NewDatum(res), nil
}

func (c datumCaster) scalar(in scalar.Scalar) (compute.Datum, error) {
	if !in.IsValid() {
		if err := trycast.CheckCast(in.DataType(), c.to); err != nil {
			return nil, err
		}
		return compute.NewDatum(scalar.MakeNullScalar(c.to)), nil
	}
	arr, err := scalar.MakeArrayFromScalar(in, 1, c.mem)
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	out, err := c.array(arr, 0)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	res, err := scalar.GetScalar(out, 0)
	if err != nil {
		return nil, err
	}
	return ownedScalar(res), nil
}

// ownedScalar wraps a scalar we hold the only reference to: NewDatum would
// retain a releasable one a second time.
func ownedScalar(sc scalar.Scalar) compute.Datum {
	d := compute.NewDatum(sc)
	if r, ok := sc.(scalar.Releasable); ok {
		r.Release()
	}
	return d
}
