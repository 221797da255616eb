package unsaferow

import (
	"math/bits"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

const benchRows = 1000

// BenchmarkDecode times decoding 1000 pre-split rows of each Velox serde
// benchmark case (spec §6) into a record batch, with Go memory and with a
// recycling allocator that hands released buffers back out.
func BenchmarkDecode(b *testing.B) {
	for _, c := range testgen.BenchCases() {
		rec := testgen.BenchBatch(memory.DefaultAllocator, c.Name, benchRows, 1)
		enc, err := NewEncoder(c.Schema)
		if err != nil {
			b.Fatal(err)
		}
		encoded, err := enc.Encode(rec)
		rec.Release()
		if err != nil {
			b.Fatal(err)
		}
		rows := encoded.Slices()
		for _, alloc := range []struct {
			name string
			mem  memory.Allocator
		}{{"go", memory.DefaultAllocator}, {"recycling", newRecyclingAllocator()}} {
			b.Run(c.Name+"/"+alloc.name, func(b *testing.B) {
				dec, err := NewDecoder(c.Schema, WithAllocator(alloc.mem))
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(encoded.Data)))
				b.ReportAllocs()
				cpu0 := processCPUTime()
				for b.Loop() {
					out, err := dec.Decode(rows)
					if err != nil {
						b.Fatal(err)
					}
					out.Release()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchRows, "ns/row")
				if cpu := processCPUTime() - cpu0; cpu0 > 0 {
					b.ReportMetric(float64(cpu)/float64(b.N)/benchRows, "cpu-ns/row")
				}
			})
		}
	}
}

// recyclingAllocator keeps freed buffers in power-of-two size classes and
// hands them out again, as a stand-in for a production buffer pool. It
// zeroes nothing: the decoder writes every byte it exposes.
type recyclingAllocator struct {
	mu   sync.Mutex
	free [64][][]byte
}

func newRecyclingAllocator() *recyclingAllocator { return &recyclingAllocator{} }

func sizeClass(n int) int { return bits.Len(uint(max(n, 64) - 1)) }

func (a *recyclingAllocator) Allocate(n int) []byte {
	c := sizeClass(n)
	a.mu.Lock()
	if l := len(a.free[c]); l > 0 {
		b := a.free[c][l-1]
		a.free[c] = a.free[c][:l-1]
		a.mu.Unlock()
		return b[:n]
	}
	a.mu.Unlock()
	return memory.DefaultAllocator.Allocate(1 << c)[:n]
}

func (a *recyclingAllocator) Reallocate(n int, b []byte) []byte {
	if n <= cap(b) {
		return b[:n]
	}
	nb := a.Allocate(n)
	copy(nb, b)
	a.Free(b)
	return nb
}

func (a *recyclingAllocator) Free(b []byte) {
	c := sizeClass(cap(b))
	if 1<<c != cap(b) {
		return
	}
	a.mu.Lock()
	a.free[c] = append(a.free[c], b[:cap(b)])
	a.mu.Unlock()
}
