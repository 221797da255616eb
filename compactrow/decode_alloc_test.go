package compactrow

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// Allocations per Decode and per AppendRows do not grow with the row count:
// scratch is pooled and every Arrow buffer is allocated once per column.
func TestAllocationsIndependentOfRows(t *testing.T) {
	if testgen.RaceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	for _, bc := range testgen.BenchCases() {
		t.Run(bc.Name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			enc, err := NewEncoder(bc.Schema)
			require.NoError(t, err)
			dec, err := NewDecoder(bc.Schema, WithAllocator(mem))
			require.NoError(t, err)
			var decAllocs, encAllocs [2]float64
			for k, n := range []int{10, 1000} {
				rec := testgen.BenchBatch(mem, bc.Name, n, 1)
				rows, err := enc.Encode(rec)
				require.NoError(t, err)
				slices := rows.Slices()
				decAllocs[k] = testing.AllocsPerRun(20, func() {
					out, err := dec.Decode(slices)
					if err != nil {
						panic(err)
					}
					out.Release()
				})
				var dst rowbridge.Rows
				encAllocs[k] = testing.AllocsPerRun(20, func() {
					dst.Reset()
					if dst, err = enc.AppendRows(dst, rec); err != nil {
						panic(err)
					}
				})
				rec.Release()
			}
			// A GC emptying the scratch pool mid-run may cost one extra allocation.
			require.InDelta(t, decAllocs[0], decAllocs[1], 2, "decode allocations for 10 vs 1000 rows")
			require.InDelta(t, encAllocs[0], encAllocs[1], 2, "encode allocations for 10 vs 1000 rows")
			t.Logf("allocs/op: decode %v, encode %v", decAllocs[1], encAllocs[1])
		})
	}
}
