package trycast

import (
	"strconv"
	"testing"
)

// The Velox CastBenchmark shape: 1000 rows of "0".."999", of "" and of
// "$", cast to int32. Reported per row (ns/op is one row).
func benchParseInt(b *testing.B, col [][]byte, d Dialect) {
	b.ReportAllocs()
	var sink int64
	n := 0
	for b.Loop() {
		v, ok := ParseInt(col[n], 32, d)
		if ok {
			sink += v
		}
		n++
		if n == len(col) {
			n = 0
		}
	}
	_ = sink
}

func benchColumn(f func(i int) string) [][]byte {
	col := make([][]byte, 1000)
	for i := range col {
		col[i] = []byte(f(i))
	}
	return col
}

func BenchmarkParseInt(b *testing.B) {
	valid := benchColumn(strconv.Itoa)
	empty := benchColumn(func(int) string { return "" })
	invalid := benchColumn(func(int) string { return "$" })
	for d := Presto; d <= SparkANSI; d++ {
		b.Run(d.String()+"/valid", func(b *testing.B) { benchParseInt(b, valid, d) })
		b.Run(d.String()+"/empty", func(b *testing.B) { benchParseInt(b, empty, d) })
		b.Run(d.String()+"/invalid", func(b *testing.B) { benchParseInt(b, invalid, d) })
	}
}

// BenchmarkStrconvParseInt is the baseline the arrow-go cast uses.
func BenchmarkStrconvParseInt(b *testing.B) {
	valid := benchColumn(strconv.Itoa)
	b.Run("valid", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			strconv.ParseInt(string(valid[n]), 10, 32)
			n = (n + 1) % len(valid)
		}
	})
	b.Run("invalid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			strconv.ParseInt("$", 10, 32)
		}
	})
}
