package sparkhash

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

const benchRows = 1 << 20

// BenchmarkHash hashes 1M int64 values and 1M 20-byte strings (each alone
// and the two as one key), reporting rows per second.
func BenchmarkHash(b *testing.B) {
	mem := memory.NewGoAllocator()
	ib := array.NewInt64Builder(mem)
	sb := array.NewStringBuilder(mem)
	for i := 0; i < benchRows; i++ {
		v := int64(uint64(i) * 0x9E3779B97F4A7C15)
		ib.Append(v)
		sb.Append(fmt.Sprintf("%020d", uint64(v)))
	}
	ints, strs := ib.NewArray(), sb.NewArray()
	ib.Release()
	sb.Release()
	defer ints.Release()
	defer strs.Release()
	dst := make([]int32, benchRows)
	for _, c := range []struct {
		name  string
		cols  []arrow.Array
		bytes int64
	}{
		{"int64", []arrow.Array{ints}, 8},
		{"string20", []arrow.Array{strs}, 20},
		{"int64+string20", []arrow.Array{ints, strs}, 28},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(c.bytes * benchRows)
			b.ReportAllocs()
			for b.Loop() {
				if err := HashInto(dst, c.cols, Seed); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}
