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
		{"try_cast", &SQLCastOptions{ToType: arrow.PrimitiveTypes.Int64}},
		{"try", trySQL(&SQLCastOptions{ToType: arrow.PrimitiveTypes.Int64, Dialect: trycast.SparkANSI})},
	} {
		res, err := compute.CallFunction(ctx, fn.name, fn.opts, compute.NewDatumWithoutOwning(ch))
		if err != nil {
			t.Fatal(err)
		}
		out := res.(*compute.ChunkedDatum).Value
		if out.NullN() != 2 || out.Chunk(0).NullN() != 2 || out.Chunk(1).NullN() != 0 {
			t.Fatalf("%s: null counts %d = %d + %d, want 2 = 2 + 0", fn.name, out.NullN(), out.Chunk(0).NullN(), out.Chunk(1).NullN())
		}

		checkChunksAfterIPC(t, mem, fn.name, out, []string{`[1, null, null, 4]`, `[2, 3]`})
		res.Release()
	}
}

// checkChunksAfterIPC writes each chunk of ch as a record batch with
// ipc.NewWriter, reads the stream back and checks every batch against
// wants (JSON, one per chunk): values, nulls and null count.
func checkChunksAfterIPC(t *testing.T, mem memory.Allocator, name string, ch *arrow.Chunked, wants []string) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: ch.DataType(), Nullable: true}}, nil)
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	for _, c := range ch.Chunks() {
		rec := array.NewRecordBatch(schema, []arrow.Array{c}, int64(c.Len()))
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := ipc.NewReader(&buf, ipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	i := 0
	for ; r.Next(); i++ {
		col := r.RecordBatch().Column(0)
		if err := array.ValidateFull(col); err != nil {
			t.Fatal(err)
		}
		if i >= len(wants) {
			continue
		}
		want := fromJSON(t, mem, ch.DataType(), wants[i])
		if !array.Equal(col, want) || col.NullN() != want.NullN() {
			t.Errorf("%s: batch %d after IPC: %v (%d nulls), want %v (%d nulls)", name, i, col, col.NullN(), want, want.NullN())
		}
		want.Release()
	}
	if r.Err() != nil || i != len(wants) {
		t.Errorf("%s: read %d batches, want %d: %v", name, i, len(wants), r.Err())
	}
}
