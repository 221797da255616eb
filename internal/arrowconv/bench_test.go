package arrowconv

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkConvert converts a 64Ki-row batch of timestamp[ns],
// dictionary<int32, utf8> and large_utf8 columns (the pandas and polars
// shapes), reporting bytes of input per second.
func BenchmarkConvert(b *testing.B) {
	const n = 1 << 16
	mem := memory.NewGoAllocator()
	tb := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Nanosecond})
	sb := array.NewLargeStringBuilder(mem)
	db := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	words := []string{"alpha", "beta", "gamma", "a somewhat longer category name"}
	for i := range n {
		tb.Append(arrow.Timestamp(int64(i) * 1000))
		sb.Append(words[i%len(words)])
		_ = db.AppendString(words[(i/3)%len(words)])
	}
	cols := []arrow.Array{tb.NewArray(), sb.NewArray(), db.NewArray()}
	tb.Release()
	sb.Release()
	db.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: cols[0].DataType()}, {Name: "s", Type: cols[1].DataType()}, {Name: "d", Type: cols[2].DataType()}}, nil)
	rec := array.NewRecordBatch(schema, cols, n)
	defer rec.Release()
	for _, c := range cols {
		c.Release()
	}
	c, err := New(schema, false)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, col := range rec.Columns() {
		for _, buf := range col.Data().Buffers() {
			if buf != nil {
				size += int64(buf.Len())
			}
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		out, err := c.Convert(mem, rec)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}
