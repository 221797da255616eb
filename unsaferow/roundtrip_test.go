package unsaferow

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// roundTrip encodes rec in the flavour, decodes the rows and requires the
// exact batch back (ValidateFull on every column, no leaks).
func roundTrip(t *testing.T, mem memory.Allocator, fl Flavor, rec arrow.RecordBatch) {
	t.Helper()
	enc, err := NewEncoder(rec.Schema(), WithFlavor(fl), WithAllocator(mem))
	if err != nil {
		t.Fatalf("%s: %v", rec.Schema(), err)
	}
	rows, err := enc.Encode(rec)
	if err != nil {
		t.Fatalf("encode %s: %v", fl, err)
	}
	dec := mustDecoder(t, rec.Schema(), mem)
	got, err := dec.Decode(rows.Slices())
	if err != nil {
		t.Fatalf("decode %s: %v\nschema %s", fl, err, rec.Schema())
	}
	defer got.Release()
	testgen.ValidateBatch(t, got)
	if !testgen.EqualBatches(t, rec, got) {
		t.Fatalf("%s round trip differs for schema %s", fl, rec.Schema())
	}
}

// TestRoundTripRandom: 300 random schemas (NaN among the floats), each as a batch and as a slice
// of it at offset 1, in both flavours, on memory that starts out dirty.
func TestRoundTripRandom(t *testing.T) {
	// Buffers come dirty, as from a recycling allocator: every byte the
	// encoder and decoder expose must be written.
	mem := testgen.DirtyAllocator(checkedMem(t))
	r := rand.New(rand.NewSource(20261201))
	for i := range 300 {
		schema := testgen.RandomSchema(r, portableSchemas()...)
		rec := testgen.RandomBatch(mem, r, schema, 1+r.Intn(20), testgen.WithNaN())
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			for _, fl := range []Flavor{Spark, Velox} {
				roundTrip(t, mem, fl, rec)
				if rec.NumRows() > 1 {
					part := rec.NewSlice(1, rec.NumRows())
					roundTrip(t, mem, fl, part)
					part.Release()
				}
			}
		})
		rec.Release()
	}
}

// TestRoundTripShapes covers the fixed shapes (#12841, wide rows, all-null,
// empty containers, deep nesting, ...) in both flavours.
func TestRoundTripShapes(t *testing.T) {
	mem := checkedMem(t)
	r := rand.New(rand.NewSource(12841))
	for _, s := range testgen.Shapes() {
		t.Run(s.Name, func(t *testing.T) {
			skipArrowDecimals(t, s.Schema)
			rec := testgen.RandomBatch(mem, r, s.Schema, 64, s.BatchOptions...)
			defer rec.Release()
			for _, fl := range []Flavor{Spark, Velox} {
				roundTrip(t, mem, fl, rec)
				part := rec.NewSlice(1, 33)
				roundTrip(t, mem, fl, part)
				part.Release()
			}
		})
	}
}
