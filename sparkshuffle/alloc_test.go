package sparkshuffle_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// TestSegmentsReuseBatchBuffers: reading one more segment allocates far
// less than a batch's rows. The framing reader's batch buffers are kept
// from segment to segment; made anew for each, they grew by appending
// (about four times a batch of garbage per segment).
func TestSegmentsReuseBatchBuffers(t *testing.T) {
	if testgen.RaceEnabled {
		t.Skip("the race detector adds allocations of its own")
	}
	const rows = 6000 // more than a batch (4096 rows of 88 bytes: 360 KB)
	seg := benchSegment(t, rows)
	read := func(maps int) int64 {
		folder := shuffletest.New(t, 1)
		for m := range maps {
			folder.Write(t, shuffletest.MapOutput{Shuffle: 0, Map: int64(m), Segments: [][]byte{seg, seg}, Checksum: sparkshuffle.Adler32})
		}
		set, err := sparkshuffle.Open(folder.LocalDirs...)
		require.NoError(t, err)
		count := func() int {
			r, err := set.NewReader(0, benchSchema, sparkshuffle.WithWorkers(1))
			require.NoError(t, err)
			defer r.Release()
			n := 0
			for r.Next() {
				n += int(r.RecordBatch().NumRows())
			}
			require.NoError(t, r.Err())
			return n
		}
		require.Equal(t, 2*maps*rows, count()) // warm the pools
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		count()
		runtime.ReadMemStats(&after)
		return int64(after.TotalAlloc - before.TotalAlloc)
	}
	few, many := read(2), read(8)
	perSegment := float64(many-few) / 12
	t.Logf("%.0f bytes allocated per segment", perSegment)
	require.Less(t, perSegment, float64(128<<10), fmt.Sprintf("%d and %d bytes for 4 and 16 segments", few, many))
}
