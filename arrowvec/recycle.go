package arrowvec

import (
	"math/bits"
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
// It holds at most MaxIdle bytes of idle buffers; beyond that freed buffers
// go to the garbage collector. It is safe for concurrent use.
type RecyclingAllocator struct {
	maxIdle int64
	idle    atomic.Int64
	classes [maxClass + 1]freeList
}

type freeList struct {
	mu   sync.Mutex
	bufs [][]byte
}

const (
	minClass  = 6  // 64 bytes
	maxClass  = 30 // 1 GiB; larger requests bypass the pool
	alignment = 64
)

// NewRecyclingAllocator returns an allocator that keeps up to maxIdle bytes
// of released buffers for reuse.
func NewRecyclingAllocator(maxIdle int64) *RecyclingAllocator {
	return &RecyclingAllocator{maxIdle: maxIdle}
}

var _ memory.Allocator = (*RecyclingAllocator)(nil)

func classOf(size int) int {
	if size <= 1<<minClass {
		return minClass
	}
	return bits.Len(uint(size - 1))
}

// Allocate returns a buffer of size bytes, 64-byte aligned, with arbitrary contents.
func (a *RecyclingAllocator) Allocate(size int) []byte {
	c := classOf(size)
	if c > maxClass {
		return alignedMake(size, size)
	}
	fl := &a.classes[c]
	fl.mu.Lock()
	if n := len(fl.bufs); n > 0 {
		b := fl.bufs[n-1]
		fl.bufs[n-1] = nil
		fl.bufs = fl.bufs[:n-1]
		fl.mu.Unlock()
		a.idle.Add(-int64(cap(b)))
		return b[:size]
	}
	fl.mu.Unlock()
	return alignedMake(size, 1<<c)
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

// Free returns b to its size class while the idle total stays under the cap.
func (a *RecyclingAllocator) Free(b []byte) {
	c := cap(b)
	if c == 0 || c&(c-1) != 0 || c < 1<<minClass || c > 1<<maxClass {
		return // not one of ours (or a bypass allocation): let the GC have it
	}
	if a.idle.Add(int64(c)) > a.maxIdle {
		a.idle.Add(-int64(c))
		return
	}
	fl := &a.classes[bits.Len(uint(c))-1]
	fl.mu.Lock()
	fl.bufs = append(fl.bufs, b[:0])
	fl.mu.Unlock()
}

// IdleBytes is how much released memory the allocator currently holds.
func (a *RecyclingAllocator) IdleBytes() int64 { return a.idle.Load() }

// alignedMake returns a 64-byte-aligned slice of length size and capacity c.
func alignedMake(size, c int) []byte {
	raw := make([]byte, c+alignment)
	shift := 0
	if rem := int(uintptr(unsafe.Pointer(unsafe.SliceData(raw))) & (alignment - 1)); rem != 0 {
		shift = alignment - rem
	}
	return raw[shift : shift+size : shift+c]
}
