package testgen

import "github.com/apache/arrow-go/v18/arrow/memory"

// DirtyAllocator wraps mem so that every byte it hands out, new or grown,
// is garbage (0xA5) rather than zero, as with a recycling allocator: a
// decoder or encoder that passes its tests on it writes every byte it
// exposes. Free goes to mem, so a checked allocator under it still counts.
func DirtyAllocator(mem memory.Allocator) memory.Allocator { return dirtyAllocator{mem} }

type dirtyAllocator struct{ memory.Allocator }

func (d dirtyAllocator) Allocate(n int) []byte {
	b := d.Allocator.Allocate(n)
	fillGarbage(b)
	return b
}

func (d dirtyAllocator) Reallocate(n int, b []byte) []byte {
	old := len(b)
	nb := d.Allocator.Reallocate(n, b)
	if n > old {
		fillGarbage(nb[old:])
	}
	return nb
}

func fillGarbage(b []byte) {
	for i := range b {
		b[i] = 0xA5
	}
}
