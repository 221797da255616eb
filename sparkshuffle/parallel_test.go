package sparkshuffle_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// wide is a shuffle of many segments: 6 maps x 12 partitions, each
// segment 2 spills of 25 rows.
func wide() map[int][]mapSpec {
	var maps []mapSpec
	for m := range 6 {
		spec := mapSpec{id: int64(10 + 3*m), alg: sparkshuffle.CRC32}
		for range 12 {
			spec.parts = append(spec.parts, []int{25, 25})
		}
		maps = append(maps, spec)
	}
	return map[int][]mapSpec{0: maps}
}

// waitGoroutines waits until no more than n goroutines run.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, want at most %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

func TestNoGoroutineLeaks(t *testing.T) {
	fx := build(t, framing.None, 2, wide())
	set := openSet(t, fx)
	for _, workers := range []int{2, 4, 8} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			base := runtime.NumGoroutine()
			opts := func(mem memory.Allocator) []sparkshuffle.Option {
				return []sparkshuffle.Option{sparkshuffle.WithWorkers(workers), sparkshuffle.WithBatchRows(10), sparkshuffle.WithAllocator(mem)}
			}
			// Released before the first Next.
			mem := checkedAllocator(t)
			r := newReader(t, set, 0, opts(mem)...)
			time.Sleep(5 * time.Millisecond) // let the pipeline fill
			r.Release()
			waitGoroutines(t, base)
			mem.AssertSize(t, 0)

			// Released after one batch, with batches decoded ahead.
			r = newReader(t, set, 0, opts(mem)...)
			require.True(t, r.Next())
			time.Sleep(5 * time.Millisecond)
			r.Release()
			waitGoroutines(t, base)
			mem.AssertSize(t, 0)

			// Read to the end: the goroutines stop on their own.
			r = newReader(t, set, 0, opts(mem)...)
			keys, err := readAll(t, r)
			require.NoError(t, err)
			require.Equal(t, fx.want(0, 0, 11), keys)
			waitGoroutines(t, base)
			r.Release()
			mem.AssertSize(t, 0)

			// Stopped by an error mid-way: the batches decoded after it are freed.
			m := mapOf(t, set, 0, 16)
			flip(t, m.DataPath, m.Offsets[5]+4+12)
			r = newReader(t, set, 0, opts(mem)...)
			keys, err = readAll(t, r)
			require.ErrorIs(t, err, sparkshuffle.ErrChecksum)
			require.Equal(t, fx.want(0, 0, 5)[:len(fx.want(0, 0, 4))+50*2], keys, "partitions 0-4, then maps 10 and 13 of partition 5")
			waitGoroutines(t, base)
			r.Release()
			mem.AssertSize(t, 0)
			flip(t, m.DataPath, m.Offsets[5]+4+12)
		})
	}
}

// A slow consumer holds the Reader back: the batches decoded ahead stay
// within a few per worker, not the shuffle.
func TestMemoryBounded(t *testing.T) {
	fx := build(t, framing.None, 2, wide())
	set := openSet(t, fx)
	const batchRows = 5
	// The size of one batch, from a sequential Reader holding one.
	mem := checkedAllocator(t)
	r := newReader(t, set, 0, sparkshuffle.WithWorkers(1), sparkshuffle.WithBatchRows(batchRows), sparkshuffle.WithAllocator(mem))
	var batchBytes, batches int
	for r.Next() {
		batchBytes = max(batchBytes, mem.CurrentAlloc())
		batches++
	}
	require.NoError(t, r.Err())
	r.Release()
	require.Equal(t, 6*12*50/batchRows, batches)

	for _, workers := range []int{2, 4} {
		r := newReader(t, set, 0, sparkshuffle.WithWorkers(workers), sparkshuffle.WithBatchRows(batchRows), sparkshuffle.WithAllocator(mem))
		n, peak := 0, 0
		for r.Next() {
			n++
			if n%20 == 1 {
				time.Sleep(3 * time.Millisecond) // the pipeline runs ahead as far as it may
			}
			peak = max(peak, mem.CurrentAlloc())
		}
		require.NoError(t, r.Err())
		r.Release()
		require.Equal(t, batches, n)
		limit := (6*workers + 2) * batchBytes
		t.Logf("workers %d: peak %d bytes = %.1f batches (limit %d)", workers, peak, float64(peak)/float64(batchBytes), limit)
		require.LessOrEqual(t, peak, limit)
		require.Less(t, limit, batches*batchBytes/4, "the limit is far below the shuffle")
	}
}
