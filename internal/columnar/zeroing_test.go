package columnar

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestZeroingClearsDirtyMemory: over an allocator that hands out 0xA5
// bytes, Zeroing's new and grown bytes are zero, the bytes kept by a
// Reallocate are the caller's, and every byte is freed to the one below.
func TestZeroingClearsDirtyMemory(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer checked.AssertSize(t, 0)
	mem := Zeroing(dirty{checked})
	b := mem.Allocate(100)
	require.Equal(t, make([]byte, 100), b)
	for i := range b {
		b[i] = 7
	}
	b = mem.Reallocate(300, b)
	require.Len(t, b, 300)
	for i := range 100 {
		require.Equal(t, byte(7), b[i], "byte %d kept", i)
	}
	require.Equal(t, make([]byte, 200), b[100:])
	mem.Free(b)
	raw := dirty{checked}.Allocate(8)
	require.NotEqual(t, make([]byte, 8), raw, "the allocator below is dirty, or this test means nothing")
	checked.Free(raw)
}

// dirty hands out 0xA5 bytes (internal/testgen's DirtyAllocator imports
// this package).
type dirty struct{ memory.Allocator }

func (d dirty) Allocate(n int) []byte {
	b := d.Allocator.Allocate(n)
	for i := range b {
		b[i] = 0xA5
	}
	return b
}

func (d dirty) Reallocate(n int, b []byte) []byte {
	old := len(b)
	nb := d.Allocator.Reallocate(n, b)
	for i := old; i < len(nb); i++ {
		nb[i] = 0xA5
	}
	return nb
}
