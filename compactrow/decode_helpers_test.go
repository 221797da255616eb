package compactrow

import (
	"encoding/hex"
	"strconv"
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
	skipBrokenDecimals(t, schema)
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

// arrowGoDecimals32 names an arrow-go bug, not ours: arrow-go v18.8.0's
// decimal128.FromBigInt and Num.BigInt take big.Word to be 64 bits, so on
// a 32-bit machine its JSON reader, and testgen (which builds decimal
// values with FromBigInt), produce wrong decimals.
const arrowGoDecimals32 = "arrow-go v18.8.0 decimal128.FromBigInt/BigInt assume 64-bit big.Word: decimals built through them are wrong on 32-bit machines"

// decimalsBroken reports whether decimal values for schema built through
// arrow-go's big.Int conversions would be wrong on this machine.
func decimalsBroken(schema *arrow.Schema) bool {
	if strconv.IntSize == 64 {
		return false
	}
	for _, f := range schema.Fields() {
		if hasDecimal(f.Type) {
			return true
		}
	}
	return false
}

func hasDecimal(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case *arrow.Decimal128Type:
		return true
	case *arrow.MapType:
		return hasDecimal(t.KeyType()) || hasDecimal(t.ItemType())
	case arrow.ListLikeType:
		return hasDecimal(t.Elem())
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if hasDecimal(f.Type) {
				return true
			}
		}
	}
	return false
}

// skipBrokenDecimals skips t where decimalsBroken(schema).
func skipBrokenDecimals(t testing.TB, schema *arrow.Schema) {
	t.Helper()
	if decimalsBroken(schema) {
		t.Skip(arrowGoDecimals32)
	}
}
