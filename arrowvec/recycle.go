package arrowvec

import (
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// RecyclingAllocator is a memory.Allocator that keeps released buffers in
// power-of-two size classes and hands them out again, so a decoder that runs
// batch after batch (and whose caller releases each batch) stops paying for
// fresh, zeroed, garbage-collected memory. Memory it hands out is NOT zeroed.
//
// Free takes back only what this allocator handed out and has not had back
// since: the whole buffer, as Allocate or Reallocate returned it (its first
// byte and its full capacity). Anything else (a buffer from elsewhere, a
// second Free of the same buffer, a sub-slice or an interior slice of one)
// is ignored and left to the garbage collector, so a buffer is never handed
// out twice. (A second Free after the memory was handed out again cannot
// be told from its new owner's Free: the slices are the same.) A buffer
// dropped without Free is collected as usual.
//
// Idle buffers are bounded twice: by the allocator's own maxIdle, and by a
// budget shared by every RecyclingAllocator in the process (see
// SetProcessIdleLimit, 256 MiB unless changed). Beyond either, freed
// buffers go to the garbage collector. It is safe for concurrent use.
type RecyclingAllocator struct {
	maxIdle int64
	t       *tracker // shared with the buffers' cleanups; holds no buffer
	classes [maxClass + 1][]idleBuf
}

// idleBuf is a freed buffer kept for reuse, with the generation of the
// allocation it is (which its cleanup was registered with).
type idleBuf struct {
	b   []byte
	gen uint64
}

// tracker records the buffers an allocator has handed out (by the address
// of their first byte, which does not keep them alive) and its idle total.
// Its mutex also guards the allocator's free lists.
type tracker struct {
	mu   sync.Mutex
	out  map[uintptr]outBuf
	gen  uint64
	idle atomic.Int64
}

type outBuf struct {
	gen   uint64 // the allocation's: tells it from a later one at the same address
	class uint8
}

const (
	minClass  = 6  // 64 bytes
	maxClass  = 30 // 1 GiB; larger requests bypass the pool
	alignment = 64
)

// DefaultProcessIdleLimit is the process-wide bound on idle recycled
// memory that SetProcessIdleLimit changes.
const DefaultProcessIdleLimit = 256 << 20

var (
	processIdle  atomic.Int64
	processLimit atomic.Int64
)

func init() { processLimit.Store(DefaultProcessIdleLimit) }

// SetProcessIdleLimit bounds the idle buffers that all RecyclingAllocators
// of the process hold together (DefaultProcessIdleLimit to begin with) and
// returns the previous bound. Lowering it drops no buffer already held; it
// applies to the next ones freed.
func SetProcessIdleLimit(n int64) int64 { return processLimit.Swap(n) }

// ProcessIdleBytes is the idle memory all RecyclingAllocators of the
// process hold together.
func ProcessIdleBytes() int64 { return processIdle.Load() }

// NewRecyclingAllocator returns an allocator that keeps up to maxIdle bytes
// of released buffers for reuse (within the process-wide limit).
func NewRecyclingAllocator(maxIdle int64) *RecyclingAllocator {
	t := &tracker{out: map[uintptr]outBuf{}}
	a := &RecyclingAllocator{maxIdle: maxIdle, t: t}
	// An allocator dropped with idle buffers gives their share of the
	// process budget back as they are collected with it.
	runtime.AddCleanup(a, func(t *tracker) { processIdle.Add(-t.idle.Load()) }, t)
	return a
}

var _ memory.Allocator = (*RecyclingAllocator)(nil)

func classOf(size int) int {
	if size <= 1<<minClass {
		return minClass
	}
	return bits.Len(uint(size - 1))
}

func addr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// Allocate returns a buffer of size bytes, 64-byte aligned, with arbitrary contents.
func (a *RecyclingAllocator) Allocate(size int) []byte {
	c := classOf(size)
	if c > maxClass {
		return alignedMake(size, size) // not recycled: Free ignores it
	}
	t := a.t
	t.mu.Lock()
	if fl := a.classes[c]; len(fl) > 0 {
		ib := fl[len(fl)-1]
		b := ib.b
		fl[len(fl)-1] = idleBuf{}
		a.classes[c] = fl[:len(fl)-1]
		// The allocation keeps its generation, so that its cleanup still
		// forgets it if this holder drops it without Free.
		t.out[addr(b)] = outBuf{gen: ib.gen, class: uint8(c)}
		t.idle.Add(-int64(cap(b)))
		t.mu.Unlock()
		processIdle.Add(-int64(cap(b)))
		return b[:size]
	}
	t.gen++
	gen := t.gen
	t.mu.Unlock()
	b, base := alignedMakeBase(size, 1<<c)
	k := addr(b)
	// Forget the buffer if it is dropped without Free, so that a later
	// buffer at the same address is not taken for it.
	runtime.AddCleanup(base, func(o outBuf) {
		t.mu.Lock()
		if e, ok := t.out[k]; ok && e.gen == o.gen {
			delete(t.out, k)
		}
		t.mu.Unlock()
	}, outBuf{gen: gen})
	t.mu.Lock()
	t.out[k] = outBuf{gen: gen, class: uint8(c)}
	t.mu.Unlock()
	return b
}

// Reallocate grows or shrinks b, keeping its contents.
func (a *RecyclingAllocator) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

// Free takes back b if it is a whole buffer this allocator handed out and
// has not had back, keeping it for reuse while the idle totals stay under
// their bounds. Anything else is ignored.
func (a *RecyclingAllocator) Free(b []byte) {
	if cap(b) == 0 {
		return
	}
	k := addr(b)
	t := a.t
	t.mu.Lock()
	e, ok := t.out[k]
	if !ok || cap(b) != 1<<e.class {
		t.mu.Unlock()
		return // not ours, not out, or not the whole buffer
	}
	delete(t.out, k)
	c := int64(cap(b))
	keep := t.idle.Load()+c <= a.maxIdle
	if keep && processIdle.Add(c) > processLimit.Load() {
		processIdle.Add(-c)
		keep = false
	}
	if !keep {
		t.mu.Unlock()
		return // over budget: let the GC have it
	}
	t.idle.Add(c)
	a.classes[e.class] = append(a.classes[e.class], idleBuf{b: b[:0], gen: e.gen})
	t.mu.Unlock()
}

// IdleBytes is how much released memory the allocator currently holds.
func (a *RecyclingAllocator) IdleBytes() int64 { return a.t.idle.Load() }

// alignedMake returns a 64-byte-aligned slice of length size and capacity c.
func alignedMake(size, c int) []byte {
	b, _ := alignedMakeBase(size, c)
	return b
}

// alignedMakeBase is alignedMake, also returning the first byte of the
// allocation.
func alignedMakeBase(size, c int) ([]byte, *byte) {
	if c > math.MaxInt-alignment {
		panic("arrowvec: allocation size overflows int")
	}
	raw := make([]byte, c+alignment)
	shift := 0
	if rem := int(uintptr(unsafe.Pointer(unsafe.SliceData(raw))) & (alignment - 1)); rem != 0 {
		shift = alignment - rem
	}
	return raw[shift : shift+size : shift+c], &raw[0]
}
