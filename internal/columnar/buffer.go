package columnar

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// NewBuffer allocates a buffer of exactly n bytes from mem. Its contents are
// whatever the allocator hands out: callers must write every byte they
// expose (use NewZeroedBuffer otherwise).
func NewBuffer(mem memory.Allocator, n int) *memory.Buffer {
	return memory.NewBufferWithAllocator(mem.Allocate(n), mem)
}

// NewZeroedBuffer allocates a buffer of exactly n zero bytes from mem.
func NewZeroedBuffer(mem memory.Allocator, n int) *memory.Buffer {
	b := mem.Allocate(n)
	clear(b)
	return memory.NewBufferWithAllocator(b, mem)
}

// NewOffsets allocates the int32 offsets buffer for n list or binary
// entries (n+1 values) and returns it with its typed view; offsets[0] is 0.
// The caller checks n against its input first: n beyond what int32
// offsets or the address space hold (4*(n+1) wraps on 32-bit machines) is
// a bug, and panics.
func NewOffsets(mem memory.Allocator, n int) (*memory.Buffer, []int32) {
	if n < 0 || int64(n) >= math.MaxInt32 || int64(n)+1 > math.MaxInt/4 {
		panic(fmt.Sprintf("rowbridge: %d offsets entries", n))
	}
	buf := NewBuffer(mem, 4*(n+1))
	offs := Cast[int32](buf.Bytes())
	offs[0] = 0
	return buf, offs
}
