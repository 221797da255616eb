package columnar

import "github.com/apache/arrow-go/v18/arrow/memory"

// Zeroing wraps mem so that every byte it hands out, new or grown, is
// zero, as memory.GoAllocator's are: for arrow-go code that relies on that
// (array.MakeArrayOfNull, the Parquet reader) running over an allocator
// that recycles or does not clear (arrowvec.RecyclingAllocator, the cgo
// Mallocator). Free goes to mem.
func Zeroing(mem memory.Allocator) memory.Allocator { return zeroing{mem} }

type zeroing struct{ memory.Allocator }

func (z zeroing) Allocate(n int) []byte {
	b := z.Allocator.Allocate(n)
	clear(b)
	return b
}

func (z zeroing) Reallocate(n int, b []byte) []byte {
	old := len(b)
	nb := z.Allocator.Reallocate(n, b)
	if n > old {
		clear(nb[old:])
	}
	return nb
}
