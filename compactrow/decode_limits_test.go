package compactrow

import (
	"encoding/binary"
	"errors"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

// The rows of a batch may share memory, so a batch can claim more bytes
// than a 32-bit int holds. Column totals must not wrap: past Arrow's
// limits (2^31-1 values, 2 GiB of string bytes) or past what the machine
// can address, decoding fails with a DecodeError naming the row and the
// column, never a panic. Each test repeats one large row.
func TestDecodeSharedRowsPastLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates rows of 16-64 MiB")
	}
	requireLimit := func(t *testing.T, schema *arrow.Schema, row []byte, times, wantRow int, field string) {
		t.Helper()
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		dec, err := NewDecoder(schema, WithAllocator(mem))
		require.NoError(t, err)
		rows := make([][]byte, times)
		for i := range rows {
			rows[i] = row
		}
		rec, err := dec.Decode(rows)
		require.Nil(t, rec)
		require.ErrorIs(t, err, rowbridge.ErrValue)
		var de *rowbridge.DecodeError
		require.True(t, errors.As(err, &de), "%T %v", err, err)
		require.Equal(t, wantRow, de.Row, "%v", err)
		require.Equal(t, field, de.Field, "%v", err)
	}

	t.Run("string bytes past 2 GiB", func(t *testing.T) {
		const n = 64<<20 - 64 // 64 MiB rows: 32 fit in 2^31-1 bytes (and in 32 bits, with room to align), not 33
		row := make([]byte, 5+n)
		binary.LittleEndian.PutUint32(row[1:], n)
		requireLimit(t, fields(nf("b", arrow.BinaryTypes.Binary)), row, 34, 32, "b")
	})
	t.Run("VOID elements past 2^31", func(t *testing.T) {
		const n = 1 << 27 // 16 MiB of null flags per row; 16 rows make 2^31
		row := make([]byte, 5+n/8)
		binary.LittleEndian.PutUint32(row[1:], n)
		requireLimit(t, fields(nf("a", arrow.ListOf(arrow.Null))), row, 17, 15, "a.item")
	})
	t.Run("BIGINT buffer past a 32-bit address space", func(t *testing.T) {
		if strconv.IntSize == 64 {
			t.Skip("the 2.2 GB buffer fits a 64-bit address space: the batch decodes")
		}
		const n = 1 << 23 // 64 MiB of values per row; 32 rows make 2 GiB
		row := make([]byte, 5+n/8+8*n)
		binary.LittleEndian.PutUint32(row[1:], n)
		requireLimit(t, schemaBigints, row, 33, 31, "a.item")
	})
}
