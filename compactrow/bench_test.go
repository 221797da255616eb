package compactrow

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/arrowvec"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// The nine cases of Velox's row serde benchmark (docs/velox-benchmarks.md): 1000 rows
// per op, VectorFuzzer-like data. Encode appends into reused Rows (the
// steady state of a writer); decode takes the 1000 pre-split rows.
const benchRows = 1000

func BenchmarkEncode(b *testing.B) {
	for _, bc := range testgen.BenchCases() {
		b.Run(bc.Name, func(b *testing.B) {
			rec := testgen.BenchBatch(memory.NewGoAllocator(), bc.Name, benchRows, 1)
			defer rec.Release()
			enc, err := NewEncoder(bc.Schema)
			if err != nil {
				b.Fatal(err)
			}
			var rows rowbridge.Rows
			b.ReportAllocs()
			for b.Loop() {
				rows.Reset()
				if rows, err = enc.AppendRows(rows, rec); err != nil {
					b.Fatal(err)
				}
			}
			report(b, len(rows.Data))
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	allocators := []struct {
		name string
		mem  memory.Allocator
	}{
		{"default", nil}, // NewDecoder(schema), as a user without options gets it
		{"go", memory.NewGoAllocator()},
		{"recycling", arrowvec.NewRecyclingAllocator(64 << 20)},
	}
	for _, bc := range testgen.BenchCases() {
		for _, a := range allocators {
			b.Run(bc.Name+"/"+a.name, func(b *testing.B) {
				rec := testgen.BenchBatch(memory.NewGoAllocator(), bc.Name, benchRows, 1)
				enc, err := NewEncoder(bc.Schema)
				if err != nil {
					b.Fatal(err)
				}
				rows, err := enc.Encode(rec)
				rec.Release()
				if err != nil {
					b.Fatal(err)
				}
				slices := rows.Slices()
				var opts []Option
				if a.mem != nil {
					opts = append(opts, WithAllocator(a.mem))
				}
				dec, err := NewDecoder(bc.Schema, opts...)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				cpu0 := int64(testgen.ProcessCPU())
				for b.Loop() {
					out, err := dec.Decode(slices)
					if err != nil {
						b.Fatal(err)
					}
					out.Release()
				}
				if cpu := int64(testgen.ProcessCPU()) - cpu0; cpu0 > 0 {
					b.ReportMetric(float64(cpu)/float64(b.N*benchRows), "cpu-ns/row")
				}
				report(b, len(rows.Data))
			})
		}
	}
}

func report(b *testing.B, encoded int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRows), "ns/row")
	b.ReportMetric(float64(encoded)/benchRows, "bytes/row")
}
