package compute

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/rowbridge/rowbridge/internal/casttest"
)

// chunkedFromJSON is a chunked array with one chunk per JSON array.
func chunkedFromJSON(t testing.TB, mem memory.Allocator, dt arrow.DataType, chunks ...string) *arrow.Chunked {
	t.Helper()
	arrs := make([]arrow.Array, len(chunks))
	for i, js := range chunks {
		arrs[i] = fromJSON(t, mem, dt, js)
	}
	ch := arrow.NewChunked(dt, arrs)
	for _, a := range arrs {
		a.Release()
	}
	return ch
}

// checkChunks checks that res is a chunked datum whose chunks are wants
// (JSON, one per chunk), each with its exact null count, and that it
// reads back the same after an IPC round trip.
func checkChunks(t *testing.T, mem memory.Allocator, name string, res compute.Datum, wants []string) {
	t.Helper()
	cd, ok := res.(*compute.ChunkedDatum)
	if !ok {
		t.Errorf("%s: got a %s datum, want chunked", name, res.Kind())
		return
	}
	out := cd.Value
	if len(out.Chunks()) != len(wants) {
		t.Errorf("%s: %d chunks, want %d", name, len(out.Chunks()), len(wants))
		return
	}
	total := 0
	for i, c := range out.Chunks() {
		if err := array.ValidateFull(c); err != nil {
			t.Errorf("%s: chunk %d: %v", name, i, err)
		}
		want := fromJSON(t, mem, c.DataType(), wants[i])
		if !array.Equal(c, want) || c.NullN() != want.NullN() {
			t.Errorf("%s: chunk %d is %v with NullN %d, want %v with NullN %d", name, i, c, c.NullN(), want, want.NullN())
		}
		total += want.NullN()
		want.Release()
	}
	if out.NullN() != total {
		t.Errorf("%s: NullN %d, want %d", name, out.NullN(), total)
	}
	// Zeroed memory for the round trip: arrow-go v18.8.0's IPC writer and
	// reader on dirty memory lose the null of a sliced one-row chunk
	// ([1, null, 3][1:2] reads back valid), with arrow-go data alone.
	checkChunksAfterIPC(t, zeroed(mem), name, out, wants)
}

// TestTryChunkedNullCounts: try over arrow-go functions (add, which
// fails on overflow, add_unchecked, which cannot fail, and cast) on chunked input
// with nulls (in a chunk before the last, where arrow-go's executor loses
// their count: arrow-go#1305) returns a chunked result laid out like the
// input, with exact null counts per chunk that survive IPC, whether or
// not a row failed and was isolated.
//
// It runs on zeroed and on dirty memory (0xA5), where the rows try nulls
// must still be null. (arrow-go's kernels compute values under the nulls
// they propagate, add_unchecked(null, 1) holds 1, so their bytes under
// nulls are not checked here.)
func TestTryChunkedNullCounts(t *testing.T) {
	casttest.EachMemory(t, testTryChunkedNullCounts)
}

