package interop

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	rbcompute "github.com/rowbridge/rowbridge/compute"
	"github.com/rowbridge/rowbridge/trycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tryCastInputs mixes strings every dialect accepts with ones Presto rejects
// (docs/trycast.md, "string → tinyint, smallint, integer, bigint"), for several target types.
var tryCastInputs = []string{
	"42", "+42", "-0", "007", "  12  ", "", "-", "12.5", "1e3", "2147483648", "-2147483648",
	"٣", "abc", "0x1F", "1_000", "9223372036854775807", "3.25", "-1.5e2", "NaN", "Infinity",
	"true", "false", "2024-02-29", "2023-02-29", "1970-01-01", "99.999", "1,234", "-7",
}

// tryCastInput returns the i-th input row (nil = null): the pool in a
// shifting order, nulls only in the first chunk so that a stale null count
// from the last chunk (docs/arrow-go-pitfalls.md, "Stale null count of chunked results") would show.
func tryCastInput(i int) *string {
	if i < 700 && i%7 == 3 {
		return nil
	}
	s := tryCastInputs[(i*5+i/len(tryCastInputs))%len(tryCastInputs)]
	return &s
}

var tryCastChunks = []int{700, 300, 24}

var tryCastTargets = []arrow.DataType{
	arrow.PrimitiveTypes.Int32,
	arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Float64,
	&arrow.Decimal128Type{Precision: 10, Scale: 2},
	arrow.FixedWidthTypes.Date32,
	arrow.FixedWidthTypes.Boolean,
}

// tryCastCases holds try_cast results written as IPC for check.mjs.
type tryCastCases struct {
	cases  []jsCase
	flat   arrow.Array   // the input, one array
	direct []arrow.Array // trycast.Cast(flat) per target: the expected values
}

func (c *tryCastCases) release() {
	c.flat.Release()
	for _, a := range c.direct {
		a.Release()
	}
}

func tryCastInputChunks(t *testing.T, mem memory.Allocator) *arrow.Chunked {
	t.Helper()
	b := array.NewStringBuilder(mem)
	defer b.Release()
	var chunks []arrow.Array
	row := 0
	for _, n := range tryCastChunks {
		for j := 0; j < n; j, row = j+1, row+1 {
			if s := tryCastInput(row); s != nil {
				b.Append(*s)
			} else {
				b.AppendNull()
			}
		}
		chunks = append(chunks, b.NewArray())
	}
	ch := arrow.NewChunked(arrow.BinaryTypes.String, chunks)
	for _, a := range chunks {
		a.Release()
	}
	return ch
}

func tryCastCtx(t *testing.T, mem memory.Allocator) context.Context {
	t.Helper()
	reg := compute.NewChildRegistry(compute.GetFunctionRegistry())
	require.NoError(t, rbcompute.Register(reg))
	ectx := compute.DefaultExecCtx()
	ectx.Registry = reg
	return compute.SetExecCtx(compute.WithAllocator(context.Background(), mem), ectx)
}

// resultChunks returns the arrays of a compute result; the caller releases them.
func resultChunks(t *testing.T, d compute.Datum) []arrow.Array {
	t.Helper()
	switch d := d.(type) {
	case *compute.ArrayDatum:
		return []arrow.Array{d.MakeArray()}
	case *compute.ChunkedDatum:
		out := d.Chunks()
		for _, a := range out {
			a.Retain()
		}
		return out
	}
	t.Fatalf("try_cast returned %s", d.Kind())
	return nil
}

// bitmapNulls counts nulls from the validity bits, not from NullN.
func bitmapNulls(a arrow.Array) int {
	bm := a.NullBitmapBytes()
	if len(bm) == 0 {
		return 0
	}
	return a.Len() - bitutil.CountSetBits(bm, a.Data().Offset(), a.Len())
}

