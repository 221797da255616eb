package trycast

import (
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func benchStrings(n int, f func(int) string) *array.String {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	for i := range n {
		b.Append(f(i))
	}
	return b.NewStringArray()
}

// BenchmarkCastInt32 is the kernel alone (no registry) on the Velox columns.
func BenchmarkCastInt32(b *testing.B) {
	for _, c := range []struct {
		name string
		f    func(int) string
	}{{"valid", strconv.Itoa}, {"empty", func(int) string { return "" }}, {"invalid", func(int) string { return "$" }}} {
		arr := benchStrings(1000, c.f)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, _ := Cast(memory.DefaultAllocator, arr, arrow.PrimitiveTypes.Int32, Options{})
				out.Release()
			}
		})
		b.Run(c.name+"/parse_only", func(b *testing.B) {
			vals := make([][]byte, arr.Len())
			for i := range vals {
				vals[i] = []byte(arr.Value(i))
			}
			var sink int64
			for b.Loop() {
				for _, v := range vals {
					x, _ := ParseInt(v, 32, Presto)
					sink += x
				}
			}
			_ = sink
		})
	}
}

// BenchmarkParseIntColumn is ParseInt over the Velox valid column, called
// as the kernel calls it.
func BenchmarkParseIntColumn(b *testing.B) {
	arr := benchStrings(1000, strconv.Itoa)
	vals := make([][]byte, arr.Len())
	for i := range vals {
		vals[i] = []byte(arr.Value(i))
	}
	var sink int64
	for b.Loop() {
		for _, v := range vals {
			x, _ := ParseInt(v, 32, Presto)
			sink += x
		}
	}
	_ = sink
}