func testTryChunkedNullCounts(t *testing.T, mem memory.Allocator) {
	ctx := testCtx(t, mem)
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	one := compute.NewDatum(scalar.NewInt64Scalar(1))
	defer one.Release()
	toInt64 := compute.SafeCastOptions(i64)
	for _, c := range []struct {
		name  string
		fn    string
		opts  compute.FunctionOptions
		args  func() []*arrow.Chunked // chunked arguments, then one if scalar
		plus  bool                    // a scalar 1 is the last argument
		wants []string
	}{
		{"add_unchecked", "add_unchecked", nil, func() []*arrow.Chunked {
			return []*arrow.Chunked{chunkedFromJSON(t, mem, i64, `[1, null]`, `[2, 3]`)}
		}, true, []string{`[2, null]`, `[3, 4]`}},
		{"add valid", "add", nil, func() []*arrow.Chunked {
			return []*arrow.Chunked{chunkedFromJSON(t, mem, i64, `[1, null, 5]`, `[2, 3]`)}
		}, true, []string{`[2, null, 6]`, `[3, 4]`}},
		{"add failing", "add", nil, func() []*arrow.Chunked {
			return []*arrow.Chunked{chunkedFromJSON(t, mem, i64, `[1, null, 9223372036854775807]`, `[2, 3]`)}
		}, true, []string{`[2, null, null]`, `[3, 4]`}},
		{"add failing in the last chunk", "add", nil, func() []*arrow.Chunked {
			return []*arrow.Chunked{chunkedFromJSON(t, mem, i64, `[null, 1]`, `[2, 9223372036854775807, 3]`)}
		}, true, []string{`[null, 2]`, `[3, null, 4]`}},
		{"add two layouts", "add", nil, func() []*arrow.Chunked {
			return []*arrow.Chunked{
				chunkedFromJSON(t, mem, i64, `[1, null]`, `[2, 3, 4]`),
				chunkedFromJSON(t, mem, i64, `[1]`, `[1, 1, 1, 1]`),
			}
		}, false, []string{`[2]`, `[null]`, `[3, 4, 5]`}},
		{"add two layouts failing", "add", nil, func() []*arrow.Chunked {
			return []*arrow.Chunked{
				chunkedFromJSON(t, mem, i64, `[1, null]`, `[2, 9223372036854775807, 4]`),
				chunkedFromJSON(t, mem, i64, `[1]`, `[1, 1, 1, 1]`),
			}
		}, false, []string{`[2]`, `[null]`, `[3, null, 5]`}},
		{"cast valid", "cast", toInt64, func() []*arrow.Chunked {
			return []*arrow.Chunked{chunkedFromJSON(t, mem, str, `["1", null]`, `["2", "3"]`)}
		}, false, []string{`[1, null]`, `[2, 3]`}},
		{"cast failing", "cast", toInt64, func() []*arrow.Chunked {
			return []*arrow.Chunked{chunkedFromJSON(t, mem, str, `["1", null, "x"]`, `["2", "3"]`)}
		}, false, []string{`[1, null, null]`, `[2, 3]`}},
		{"cast failing across an empty chunk", "cast", toInt64, func() []*arrow.Chunked {
			return []*arrow.Chunked{chunkedFromJSON(t, mem, str, `[null, "1"]`, `[]`, `["x", "2"]`, `["3"]`)}
		}, false, []string{`[null, 1]`, `[]`, `[null, 2]`, `[3]`}},
	} {
		args := c.args()
		ds := make([]compute.Datum, 0, len(args)+1)
		for _, a := range args {
			ds = append(ds, compute.NewDatumWithoutOwning(a))
		}
		if c.plus {
			ds = append(ds, one)
		}
		res, err := compute.CallFunction(ctx, "try", &TryOptions{Func: c.fn, Options: c.opts}, ds...)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		} else {
			checkChunks(t, mem, c.name, res, c.wants)
			res.Release()
		}
		for _, a := range args {
			a.Release()
		}
	}
}

// TestTryShortExecChunks: an ExecCtx.ChunkSize shorter than the input
// makes arrow-go's executor cut it into spans, losing the null count of the
// output (contiguous preallocation) and the nulls of every span after the
// first (arrow-go#1305); try's result is exact, laid out like its input.
func TestTryShortExecChunks(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	one := compute.NewDatum(scalar.NewInt64Scalar(1))
	defer one.Release()
	i64 := arrow.PrimitiveTypes.Int64
	for _, contiguous := range []bool{true, false} {
		ectx := compute.GetExecCtx(testCtx(t, mem))
		ectx.ChunkSize = 2
		ectx.PreallocContiguous = contiguous
		ctx := compute.WithAllocator(compute.SetExecCtx(context.Background(), ectx), mem)
		for _, c := range []struct{ in, want string }{
			{`[1, null, 2, 3]`, `[2, null, 3, 4]`},
			{`[1, 2, null, 3]`, `[2, 3, null, 4]`},
			{`[1, 2, null, 9223372036854775807, 5]`, `[2, 3, null, null, 6]`},
		} {
			in := fromJSON(t, mem, i64, c.in)
			for _, fn := range []string{"add_unchecked", "add"} {
				if fn == "add_unchecked" && strings.Contains(c.in, "922") {
					continue
				}
				expectArray(t, mem, callArray(t, ctx, "try", &TryOptions{Func: fn}, compute.NewDatumWithoutOwning(in), one), c.want)
			}
			in.Release()
		}
		ch := chunkedFromJSON(t, mem, i64, `[1, 2, 3, null]`, `[4, 5, 6]`)
		res, err := compute.CallFunction(ctx, "try", &TryOptions{Func: "add"}, compute.NewDatumWithoutOwning(ch), one)
		if err != nil {
			t.Fatal(err)
		}
		checkChunks(t, mem, "chunks longer than ChunkSize", res, []string{`[2, 3, 4, null]`, `[5, 6, 7]`})
		res.Release()
		ch.Release()
	}
}