// makeTryCastCases runs the registered "try_cast" (Presto) over a chunked
// string column for each target and writes the result, chunk by chunk as
// record batches {s, v}, as IPC stream and file with expectations computed
// by trycast.Cast over the whole column.
func makeTryCastCases(t *testing.T, mem memory.Allocator, dir string) *tryCastCases {
	t.Helper()
	ctx := tryCastCtx(t, mem)
	input := tryCastInputChunks(t, mem)
	defer input.Release()
	flat, err := array.Concatenate(input.Chunks(), mem)
	require.NoError(t, err)
	tc := &tryCastCases{flat: flat}

	for k, to := range tryCastTargets {
		direct, err := trycast.Cast(mem, flat, to, trycast.Options{Dialect: trycast.Presto})
		require.NoError(t, err, "trycast.Cast to %s", to)
		tc.direct = append(tc.direct, direct)
		require.Equal(t, bitmapNulls(direct), direct.NullN(), "trycast.Cast to %s: NullN", to)

		res, err := compute.CallFunction(ctx, "try_cast",
			&rbcompute.SQLCastOptions{ToType: to, Dialect: trycast.Presto}, compute.NewDatumWithoutOwning(input))
		require.NoError(t, err, "try_cast to %s", to)
		chunks := resultChunks(t, res)
		res.Release()

		schema := arrow.NewSchema([]arrow.Field{
			{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
			{Name: "v", Type: to, Nullable: true},
		}, nil)
		var batches []arrow.RecordBatch
		off := 0
		for _, ch := range chunks {
			s := array.NewSlice(flat, int64(off), int64(off+ch.Len()))
			batches = append(batches, array.NewRecordBatch(schema, []arrow.Array{s, ch}, int64(ch.Len())))
			s.Release()
			ch.Release()
			off += ch.Len()
		}
		require.Equal(t, flat.Len(), off, "try_cast to %s: result length", to)

		name := fmt.Sprintf("try_cast-%d-%s", k, to.ID())
		c := jsCase{Name: name, Stream: name + ".arrows", File: name + ".arrow", Expect: name + ".json",
			OutStream: name + ".js.arrows", OutFile: name + ".js.arrow"}
		writeIPC(t, mem, schema, filepath.Join(dir, c.Stream), filepath.Join(dir, c.File), batches...)
		releaseAll(batches)
		want := array.NewRecordBatch(schema, []arrow.Array{flat, direct}, int64(flat.Len()))
		writeJSON(t, filepath.Join(dir, c.Expect), expect(want))
		want.Release()
		tc.cases = append(tc.cases, c)
	}
	tc.checkKnownValues(t)
	return tc
}

// checkKnownValues pins a few Presto results from docs/trycast.md's integer table so
// that the expectations themselves are not just whatever trycast returns.
func (c *tryCastCases) checkKnownValues(t *testing.T) {
	t.Helper()
	want := map[string]any{"42": int32(42), "+42": int32(42), "007": int32(7), "  12  ": int32(12),
		"-2147483648": int32(-2147483648), "": nil, "-": nil, "12.5": nil, "1e3": nil,
		"2147483648": nil, "٣": nil, "0x1F": nil, "1_000": nil, "1,234": nil}
	s := c.flat.(*array.String)
	v := c.direct[0].(*array.Int32)
	seen := 0
	for i := 0; i < s.Len(); i++ {
		if s.IsNull(i) {
			assert.True(t, v.IsNull(i), "null input row %d", i)
			continue
		}
		w, ok := want[s.Value(i)]
		if !ok {
			continue
		}
		seen++
		if w == nil {
			assert.True(t, v.IsNull(i), "try_cast(%q as int) should be null", s.Value(i))
		} else {
			assert.Equal(t, w, v.Value(i), "try_cast(%q as int)", s.Value(i))
		}
	}
	assert.Greater(t, seen, 100)
}

// checkGoRead reads back both Go's IPC and what JS rewrote, and checks that
// every batch's null count matches its bitmap and the values and total null
// count match trycast.Cast's.
func (c *tryCastCases) checkGoRead(t *testing.T, mem memory.Allocator, dir string) {
	t.Helper()
	for k, jc := range c.cases {
		direct := c.direct[k]
		for _, path := range []string{jc.Stream, jc.File, jc.OutStream, jc.OutFile} {
			var batches []arrow.RecordBatch
			if filepath.Ext(path) == ".arrows" {
				_, batches = readIPCStream(t, mem, filepath.Join(dir, path))
			} else {
				_, batches = readIPCFile(t, mem, filepath.Join(dir, path))
			}
			nulls, row := 0, 0
			for _, rb := range batches {
				v := rb.Column(1)
				require.NoError(t, array.ValidateFull(v))
				assert.Equal(t, bitmapNulls(v), v.NullN(), "%s: batch null count vs bitmap", path)
				nulls += v.NullN()
				for i := 0; i < v.Len(); i, row = i+1, row+1 {
					if !assert.Equal(t, renderValue(direct, row), renderValue(v, i), "%s row %d", path, row) {
						break
					}
				}
			}
			assert.Equal(t, direct.Len(), row, path)
			assert.Equal(t, direct.NullN(), nulls, "%s: total nulls", path)
			releaseAll(batches)
		}
	}
}
