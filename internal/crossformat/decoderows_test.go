package crossformat

import (
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/compactrow"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/require"
)

// rowsCodec is one codec's Encoder and Decoder as this test uses them.
type rowsCodec struct {
	name       string
	encode     func(arrow.RecordBatch) (rowbridge.Rows, error)
	decode     func([][]byte) (arrow.RecordBatch, error)
	decodeRows func(rowbridge.Rows) (arrow.RecordBatch, error)
	appendRows func(rowbridge.Rows, arrow.RecordBatch) (rowbridge.Rows, error)
}

func rowsCodecs(t *testing.T, schema *arrow.Schema, mem memory.Allocator) []rowsCodec {
	ue, err := unsaferow.NewEncoder(schema, unsaferow.WithAllocator(mem))
	require.NoError(t, err)
	ud, err := unsaferow.NewDecoder(schema, unsaferow.WithAllocator(mem))
	require.NoError(t, err)
	ce, err := compactrow.NewEncoder(schema, compactrow.WithAllocator(mem))
	require.NoError(t, err)
	cd, err := compactrow.NewDecoder(schema, compactrow.WithAllocator(mem))
	require.NoError(t, err)
	return []rowsCodec{{"UnsafeRow", ue.Encode, ud.Decode, ud.DecodeRows, ue.AppendRows},
		{"CompactRow", ce.Encode, cd.Decode, cd.DecodeRows, ce.AppendRows}}
}

// DecodeRows takes the Rows an Encoder returns and gives the batch Decode
// gives for their slices, with no allocation beyond Decode's own.
func TestDecodeRowsTakesEncoderRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for seed := range int64(40) {
		r := rand.New(rand.NewSource(seed))
		schema := testgen.RandomSchema(r)
		rec := testgen.RandomBatch(mem, r, schema, r.Intn(50))
		for _, c := range rowsCodecs(t, schema, mem) {
			rows, err := c.encode(rec)
			require.NoError(t, err)
			got, err := c.decodeRows(rows)
			require.NoError(t, err, "%s seed %d", c.name, seed)
			want, err := c.decode(rows.Slices())
			require.NoError(t, err)
			require.True(t, testgen.ValidateBatch(t, got))
			require.True(t, array.RecordEqual(want, got), "%s seed %d", c.name, seed)
			require.True(t, testgen.EqualBatches(t, rec, got))
			want.Release()
			got.Release()
		}
		rec.Release()
	}
	// Bad rows fail DecodeRows as they fail Decode.
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	for _, c := range rowsCodecs(t, schema, mem) {
		_, err := c.decodeRows(rowbridge.Rows{Data: []byte{1, 2, 3}, Offsets: []int{0, 3}})
		require.Error(t, err, c.name)
		var de *rowbridge.DecodeError
		require.ErrorAs(t, err, &de)
	}
}

func TestDecodeRowsAllocatesNoRowSlices(t *testing.T) {
	if testgen.RaceEnabled {
		t.Skip("the race detector adds allocations")
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	mem := memory.NewGoAllocator()
	rec := testgen.RandomBatch(mem, rand.New(rand.NewSource(7)), schema, 5000)
	defer rec.Release()
	for _, c := range rowsCodecs(t, schema, mem) {
		rows, err := c.encode(rec)
		require.NoError(t, err)
		slices := rows.Slices()
		decode := testing.AllocsPerRun(20, func() {
			b, err := c.decode(slices)
			require.NoError(t, err)
			b.Release()
		})
		decodeRows := testing.AllocsPerRun(20, func() {
			b, err := c.decodeRows(rows)
			require.NoError(t, err)
			b.Release()
		})
		require.LessOrEqual(t, decodeRows, decode, "%s: DecodeRows allocates more than Decode of ready slices", c.name)
	}
}

// Both Encoders refuse to append to Rows whose offsets do not end at their
// data (compactrow once appended rows at the wrong offsets), and leave dst
// as it was.
func TestAppendRowsRefusesInconsistentRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	rec := testgen.RandomBatch(mem, rand.New(rand.NewSource(3)), schema, 4)
	defer rec.Release()
	for _, c := range rowsCodecs(t, schema, mem) {
		dst := rowbridge.Rows{Data: []byte{1, 2, 3}, Offsets: []int{0, 2}}
		got, err := c.appendRows(dst, rec)
		require.ErrorIs(t, err, arrow.ErrInvalid, c.name)
		require.Contains(t, err.Error(), "dst.Offsets does not end at len(dst.Data)", c.name)
		require.Equal(t, dst, got, c.name)
	}
}

// Rows built by hand with offsets that leave Data are refused with the
// row named, never a panic; an empty Rows decodes to an empty batch.
func TestDecodeRowsRefusesBadOffsets(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	good := make([]byte, 32) // two null-free rows of one BIGINT: 8 bits + 8 slot bytes each
	for _, c := range rowsCodecs(t, schema, mem) {
		for _, bad := range []struct {
			offsets []int
			row     int
		}{
			{[]int{0, 16, 40}, 1}, // past Data
			{[]int{0, 16, 8}, 1},  // decreasing
			{[]int{-8, 16}, 0},    // negative
			{[]int{0, 16, 33}, 1}, // one past the end
			{[]int{33}, 0},        // a lone offset outside Data
			{[]int{16, 0, 32}, 0}, // first row backwards
		} {
			var got arrow.RecordBatch
			var err error
			require.NotPanics(t, func() { got, err = c.decodeRows(rowbridge.Rows{Data: good, Offsets: bad.offsets}) }, "%s %v", c.name, bad.offsets)
			if got != nil {
				got.Release()
			}
			var de *rowbridge.DecodeError
			require.ErrorAs(t, err, &de, "%s %v", c.name, bad.offsets)
			require.Equal(t, bad.row, de.Row, "%s %v", c.name, bad.offsets)
			require.ErrorIs(t, err, rowbridge.ErrOutOfBounds)
			require.ErrorIs(t, err, arrow.ErrInvalid)
		}
		for _, empty := range []rowbridge.Rows{{}, {Data: good, Offsets: []int{32}}, {Data: good, Offsets: []int{0}}} {
			got, err := c.decodeRows(empty)
			require.NoError(t, err, "%s %v", c.name, empty.Offsets)
			require.EqualValues(t, 0, got.NumRows())
			got.Release()
		}
	}
}
