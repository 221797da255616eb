package testgen

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FillAllocator hands out memory filled with Fill (new or grown) and
// records the largest single request in Largest. Two decodes of the same
// rows on fills 0x00 and 0xff differ where a byte was exposed without being
// written (SameBuffers tells where), and Largest shows whether an
// allocation followed an unchecked length. DirtyAllocator is the one-fill
// form for tests that need no comparison.
type FillAllocator struct {
	memory.Allocator
	Fill    byte
	Largest int
}

func (a *FillAllocator) Allocate(n int) []byte {
	a.Largest = max(a.Largest, n)
	b := a.Allocator.Allocate(n)
	for i := range b {
		b[i] = a.Fill
	}
	return b
}

func (a *FillAllocator) Reallocate(n int, b []byte) []byte {
	a.Largest = max(a.Largest, n)
	old := len(b)
	nb := a.Allocator.Reallocate(n, b)
	for i := old; i < n; i++ {
		nb[i] = a.Fill
	}
	return nb
}

// SameBuffers reports where two decodes of the same rows differ byte for
// byte in any buffer (within each buffer's length), or "".
func SameBuffers(path string, a, b arrow.ArrayData) string {
	if a.Len() != b.Len() || a.NullN() != b.NullN() || len(a.Buffers()) != len(b.Buffers()) || len(a.Children()) != len(b.Children()) {
		return path + ": shapes differ"
	}
	for i, ba := range a.Buffers() {
		bb := b.Buffers()[i]
		if (ba == nil) != (bb == nil) {
			return fmt.Sprintf("%s: buffer %d present in one decode only", path, i)
		}
		if ba != nil && !bytes.Equal(ba.Bytes(), bb.Bytes()) {
			return fmt.Sprintf("%s: buffer %d differs\n%x\n%x", path, i, ba.Bytes(), bb.Bytes())
		}
	}
	for i, ca := range a.Children() {
		if d := SameBuffers(fmt.Sprintf("%s.%d", path, i), ca, b.Children()[i]); d != "" {
			return d
		}
	}
	return ""
}
