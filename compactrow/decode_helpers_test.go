package compactrow

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// unhex reads a spec-style dump: hex pairs, with spaces and '|' ignored.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	s = strings.NewReplacer(" ", "", "|", "", "\n", "", "\t", "").Replace(s)
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

func fromJSON(t testing.TB, mem memory.Allocator, schema *arrow.Schema, js string) arrow.RecordBatch {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(js))
	require.NoError(t, err)
	return rec
}

// validateBatch runs array.ValidateFull on every column.
func validateBatch(t testing.TB, rec arrow.RecordBatch) {
	t.Helper()
	for i, col := range rec.Columns() {
		require.NoError(t, array.ValidateFull(col), "column %d", i)
	}
}

// requireSameBatch compares two batches column by column.
func requireSameBatch(t testing.TB, want, got arrow.RecordBatch) {
	t.Helper()
	require.Equal(t, want.NumRows(), got.NumRows())
	require.Equal(t, want.NumCols(), got.NumCols())
	for i := range want.Columns() {
		require.True(t, array.Equal(want.Column(i), got.Column(i)),
			"column %d:\nwant %v\ngot  %v", i, want.Column(i), got.Column(i))
	}
}

func fields(fs ...arrow.Field) *arrow.Schema { return arrow.NewSchema(fs, nil) }

func nf(name string, dt arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: dt, Nullable: true}
}
