package compute

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/trycast"
)

// TestChunkedResultSurvivesIPC: nulls only in a non-last chunk (arrow-go's
// contiguous preallocation loses them: arrow-go#1305) keep their exact
// counts through try_cast and an IPC round trip.
func TestChunkedResultSurvivesIPC(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := testCtx(t, mem)
	a := fromJSON(t, mem, arrow.BinaryTypes.String, `["1", null, "x", "4"]`)
	b := fromJSON(t, mem, arrow.BinaryTypes.String, `["2", "3"]`)
	ch := arrow.NewChunked(arrow.BinaryTypes.String, []arrow.Array{a, b})
	a.Release()
	b.Release()
	defer ch.Release()

	for _, fn := range []struct {
		name string
		opts compute.FunctionOptions
	}{
		{"try_cast", &CastOptions{ToType: arrow.PrimitiveTypes.Int64}},
		{"try", trySQL(&CastOptions{ToType: arrow.PrimitiveTypes.Int64, Dialect: trycast.SparkANSI})},
	} {
		res, err := compute.CallFunction(ctx, fn.name, fn.opts, compute.NewDatumWithoutOwning(ch))
		if err != nil {
			t.Fatal(err)
		}
		out := res.(*compute.ChunkedDatum).Value
		if out.NullN() != 2 || out.Chunk(0).NullN() != 2 || out.Chunk(1).NullN() != 0 {
			t.Fatalf("%s: null counts %d = %d + %d, want 2 = 2 + 0", fn.name, out.NullN(), out.Chunk(0).NullN(), out.Chunk(1).NullN())
		}

		schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
		var buf bytes.Buffer
		w := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
		for _, c := range out.Chunks() {
			rec := array.NewRecordBatch(schema, []arrow.Array{c}, int64(c.Len()))
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			rec.Release()
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := ipc.NewReader(&buf, ipc.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		wants := []string{`[1, null, null, 4]`, `[2, 3]`}
		i := 0
		for r.Next() {
			col := r.RecordBatch().Column(0)
			if err := array.ValidateFull(col); err != nil {
				t.Fatal(err)
			}
			want := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, wants[i])
			if !array.Equal(col, want) || col.NullN() != want.NullN() {
				t.Errorf("%s: batch %d after IPC: %v (%d nulls), want %v", fn.name, i, col, col.NullN(), want)
			}
			want.Release()
			i++
		}
		if r.Err() != nil || i != 2 {
			t.Errorf("%s: read %d batches: %v", fn.name, i, r.Err())
		}
		r.Release()
		res.Release()
	}
}
