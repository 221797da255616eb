package sparkshuffle_test

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// TestConcurrentSharedBuffersGiveTheSameRows: Readers that share Buffers, several
// at once and one after another, with one worker and with several, each
// read exactly its partition's rows in order.
func TestConcurrentSharedBuffersGiveTheSameRows(t *testing.T) {
	folder := shuffletest.New(t, 2)
	const parts = 3
	want := map[int][]shuffletest.Key{}
	for m := range 3 {
		var segments [][]byte
		for p := range parts {
			seg, keys := shuffletest.Spills(t, memory.NewGoAllocator(), framing.LZ4, p, int64(m), 300*(p+1), 7)
			segments = append(segments, seg)
			want[p] = append(want[p], keys...)
		}
		folder.Write(t, shuffletest.MapOutput{Shuffle: 1, Map: int64(m), Segments: segments, Checksum: sparkshuffle.Adler32})
	}
	set, err := sparkshuffle.Open(folder.LocalDirs...)
	require.NoError(t, err)
	bufs, err := sparkshuffle.NewBuffers(2)
	require.NoError(t, err)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 8 {
		wg.Go(func() {
			for i := range 3 {
				p := (g + i) % parts
				r, err := set.NewReader(1, shuffletest.Schema, sparkshuffle.WithPartition(p), sparkshuffle.WithBuffers(bufs),
					sparkshuffle.WithWorkers(1+g%2), sparkshuffle.WithBatchRows(100), sparkshuffle.WithAllocator(mem))
				if err != nil {
					errs <- err
					return
				}
				n := 0
				for r.Next() {
					rec := r.RecordBatch()
					for row := range int(rec.NumRows()) {
						shuffletest.Check(t, rec, row, want[p][n])
						n++
					}
				}
				r.Release()
				if err := r.Err(); err != nil {
					errs <- err
					return
				}
				if n != len(want[p]) {
					errs <- fmt.Errorf("partition %d: %d rows, want %d", p, n, len(want[p]))
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

// TestSharedBuffersAllocateOnce: a Reader that takes the Buffers a Reader
// before it gave back allocates a small part of what one with buffers of
// its own does (for each segment verified whole: its bytes, its framing
// buffers grown by appending, the batch buffers).
func TestSharedBuffersAllocateOnce(t *testing.T) {
	if testgen.RaceEnabled {
		t.Skip("the race detector adds allocations of its own")
	}
	seg := benchSegment(t, 6000)
	folder := shuffletest.New(t, 1)
	for m := range 4 {
		folder.Write(t, shuffletest.MapOutput{Shuffle: 0, Map: int64(m), Segments: [][]byte{seg}, Checksum: sparkshuffle.Adler32})
	}
	set, err := sparkshuffle.Open(folder.LocalDirs...)
	require.NoError(t, err)
	bufs, err := sparkshuffle.NewBuffers(2)
	require.NoError(t, err)
	mem := memory.NewGoAllocator()
	read := func(opts ...sparkshuffle.Option) int64 {
		count := func() {
			r, err := set.NewReader(0, benchSchema, append(opts, sparkshuffle.WithAllocator(mem), sparkshuffle.WithWorkers(2))...)
			require.NoError(t, err)
			defer r.Release()
			n := 0
			for r.Next() {
				n += int(r.RecordBatch().NumRows())
			}
			require.NoError(t, r.Err())
			require.Equal(t, 4*6000, n)
		}
		count() // warm what can be warmed
		// The fewest bytes of three reads: a collection during a read
		// empties the sync.Pools (the decoder's scratch among them), and
		// what refills them is not what this test is about.
		least := int64(math.MaxInt64)
		for range 3 {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			count()
			runtime.ReadMemStats(&after)
			least = min(least, int64(after.TotalAlloc-before.TotalAlloc))
		}
		return least
	}
	own, shared := read(), read(sparkshuffle.WithBuffers(bufs))
	// The batches themselves (from the Go allocator) are the same both ways.
	batches := int64(4 * 6000 * (5*8 + 5*4))
	t.Logf("%d bytes with buffers of its own, %d shared, of which %d the batches", own, shared, batches)
	require.Less(t, shared-batches, (own-batches)/4)
}

func TestNewBuffersRefusesNoRoom(t *testing.T) {
	_, err := sparkshuffle.NewBuffers(0)
	require.ErrorIs(t, err, arrow.ErrInvalid)
	folder := shuffletest.New(t, 1)
	folder.Write(t, shuffletest.MapOutput{Shuffle: 0, Map: 0, Segments: [][]byte{nil}})
	set, err := sparkshuffle.Open(folder.LocalDirs...)
	require.NoError(t, err)
	_, err = set.NewReader(0, shuffletest.Schema, sparkshuffle.WithBuffers(nil))
	require.ErrorIs(t, err, arrow.ErrInvalid)
}
