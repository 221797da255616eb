package compute

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/rowbridge/rowbridge/sparkhash"
)

// sparkHashImpl computes Spark's hash(args...) with seed 42 per row: an
// int32 array, never null. Chunked arguments are folded chunk by chunk
// (their layouts need not agree), scalars are broadcast; when every
// argument is a scalar the result is a scalar. A chunked argument makes the
// result a one-chunk chunked array.
func sparkHashImpl(ctx context.Context, _ compute.FunctionOptions, args ...compute.Datum) (compute.Datum, error) {
	mem := compute.GetAllocator(ctx)
	n, chunked := -1, false
	for i, a := range args {
		var l int
		switch a := a.(type) {
		case *compute.ArrayDatum:
			l = int(a.Len())
		case *compute.ChunkedDatum:
			l, chunked = int(a.Len()), true
		case *compute.ScalarDatum:
			if err := sparkhash.Check(fmt.Sprintf("spark_hash argument %d", i), a.Type()); err != nil {
				return nil, err
			}
			continue
		default:
			return nil, fmt.Errorf("%w: spark_hash: argument %d is a %s", arrow.ErrNotImplemented, i, a.Kind())
		}
		if err := sparkhash.Check(fmt.Sprintf("spark_hash argument %d", i), a.(compute.ArrayLikeDatum).Type()); err != nil {
			return nil, err
		}
		if n >= 0 && l != n {
			return nil, fmt.Errorf("%w: spark_hash: argument %d has %d rows, the ones before have %d", arrow.ErrInvalid, i, l, n)
		}
		n = l
	}
	allScalars := n < 0
	if allScalars {
		n = 1
	}
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize(n * arrow.Int32SizeBytes)
	dst := arrow.Int32Traits.CastFromBytes(buf.Bytes())[:n]
	for i := range dst {
		dst[i] = sparkhash.Seed
	}
	for i, a := range args {
		if err := foldDatum(mem, dst, a); err != nil {
			return nil, fmt.Errorf("spark_hash: argument %d: %w", i, err)
		}
	}
	data := array.NewData(arrow.PrimitiveTypes.Int32, n, []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer data.Release()
	out := array.NewInt32Data(data)
	defer out.Release()
	switch {
	case allScalars:
		return compute.NewDatum(scalar.NewInt32Scalar(out.Value(0))), nil
	case chunked:
		ch := arrow.NewChunked(arrow.PrimitiveTypes.Int32, []arrow.Array{out})
		defer ch.Release()
		return compute.NewDatum(ch), nil
	}
	return compute.NewDatum(out), nil
}

func foldDatum(mem memory.Allocator, dst []int32, a compute.Datum) error {
	switch a := a.(type) {
	case *compute.ArrayDatum:
		arr := a.MakeArray()
		defer arr.Release()
		return sparkhash.Fold(dst, arr)
	case *compute.ChunkedDatum:
		off := 0
		for _, c := range a.Chunks() {
			if err := sparkhash.Fold(dst[off:off+c.Len()], c); err != nil {
				return err
			}
			off += c.Len()
		}
		return nil
	case *compute.ScalarDatum:
		if !a.Value.IsValid() {
			return nil // null leaves every running hash unchanged
		}
		arr, err := scalar.MakeArrayFromScalar(a.Value, len(dst), zeroed(mem))
		if err != nil {
			return err
		}
		defer arr.Release()
		return sparkhash.Fold(dst, arr)
	}
	return arrow.ErrNotImplemented
}
