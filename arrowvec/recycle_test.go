package arrowvec

import (
	"math"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireDisjoint fails when two of the buffers share a byte (over their
// full capacities) or one is not 64-byte aligned.
func requireDisjoint(t *testing.T, bufs [][]byte) {
	t.Helper()
	for i, b := range bufs {
		require.Zero(t, addr(b)%alignment, "buffer %d unaligned", i)
		for j, c := range bufs[:i] {
			bs, cs := addr(b), addr(c)
			require.False(t, bs < cs+uintptr(cap(c)) && cs < bs+uintptr(cap(b)),
				"buffers %d [%#x, +%d) and %d [%#x, +%d) overlap", j, cs, cap(c), i, bs, cap(b))
		}
	}
}

// Free ignores what the allocator did not hand out, or has had back: a
// double free, a foreign buffer of a power-of-two capacity, a sub-slice, an
// interior slice of a live buffer, a buffer resliced to a shorter capacity.
// Afterwards, Allocate never hands out memory that is live.
func TestRecyclingAllocatorFreeOnlyWhatIsOut(t *testing.T) {
	for _, tc := range []struct {
		name string
		bad  func(a *RecyclingAllocator, live *[][]byte)
	}{
		{"double free", func(a *RecyclingAllocator, live *[][]byte) {
			x := a.Allocate(100)
			a.Free(x)
			a.Free(x)
		}},
		{"foreign buffers", func(a *RecyclingAllocator, live *[][]byte) {
			f := alignedMake(128, 128)
			*live = append(*live, f)
			a.Free(f)
			g := make([]byte, 256)
			*live = append(*live, g)
			a.Free(g)
		}},
		{"unaligned sub-slice", func(a *RecyclingAllocator, live *[][]byte) {
			x := a.Allocate(200)
			*live = append(*live, x)
			a.Free(x[8 : 8+64 : 8+64])
		}},
		{"interior of a live buffer", func(a *RecyclingAllocator, live *[][]byte) {
			w := a.Allocate(256)
			*live = append(*live, w)
			a.Free(w[128:])
			a.Free(w[64:128:128])
		}},
		{"shorter capacity", func(a *RecyclingAllocator, live *[][]byte) {
			w := a.Allocate(256)
			*live = append(*live, w)
			a.Free(w[:0:128])
			a.Free(w[:64:64])
		}},
		{"reallocated away", func(a *RecyclingAllocator, live *[][]byte) {
			x := a.Allocate(64)
			y := a.Reallocate(1000, x) // frees x
			*live = append(*live, y)
			a.Free(x)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := NewRecyclingAllocator(1 << 20)
			var live [][]byte
			for _, n := range []int{64, 128, 256, 512} { // some idle buffers to hand out
				a.Free(a.Allocate(n))
			}
			idle := a.IdleBytes()
			tc.bad(a, &live)
			for range 3 {
				for _, n := range []int{1, 64, 65, 100, 128, 200, 256, 500, 512, 1000} {
					live = append(live, a.Allocate(n))
				}
			}
			requireDisjoint(t, live)
			// The live buffers are still the allocator's: each comes back.
			for _, b := range live {
				a.Free(b)
			}
			assert.GreaterOrEqual(t, a.IdleBytes(), idle)
		})
	}
}

// All RecyclingAllocators of the process share one bound on idle memory.
func TestRecyclingAllocatorProcessLimit(t *testing.T) {
	for range 3 { // let earlier tests' dropped allocators give their share back
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	before := ProcessIdleBytes()
	old := SetProcessIdleLimit(before + 4096)
	defer SetProcessIdleLimit(old)
	a, b := NewRecyclingAllocator(1<<20), NewRecyclingAllocator(1<<20)
	var bufs [][]byte
	for range 8 {
		bufs = append(bufs, a.Allocate(1024), b.Allocate(1024))
	}
	for _, x := range bufs {
		a.Free(x) // half of them are b's: ignored
		b.Free(x)
	}
	assert.Equal(t, int64(4096), a.IdleBytes()+b.IdleBytes(), "the process budget, not 2 MiB, bounds the idle bytes")
	assert.Equal(t, before+4096, ProcessIdleBytes())
	// Reuse gives the budget back.
	for range 4 {
		a.Allocate(1000)
		b.Allocate(1000)
	}
	assert.Equal(t, before, ProcessIdleBytes())
	assert.Zero(t, a.IdleBytes()+b.IdleBytes())
}

// waitUntilForgotten collects garbage until a tracks no buffer handed out,
// failing after 5 seconds with how many of what are still tracked.
func waitUntilForgotten(t *testing.T, a *RecyclingAllocator, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		a.t.mu.Lock()
		n := len(a.t.out)
		a.t.mu.Unlock()
		if n == 0 {
			return
		}
		require.True(t, time.Now().Before(deadline), "%d "+what+" still tracked", n)
		time.Sleep(time.Millisecond)
	}
}

// A buffer dropped without Free is collected, and the allocator forgets it.
func TestRecyclingAllocatorForgetsDroppedBuffers(t *testing.T) {
	a := NewRecyclingAllocator(1 << 20)
	for range 16 {
		a.Allocate(4096)
	}
	waitUntilForgotten(t, a, "dropped buffers")
}

// A buffer handed out again from the free list and then dropped without
// Free is forgotten too: its cleanup, registered when the memory was made,
// still matches it. Before, each reuse took a new generation, the cleanup
// no longer matched, and the stale entries let Free take back another
// allocator's live buffer at the same address.
func TestRecyclingAllocatorForgetsDroppedReusedBuffers(t *testing.T) {
	a := NewRecyclingAllocator(64 << 20)
	for i := range 2000 {
		a.Free(a.Allocate(1000 + i%7))
		a.Allocate(1000) // reused, then dropped
	}
	waitUntilForgotten(t, a, "dropped reused buffers")
	other := NewRecyclingAllocator(64 << 20)
	var keep [][]byte
	for range 2000 {
		fb := other.Allocate(1000)
		keep = append(keep, fb)
		a.Free(fb)
		require.Zero(t, a.IdleBytes(), "took back a buffer another allocator handed out")
	}
	runtime.KeepAlive(keep)
}

// Goroutines sharing an allocator, freeing interiors or foreign buffers
// as well as their own, never get the same memory: each writes its own mark
// over its buffer and finds it intact. Run under -race as well.
func TestRecyclingAllocatorConcurrent(t *testing.T) {
	a := NewRecyclingAllocator(1 << 20)
	const workers, rounds = 4, 2000
	var wg sync.WaitGroup
	errs := make(chan string, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mark := byte(w + 1)
			for i := range rounds {
				b := a.Allocate(64 + (i*37+w*11)%900)
				for j := range b {
					b[j] = mark
				}
				runtime.Gosched()
				for j := range b {
					if b[j] != mark {
						errs <- "a live buffer was handed out to another goroutine"
						return
					}
				}
				// No double frees here: once another goroutine has the
				// memory again, a second Free is its owner's Free.
				switch i % 4 {
				case 1:
					a.Free(b[:cap(b)][cap(b)/2:]) // interior
					a.Free(b)
				case 2:
					a.Free(make([]byte, 512)) // foreign
					a.Free(b)
				default:
					a.Free(b)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// An allocator dropped with idle buffers gives their share of the process
// budget back once it is collected.
func TestRecyclingAllocatorDroppedGivesBudgetBack(t *testing.T) {
	// Other tests' allocators may be collected meanwhile: the total only
	// falls by them.
	before := ProcessIdleBytes()
	func() {
		a := NewRecyclingAllocator(1 << 20)
		for range 4 {
			a.Free(a.Allocate(1 << 12))
			a.Free(a.Allocate(1 << 13))
		}
		require.Equal(t, int64(3<<12), a.IdleBytes())
		require.GreaterOrEqual(t, ProcessIdleBytes(), int64(3<<12))
	}()
	deadline := time.Now().Add(5 * time.Second)
	for ProcessIdleBytes() > before {
		require.True(t, time.Now().Before(deadline), "process idle bytes stay at %d, want %d", ProcessIdleBytes(), before)
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

func TestRecyclingAllocatorReuses(t *testing.T) {
	a := NewRecyclingAllocator(1 << 20)
	b := a.Allocate(100)
	require.Len(t, b, 100)
	assert.Equal(t, 128, cap(b))
	assert.Zero(t, addr(b)%64, "64-byte aligned")
	b[0] = 42
	a.Free(b)
	assert.Equal(t, int64(128), a.IdleBytes())
	c := a.Allocate(120)
	assert.Equal(t, &b[0], &c[0], "same memory handed out again")
	assert.Zero(t, a.IdleBytes())
	c = a.Reallocate(1000, c)
	assert.Equal(t, byte(42), c[0], "contents kept on growth")
	assert.Len(t, c, 1000)
	a.Free(c)

	small := NewRecyclingAllocator(100) // cap below one buffer: nothing kept
	small.Free(small.Allocate(200))
	assert.Zero(t, small.IdleBytes())

	// through arrow-go: a released buffer comes back
	buf := columnar.NewBuffer(a, 4000)
	p := &buf.Bytes()[0]
	buf.Release()
	again := columnar.NewBuffer(a, 3000)
	assert.Equal(t, p, &again.Bytes()[0])
	again.Release()
}

// An allocation size beyond the address space panics with a message (a
// caller's bug) rather than wrap into a small buffer on 32-bit machines.
func TestRecyclingAllocatorSizeDoesNotWrap(t *testing.T) {
	a := NewRecyclingAllocator(1 << 20)
	assert.PanicsWithValue(t, "arrowvec: allocation size overflows int", func() { a.Allocate(math.MaxInt - 8) })
}
