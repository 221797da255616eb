package crossformat

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/compactrow"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// format is one row format (UnsafeRow in a flavour, or CompactRow) as the
// properties see it.
type format struct {
	name   string
	encode func(arrow.RecordBatch) (rowbridge.Rows, error)
	decode func([][]byte) (arrow.RecordBatch, error)
}

// formats returns every row format for schema, allocating from mem.
func formats(t testing.TB, schema *arrow.Schema, mem memory.Allocator) []format {
	t.Helper()
	var out []format
	for _, fl := range []unsaferow.Flavor{unsaferow.Spark, unsaferow.Velox} {
		enc, err := unsaferow.NewEncoder(schema, unsaferow.WithFlavor(fl), unsaferow.WithAllocator(mem))
		if err != nil {
			t.Fatalf("unsaferow %s encoder for %s: %v", fl, schema, err)
		}
		dec, err := unsaferow.NewDecoder(schema, unsaferow.WithAllocator(mem))
		if err != nil {
			t.Fatalf("unsaferow decoder for %s: %v", schema, err)
		}
		out = append(out, format{"UnsafeRow/" + fl.String(), enc.Encode, dec.Decode})
	}
	enc, err := compactrow.NewEncoder(schema, compactrow.WithAllocator(mem))
	if err != nil {
		t.Fatalf("compactrow encoder for %s: %v", schema, err)
	}
	dec, err := compactrow.NewDecoder(schema, compactrow.WithAllocator(mem))
	if err != nil {
		t.Fatalf("compactrow decoder for %s: %v", schema, err)
	}
	return append(out, format{"CompactRow", enc.Encode, dec.Decode})
}

// roundTrip encodes rec in f, decodes the rows and requires a valid batch
// equal to rec with zeros under its nulls, then encodes that batch and
// requires the very bytes it was decoded from. It returns the decoded
// batch, which the caller releases, or nil after a failure.
func (f format) roundTrip(t testing.TB, rec arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	rows, err := f.encode(rec)
	if err != nil {
		t.Errorf("%s: encode: %v", f.name, err)
		return nil
	}
	if rows.Len() != int(rec.NumRows()) {
		t.Errorf("%s: %d rows encoded from %d", f.name, rows.Len(), rec.NumRows())
		return nil
	}
	got, err := f.decode(rows.Slices())
	if err != nil {
		t.Errorf("%s: decode: %v", f.name, err)
		return nil
	}
	if !testgen.ValidateBatch(t, got) || !testgen.EqualBatches(t, rec, got) {
		t.Errorf("%s: the decoded batch is not the encoded one", f.name)
		got.Release()
		return nil
	}
	again, err := f.encode(got)
	if err != nil {
		t.Errorf("%s: encode of the decoded batch: %v", f.name, err)
		got.Release()
		return nil
	}
	if d := firstDifferentRow(rows, again); d >= 0 {
		t.Errorf("%s: encoding the decoded batch changed row %d of %d:\n  decoded % x\n  encoded % x",
			f.name, d, rows.Len(), rows.Row(d), rowOrNil(again, d))
		got.Release()
		return nil
	}
	return got
}

// firstDifferentRow is the first row where a and b differ in length or
// bytes, or -1 when they hold the same rows.
func firstDifferentRow(a, b rowbridge.Rows) int {
	for i := range max(a.Len(), b.Len()) {
		if i >= a.Len() || i >= b.Len() || !bytes.Equal(a.Row(i), b.Row(i)) {
			return i
		}
	}
	return -1
}

func rowOrNil(r rowbridge.Rows, i int) []byte {
	if i < r.Len() {
		return r.Row(i)
	}
	return nil
}

// checkFormats runs rec through every format: each round trip must be
// exact and reproduce its bytes, and the formats' decoded batches must
// equal each other (each with zeros under its nulls).
func checkFormats(t testing.TB, mem memory.Allocator, rec arrow.RecordBatch) {
	t.Helper()
	fs := formats(t, rec.Schema(), mem)
	decoded := make([]arrow.RecordBatch, len(fs))
	for i, f := range fs {
		decoded[i] = f.roundTrip(t, rec)
		if decoded[i] != nil {
			defer decoded[i].Release()
		}
	}
	for i := 1; i < len(fs); i++ {
		if decoded[0] != nil && decoded[i] != nil && !testgen.EqualBatches(t, decoded[0], decoded[i]) {
			t.Errorf("%s and %s decode the same batch differently", fs[0].name, fs[i].name)
		}
	}
	if t.Failed() {
		t.Logf("schema %s", rec.Schema())
	}
}
