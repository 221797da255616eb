package bench

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkCast runs CastCases: go test ./bench -run '^$' -bench 'Cast/cast_int/'
func BenchmarkCast(b *testing.B) {
	for _, c := range CastCases() {
		b.Run(c.Group+"/"+c.Name, func(b *testing.B) {
			run, cleanup := c.Setup(memory.DefaultAllocator)
			defer cleanup()
			b.ReportAllocs()
			for b.Loop() {
				if err := run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.Rows), "ns/row")
		})
	}
}

// TestCastCasesRun runs every small case once: none errors or leaks.
func TestCastCasesRun(t *testing.T) {
	for _, c := range CastCases() {
		if c.Rows > 100_000 {
			continue
		}
		t.Run(c.Group+"/"+c.Name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			run, cleanup := c.Setup(mem)
			defer cleanup()
			if err := run(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
