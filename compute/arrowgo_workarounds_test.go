package compute

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// TestArrowGoBugsStillPresent reproduces the arrow-go bugs that
// arrowgo_workarounds.go works around. When it fails, arrow-go has fixed
// one: delete the workaround it names (the other tests of this package
// then prove that try still works without it).
func TestArrowGoBugsStillPresent(t *testing.T) {
	t.Run("arrow-go#1305 stale null count in ArraySpan.SetSlice", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		left := boolArray(t, mem, `[true, null, true, null, false, true, null, true]`)
		defer left.Release()
		right := boolArray(t, mem, `[null, true, true, false, null, null, true, true]`)
		defer right.Release()
		run := func(chunk int64) string {
			ectx := compute.DefaultExecCtx()
			if chunk > 0 {
				ectx.ChunkSize = chunk
			}
			ctx := compute.SetExecCtx(context.Background(), ectx)
			out, err := compute.CallFunction(ctx, "and_kleene", nil, compute.NewDatumWithoutOwning(left), compute.NewDatumWithoutOwning(right))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			a := out.(*compute.ArrayDatum).MakeArray()
			defer a.Release()
			return a.String()
		}
		want, got := run(0), run(1)
		if want != "[(null) (null) true false false (null) (null) true]" {
			t.Fatalf("default chunk size: %s", want)
		}
		if got == want {
			t.Errorf("arrow-go#1305 is fixed (ChunkSize 1 gives %s): delete fixNullCount, alignChunks and wholeSpans", got)
		}
	})
	t.Run("MakeArrayOfNull leaves dirty memory", func(t *testing.T) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		a := array.MakeArrayOfNull(testgen.DirtyAllocator(mem), arrow.PrimitiveTypes.Int32, 64)
		defer a.Release()
		if set := bitutil.CountSetBits(a.Data().Buffers()[0].Bytes(), 0, 64); set == 0 {
			t.Error("MakeArrayOfNull now clears its validity bitmap: delete zeroed and pass the allocator itself")
		}
	})
}

func boolArray(t *testing.T, mem memory.Allocator, js string) arrow.Array {
	t.Helper()
	a, _, err := array.FromJSON(mem, arrow.FixedWidthTypes.Boolean, strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return a
}
