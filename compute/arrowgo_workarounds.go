package compute

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Workarounds for arrow-go v18.8.0 bugs that try meets when it runs
// arrow-go's functions. Each names the upstream bug and how to tell that
// it is fixed; when it is, delete the workaround and its callers keep
// working (the tests in try_chunked_test.go and dirty_test.go run the
// affected paths and must keep passing).
//
// Stale null counts, apache/arrow-go#1305 (fix proposed in
// apache/arrow-go#1306): the executor walks its inputs in spans
// (iterateExecSpans) and advances one reused exec.ArraySpan per argument
// with ArraySpan.SetSlice, which keeps the span's cached null count for the
// next slice when that count is 0 or the old length. A kernel that counted
// the nulls of one slice thus makes the next slice look all valid or all
// null, and with contiguous preallocation the output array keeps the last
// span's count. Three things cut an input into spans: a chunked argument,
// chunks of several arguments that do not line up, and ExecCtx.ChunkSize
// below the input length. fixNullCount/fixedChunks, alignChunks and
// wholeSpans below cover one each. Fixed when SetSlice resets Nulls to
// array.UnknownNullCount for a slice of an array that has a validity
// bitmap: then and_kleene with ExecCtx.ChunkSize = 1 on
// [true, null, true, null] and [null, true, true, false] gives
// [null, null, true, false], as with the default chunk size
// (TestArrowGoBugsStillPresent fails then).
//
// Dirty memory in MakeArrayOfNull (no upstream issue found): see zeroed.

// fixNullCount takes over a and returns it, or when its null count
// disagrees with its validity bitmap, an array sharing all its buffers
// with the count taken from the bitmap. With contiguous preallocation over
// several spans (arrow-go#1305) the executor's output keeps the last span's
// cached count, and IPC writers and array.Concatenate trust it.
func fixNullCount(a arrow.Array) arrow.Array {
	d := a.Data()
	switch d.DataType().ID() {
	case arrow.NULL, arrow.SPARSE_UNION, arrow.DENSE_UNION, arrow.RUN_END_ENCODED:
		return a // no validity bitmap
	}
	bufs := d.Buffers()
	if len(bufs) == 0 || bufs[0] == nil || bufs[0].Len()*8 < d.Offset()+d.Len() {
		return a
	}
	nulls := d.Len() - bitutil.CountSetBits(bufs[0].Bytes(), d.Offset(), d.Len())
	if nulls == d.NullN() {
		return a
	}
	var fixed *array.Data
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		fixed = array.NewDataWithDictionary(d.DataType(), d.Len(), bufs, nulls, d.Offset(), dict)
	} else {
		fixed = array.NewData(d.DataType(), d.Len(), bufs, d.Children(), nulls, d.Offset())
	}
	out := array.MakeFromData(fixed)
	fixed.Release()
	a.Release()
	return out
}

// fixedChunks is ch's chunks passed through fixNullCount; the caller
// releases them.
func fixedChunks(ch *arrow.Chunked) []arrow.Array {
	out := make([]arrow.Array, len(ch.Chunks()))
	for i, c := range ch.Chunks() {
		c.Retain()
		out[i] = fixNullCount(c)
	}
	return out
}

// alignChunks is args with every chunked argument cut to layout (slices
// sharing its buffers); made lists the datums it made, for the caller to
// release. arrow-go v18.8.0 loses the nulls of an input span cut inside a
// chunk (the cached count of an earlier cut is kept: arrow-go#1305), so
// the function must see chunks that line up. Once #1305 is fixed, isolate
// can pass misaligned chunked arguments as they are.
func alignChunks(mem memory.Allocator, args []compute.Datum, layout []int) (aligned, made []compute.Datum, err error) {
	aligned = make([]compute.Datum, len(args))
	for i, a := range args {
		ch, ok := a.(*compute.ChunkedDatum)
		if !ok {
			aligned[i] = a
			continue
		}
		d, err := chunkedDatum(mem, ch.Type(), ch.Chunks(), layout)
		if err != nil {
			for _, m := range made {
				m.Release()
			}
			return nil, nil, err
		}
		aligned[i] = d
		made = append(made, d)
	}
	return aligned, made, nil
}

// wholeSpans is ctx with no limit on the rows per kernel call: with
// ExecCtx.ChunkSize shorter than an array, arrow-go v18.8.0 cuts it into
// spans and loses the nulls of all but the first (arrow-go#1305). try's
// result is laid out like its arguments, so the limit changes nothing else;
// once #1305 is fixed, isolate can keep the caller's ChunkSize.
func wholeSpans(ctx context.Context) context.Context {
	ectx := compute.GetExecCtx(ctx)
	if ectx.ChunkSize == compute.DefaultMaxChunkSize {
		return ctx
	}
	ectx.ChunkSize = compute.DefaultMaxChunkSize
	return compute.SetExecCtx(ctx, ectx)
}

// zeroed hands out mem's memory cleared. arrow-go v18.8.0's
// array.MakeArrayOfNull (and scalar.MakeArrayFromScalar of a null scalar,
// which calls it) allocate the validity bitmap and value buffers from mem
// and never write them: they rely on memory.GoAllocator's make() zeroing.
// With an allocator that hands out dirty memory (a recycling pool, the cgo
// Mallocator), the "all null" array has set validity bits and garbage
// values. No upstream issue was found. To check whether it is fixed, call
// array.MakeArrayOfNull(mem, arrow.PrimitiveTypes.Int32, 64) with an
// allocator that fills what it hands out with 0xA5 (testgen.DirtyAllocator)
// and read the bitmap: when every bit is 0 without this wrapper, delete
// zeroed and pass mem itself. TestArrowGoBugsStillPresent does both checks.
func zeroed(mem memory.Allocator) memory.Allocator { return columnar.Zeroing(mem) }
