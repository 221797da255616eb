package unsaferow

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/arrowvec"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

const benchRows = 1000

// BenchmarkDecode times decoding 1000 pre-split rows of each Velox serde
// benchmark case (docs/velox-benchmarks.md) into a record batch, with Go memory and with a
// recycling allocator that hands released buffers back out.
func BenchmarkDecode(b *testing.B) { benchDecode(b, false) }

// BenchmarkDecodeRows is BenchmarkDecode of the Rows the Encoder returned,
// through DecodeRows.
func BenchmarkDecodeRows(b *testing.B) { benchDecode(b, true) }

func benchDecode(b *testing.B, asRows bool) {
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
		}{{"go", memory.DefaultAllocator}, {"recycling", arrowvec.NewRecyclingAllocator(64 << 20)}} {
			b.Run(c.Name+"/"+alloc.name, func(b *testing.B) {
				dec, err := NewDecoder(c.Schema, WithAllocator(alloc.mem))
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(encoded.Data)))
				b.ReportAllocs()
				cpu0 := int64(testgen.ProcessCPU())
				for b.Loop() {
					var out arrow.RecordBatch
					if asRows {
						out, err = dec.DecodeRows(encoded)
					} else {
						out, err = dec.Decode(rows)
					}
					if err != nil {
						b.Fatal(err)
					}
					out.Release()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchRows, "ns/row")
				if cpu := int64(testgen.ProcessCPU()) - cpu0; cpu0 > 0 {
					b.ReportMetric(float64(cpu)/float64(b.N)/benchRows, "cpu-ns/row")
				}
			})
		}
	}
}

// BenchmarkReader reads a Spark-framed stream of 100 batches of 1000 rows
// of each shape, with the Reader's default (recycling) allocator and with
// fresh Go memory for every batch.
func BenchmarkReader(b *testing.B) {
	for _, c := range testgen.BenchCases() {
		rec := testgen.BenchBatch(memory.DefaultAllocator, c.Name, benchRows, 1)
		var stream bytes.Buffer
		w, err := NewWriter(&stream, c.Schema)
		if err != nil {
			b.Fatal(err)
		}
		for range 100 {
			if err := w.Write(rec); err != nil {
				b.Fatal(err)
			}
		}
		rec.Release()
		for _, alloc := range []struct {
			name string
			opts []Option
		}{{"default", nil}, {"go", []Option{WithAllocator(memory.DefaultAllocator)}}} {
			b.Run(c.Name+"/"+alloc.name, func(b *testing.B) {
				b.SetBytes(int64(stream.Len()))
				b.ReportAllocs()
				for b.Loop() {
					rd, err := NewReader(bytes.NewReader(stream.Bytes()), c.Schema, append(alloc.opts, WithBatchRows(benchRows))...)
					if err != nil {
						b.Fatal(err)
					}
					for rd.Next() {
					}
					if err := rd.Err(); err != nil {
						b.Fatal(err)
					}
					rd.Release()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(100*benchRows), "ns/row")
			})
		}
	}
}
