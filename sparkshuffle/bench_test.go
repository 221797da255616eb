package sparkshuffle_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// benchSchema is the fixed-width shape: 5 BIGINT + 5 INT.
var benchSchema = func() *arrow.Schema {
	var fields []arrow.Field
	for i := range 5 {
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("l%d", i), Type: arrow.PrimitiveTypes.Int64})
	}
	for i := range 5 {
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("i%d", i), Type: arrow.PrimitiveTypes.Int32})
	}
	return arrow.NewSchema(fields, nil)
}()

// benchSegment is one lz4 stream of n rows of benchSchema.
func benchSegment(b testing.TB, n int) []byte {
	mem := memory.NewGoAllocator()
	rb := array.NewRecordBuilder(mem, benchSchema)
	defer rb.Release()
	for i := range n {
		for c := range 5 {
			rb.Field(c).(*array.Int64Builder).Append(int64(i * (c + 1)))
			rb.Field(5 + c).(*array.Int32Builder).Append(int32(i % (c + 7)))
		}
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	var out sliceWriter
	cw, err := framing.NewStreamWriter(&out, framing.LZ4)
	if err != nil {
		b.Fatal(err)
	}
	w, err := unsaferow.NewWriter(cw, benchSchema)
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		b.Fatal(err)
	}
	w.Close()
	cw.Close()
	return out.b
}

type sliceWriter struct{ b []byte }

func (w *sliceWriter) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

// BenchmarkReader reads 16 lz4 segments (4 maps x 4 partitions) of
// 20,000 rows each.
func BenchmarkReader(b *testing.B) {
	const rowsPerSegment = 20000
	seg := benchSegment(b, rowsPerSegment)
	folder := shuffletest.New(b, 2)
	for m := range 4 {
		folder.Write(b, shuffletest.MapOutput{Shuffle: 0, Map: int64(m), Segments: [][]byte{seg, seg, seg, seg}, Checksum: sparkshuffle.Adler32})
	}
	set, err := sparkshuffle.Open(folder.LocalDirs...)
	if err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.SetBytes(int64(16 * len(seg)))
			for b.Loop() {
				r, err := set.NewReader(0, benchSchema, sparkshuffle.WithWorkers(workers))
				if err != nil {
					b.Fatal(err)
				}
				rows := 0
				for r.Next() {
					rows += int(r.RecordBatch().NumRows())
				}
				if r.Err() != nil || rows != 16*rowsPerSegment {
					b.Fatalf("%d rows, %v", rows, r.Err())
				}
				r.Release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(16*rowsPerSegment), "ns/row")
		})
	}
}
