package unsaferow

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
)

// FuzzDecode feeds arbitrary bytes to the decoders of the golden schemas:
// decoding never panics, fails only with a *DecodeError, and a success
// passes ValidateFull, and DecodeRows of the same rows agrees. The input
// is split into two rows at cut so that batches of more than one row are
// exercised.
func FuzzDecode(f *testing.F) {
	for i, g := range goldenRows {
		for _, h := range []string{g.spark, g.velox} {
			row := goldenBytes(h)
			f.Add(uint8(i), uint16(0), row)
			f.Add(uint8(i), uint16(len(row)), append(row, row...))
		}
	}
	f.Add(uint8(8), uint16(0), goldenBytes(goldenRows[8].spark)[:40])
	decoders := make([]*Decoder, len(goldenRows))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	for i, g := range goldenRows {
		d, err := NewDecoder(g.schema, WithAllocator(mem))
		if err != nil {
			f.Fatal(err)
		}
		decoders[i] = d
	}
	f.Fuzz(func(t *testing.T, schema uint8, cut uint16, data []byte) {
		dec := decoders[int(schema)%len(decoders)]
		rows := [][]byte{data}
		if c := int(cut); c > 0 && c < len(data) {
			rows = [][]byte{data[:c:c], data[c:]}
		}
		if d := decodeRowsProblem(t, goldenRows[int(schema)%len(decoders)].schema, rows, 8); d != "" {
			t.Fatalf("DecodeRows and Decode disagree: %s", d)
		}
		rec, err := dec.Decode(rows)
		if err != nil {
			var de *rowbridge.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *DecodeError", err)
			}
			if mem.CurrentAlloc() != 0 {
				t.Fatalf("%d bytes leaked after a failed decode", mem.CurrentAlloc())
			}
			return
		}
		validateBatch(t, rec)
		rec.Release()
		if mem.CurrentAlloc() != 0 {
			t.Fatalf("%d bytes leaked", mem.CurrentAlloc())
		}
	})
}
