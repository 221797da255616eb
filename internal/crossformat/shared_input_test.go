package crossformat

import (
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// nullCounts lists the stored null count of a and of every array below
// it, as arrow-go holds them (-1 where a slice's count is still unknown).
func nullCounts(a arrow.Array, out []int) []int {
	out = append(out, a.Data().NullN())
	switch a := a.(type) {
	case *array.Struct:
		for i := range a.NumField() {
			out = nullCounts(a.Field(i), out)
		}
	case array.ListLike:
		out = nullCounts(a.ListValues(), out)
	}
	return out
}

// The encoders read their input and write nothing into it: a sliced
// batch's unknown null counts stay unknown (arrow.Array.NullN would store
// the count it computes, which goroutines encoding one shared batch race
// on). The unsaferow Encoder's view once did store it; both now view
// arrays through columnar.View.
func TestEncodersWriteNothingIntoTheirInput(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	unknown := 0
	for seed := range int64(60) {
		r := rand.New(rand.NewSource(seed))
		schema := testgen.RandomSchema(r)
		full := testgen.RandomBatch(mem, r, schema, 20+r.Intn(20))
		rec := full.NewSlice(3, full.NumRows()-2)
		var before []int
		for _, col := range rec.Columns() {
			before = nullCounts(col, before)
		}
		for _, v := range before {
			if v < 0 {
				unknown++
			}
		}
		for _, f := range formats(t, schema, mem) {
			_, err := f.encode(rec)
			require.NoError(t, err, "%s, seed %d", f.name, seed)
			var after []int
			for _, col := range rec.Columns() {
				after = nullCounts(col, after)
			}
			require.Equal(t, before, after, "%s wrote null counts into its input, seed %d, schema %s", f.name, seed, schema)
		}
		rec.Release()
		full.Release()
	}
	require.Greater(t, unknown, 100, "the slices must have unknown null counts for the test to mean anything")
}
