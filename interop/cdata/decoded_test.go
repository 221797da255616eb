//go:build cgo

package cdata

import (
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/compactrow"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundTrip encodes rb in the named row format and decodes it again: the
// decoded batch is what rowbridge hands to a C consumer.
func roundTrip(t *testing.T, mem memory.Allocator, codec string, rb arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	switch codec {
	case "compactrow":
		enc, err := compactrow.NewEncoder(rb.Schema(), compactrow.WithAllocator(mem))
		require.NoError(t, err)
		rows, err := enc.Encode(rb)
		require.NoError(t, err)
		dec, err := compactrow.NewDecoder(rb.Schema(), compactrow.WithAllocator(mem))
		require.NoError(t, err)
		out, err := dec.Decode(rows.Slices())
		require.NoError(t, err)
		return out
	default:
		flavor := unsaferow.Spark
		if codec == "unsaferow-velox" {
			flavor = unsaferow.Velox
		}
		enc, err := unsaferow.NewEncoder(rb.Schema(), unsaferow.WithFlavor(flavor), unsaferow.WithAllocator(mem))
		require.NoError(t, err)
		rows, err := enc.Encode(rb)
		require.NoError(t, err)
		dec, err := unsaferow.NewDecoder(rb.Schema(), unsaferow.WithAllocator(mem))
		require.NoError(t, err)
		out, err := dec.Decode(rows.Slices())
		require.NoError(t, err)
		return out
	}
}

// TestConsumeDecodedBatches exports random nested batches decoded from
// UnsafeRow (both flavours) and CompactRow to the C consumer, whole and
// column by column, and compares C's summary with Go's.
func TestConsumeDecodedBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewSource(42))
	codecs := []string{"unsaferow-spark", "unsaferow-velox", "compactrow"}
	for i := 0; i < 30; i++ {
		codec := codecs[i%len(codecs)]
		schema := testgen.RandomSchema(r)
		src := testgen.RandomBatch(mem, r, schema, r.Intn(200)+1)
		rb := roundTrip(t, mem, codec, src)
		testgen.EqualBatches(t, src, rb)
		src.Release()

		got, err := ConsumeRecordBatch(rb)
		require.NoError(t, err, "%s %s", codec, schema)
		want, err := SummarizeRecordBatch(rb)
		require.NoError(t, err)
		assert.Equal(t, want, got, "case %d %s %s", i, codec, schema)
		assert.Equal(t, rb.NumRows(), got.Length)
		for c, col := range rb.Columns() {
			got, err := ConsumeArray(col)
			require.NoError(t, err)
			want, err := Summarize(col)
			require.NoError(t, err)
			assert.Equal(t, want, got, "case %d %s column %s", i, codec, rb.ColumnName(c))
			assert.Equal(t, int64(col.NullN()), got.NullCount, "case %d column %s: NullN vs C's bitmap count", i, rb.ColumnName(c))
		}
		rb.Release()
	}
}

// TestCProducedThroughRowCodecs takes the C-produced batch through every row
// codec: the imported buffers are readable by the encoders, and the decoded
// values match C's.
func TestCProducedThroughRowCodecs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, codec := range []string{"unsaferow-spark", "unsaferow-velox", "compactrow"} {
		arrays0, _ := Released()
		rb, err := ProduceRecordBatch()
		require.NoError(t, err)
		back := roundTrip(t, mem, codec, rb)
		testgen.EqualBatches(t, rb, back)
		want, err := SummarizeRecordBatch(rb)
		require.NoError(t, err)
		got, err := ConsumeRecordBatch(back)
		require.NoError(t, err)
		assert.Equal(t, want, got, codec)
		assert.Equal(t, int64(1-4+3+2147483647), got.IntSum, codec)
		back.Release()
		rb.Release()
		arrays1, _ := Released()
		assert.Equal(t, arrays0+3, arrays1, "%s: C release callbacks", codec)
	}
}
