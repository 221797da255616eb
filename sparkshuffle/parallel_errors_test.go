package sparkshuffle_test

import (
	"errors"
	"fmt"
	"runtime"
	"testing"

	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// TestParallelErrorAtEachSegment: whichever segment is bad, first or
// last or between, and however many workers decode ahead of it, the
// Reader delivers exactly the rows before the fault in read order, then
// the fault naming that segment; its error stays (Next keeps returning
// false with the same Err); and releasing it frees every batch decoded
// ahead and stops every goroutine.
func TestParallelErrorAtEachSegment(t *testing.T) {
	const maps, parts = 3, 3
	var spec []mapSpec
	for m := range maps {
		s := mapSpec{id: int64(4 + 5*m), alg: sparkshuffle.Adler32}
		for range parts {
			s.parts = append(s.parts, []int{7, 7})
		}
		spec = append(spec, s)
	}
	for _, checksum := range []sparkshuffle.ChecksumPolicy{sparkshuffle.Verify, sparkshuffle.Ignore} {
		for k := range maps * parts {
			p, m := k/maps, int64(4+5*(k%maps)) // read order: partition, then map
			fx := build(t, framing.LZ4, 2, map[int][]mapSpec{0: spec})
			set := openSet(t, fx)
			mo := mapOf(t, set, 0, m)
			// A byte of the first LZ4 block's compressed data (past its 21-byte header).
			flip(t, mo.DataPath, mo.Offsets[p]+21+5)
			var before []key // the segments before the bad one
			for q := range p + 1 {
				for _, id := range fx.maps[0] {
					if q == p && id == m {
						break
					}
					before = append(before, fx.rows[0][q][id]...)
				}
			}
			segment := fx.rows[0][p][m]
			for _, workers := range workerCounts {
				t.Run(fmt.Sprintf("%v/segment%d/workers%d", checksum, k, workers), func(t *testing.T) {
					base := runtime.NumGoroutine()
					mem := checkedAllocator(t)
					r := newReader(t, set, 0, sparkshuffle.WithWorkers(workers), sparkshuffle.WithBatchRows(3),
						sparkshuffle.WithChecksum(checksum), sparkshuffle.WithAllocator(mem))
					got, err := readAll(t, r)
					require.Error(t, err)
					requireSegmentErrorAt(t, err, mo, p)
					require.GreaterOrEqual(t, len(got), len(before))
					require.Equal(t, append([]key{}, before...), append([]key{}, got[:len(before)]...), "the segments before the bad one, whole and in order")
					rest := got[len(before):]
					if checksum == sparkshuffle.Verify {
						require.ErrorIs(t, err, sparkshuffle.ErrChecksum)
						require.Empty(t, rest, "a segment failing its checksum gives no row")
					} else {
						require.Less(t, len(rest), len(segment))
						require.Equal(t, append([]key{}, segment[:len(rest)]...), append([]key{}, rest...), "rows of the bad segment before the fault")
					}
					for range 2 {
						require.False(t, r.Next(), "the error is sticky")
						require.Equal(t, err, r.Err())
					}
					r.Release()
					waitGoroutines(t, base)
					mem.AssertSize(t, 0)
				})
			}
		}
	}
}

func requireSegmentErrorAt(t *testing.T, err error, m *sparkshuffle.MapOutput, p int) {
	t.Helper()
	var se *sparkshuffle.SegmentError
	var ce *sparkshuffle.ChecksumError
	switch {
	case errors.As(err, &se):
		require.Equal(t, [3]int64{0, m.Map, int64(p)}, [3]int64{int64(se.Shuffle), se.Map, int64(se.Partition)}, "%v", err)
		require.Equal(t, m.DataPath, se.Path)
	case errors.As(err, &ce):
		require.Equal(t, [3]int64{0, m.Map, int64(p)}, [3]int64{int64(ce.Shuffle), ce.Map, int64(ce.Partition)}, "%v", err)
		require.Equal(t, m.DataPath, ce.Path)
	default:
		t.Fatalf("%v: neither a segment nor a checksum error", err)
	}
}
