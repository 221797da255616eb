package crossformat

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// dirtyMem is a checked allocator that must end empty, under one that
// hands out garbage (as a recycling allocator does): every byte a decoder
// exposes must be written, and an encoder must not read what is under a
// null in its input.
func dirtyMem(t *testing.T) memory.Allocator {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { checked.AssertSize(t, 0) })
	return testgen.DirtyAllocator(checked)
}

// TestRandomBatchesThroughEveryFormat: random nested schemas, batches with
// NaN, extremes and nulls at every level, whole and sliced at row 1, through
// UnsafeRow (Spark, Velox) and CompactRow: each decodes to the exact batch,
// re-encodes to the same bytes, and all three decode to equal batches.
func TestRandomBatchesThroughEveryFormat(t *testing.T) {
	mem := dirtyMem(t)
	for seed := range int64(200) {
		r := rand.New(rand.NewSource(seed))
		schema := testgen.RandomSchema(r)
		rec := testgen.RandomBatch(mem, r, schema, r.Intn(25), testgen.WithNaN())
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			checkFormats(t, mem, rec)
			if rec.NumRows() > 1 {
				part := rec.NewSlice(1, rec.NumRows())
				defer part.Release()
				checkFormats(t, mem, part)
			}
		})
		rec.Release()
		if t.Failed() {
			return
		}
	}
}

// TestNullExtremesThroughEveryFormat: the same properties with no nulls, and
// with every nullable value null (so every null struct, list and map at
// every depth, over NOT NULL fields too).
func TestNullExtremesThroughEveryFormat(t *testing.T) {
	mem := dirtyMem(t)
	for seed := range int64(60) {
		r := rand.New(rand.NewSource(5000 + seed))
		schema := testgen.RandomSchema(r, testgen.WithNonNullable(0.3))
		for _, p := range []float64{0, 1} {
			rec := testgen.RandomBatch(mem, r, schema, 1+r.Intn(12), testgen.WithNullProbability(p))
			t.Run(fmt.Sprintf("%d/nulls=%v", seed, p), func(t *testing.T) { checkFormats(t, mem, rec) })
			rec.Release()
		}
		if t.Failed() {
			return
		}
	}
}
