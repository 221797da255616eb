package crossformat

import (
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// TestFlippedBitsDecodeZeroUnderNulls: rows of random batches with one bit
// flipped, often in a null bitset, so that a value the row still holds
// becomes a null: each format's decoder either refuses the rows with a
// *rowbridge.DecodeError or returns a valid batch with zeros under every
// null, never the bytes that were under the new null.
func TestFlippedBitsDecodeZeroUnderNulls(t *testing.T) {
	mem := dirtyMem(t)
	decoded := 0
	for seed := range int64(120) {
		r := rand.New(rand.NewSource(9000 + seed))
		schema := testgen.RandomSchema(r, testgen.WithMaxFields(5), testgen.WithNonNullable(0))
		rec := testgen.RandomBatch(mem, r, schema, 1+r.Intn(6), testgen.WithNullProbability(0.1))
		for _, f := range formats(t, schema, mem) {
			rows, err := f.encode(rec)
			if err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
			for flip := range 30 {
				in := slices.Clone(rows.Data)
				i := r.Intn(rows.Len())
				start, n := rows.Offsets[i], rows.Offsets[i+1]-rows.Offsets[i]
				at := start + r.Intn(n)
				if flip%2 == 0 {
					at = start + r.Intn(min(n, 8)) // the top-level null bits
				}
				in[at] ^= 1 << r.Intn(8)
				mutated := rowbridge.Rows{Data: in, Offsets: rows.Offsets}
				got, err := f.decode(mutated.Slices())
				if err != nil {
					var de *rowbridge.DecodeError
					if !errors.As(err, &de) {
						t.Fatalf("%s: error %v (%T) is not a *rowbridge.DecodeError", f.name, err, err)
					}
					continue
				}
				decoded++
				ok := testgen.ValidateBatch(t, got)
				diffs := testgen.NullSlotDiffs(got, 5)
				got.Release()
				if !ok || len(diffs) > 0 {
					t.Fatalf("seed %d, %s, byte %d of row %d flipped: %s\nschema %s", seed, f.name, at-start, i, fmt.Sprint(diffs), schema)
				}
			}
		}
		rec.Release()
	}
	if decoded < 1000 {
		t.Fatalf("only %d mutated batches decoded: the test exercises too little", decoded)
	}
	t.Logf("%d mutated batches decoded", decoded)
}
