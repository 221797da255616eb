package unsaferow

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// DecodeRows reads Rows.Data at its offsets where Decode reads one slice a
// row: the two must give the same batch, or the same error, for the same
// rows. These tests hold them to it.

// packRows lays rows end to end in one buffer, after pad bytes of 0xee
// and followed by pad more, so that the first row is not at offset 0 of
// Data and the last does not end it.
func packRows(rows [][]byte, pad int) rowbridge.Rows {
	data := make([]byte, pad, pad+2*pad)
	for i := range data {
		data[i] = 0xee
	}
	offs := []int{pad}
	for _, r := range rows {
		data = append(data, r...)
		offs = append(offs, len(data))
	}
	for range pad {
		data = append(data, 0xee)
	}
	return rowbridge.Rows{Data: data, Offsets: offs}
}

// decodeRowsProblem decodes rows with Decode and, packed with pad bytes
// around them (packRows), with DecodeRows, and says how the two differ:
// in error (the same *DecodeError, row, field, offset and message) or in
// batch (byte for byte the same, and valid). "" when they agree.
func decodeRowsProblem(t testing.TB, schema *arrow.Schema, rows [][]byte, pad int) (problem string) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	dec := mustDecoder(t, schema, mem)
	want, werr := dec.Decode(rows)
	got, gerr := dec.DecodeRows(packRows(rows, pad))
	defer func() {
		for _, r := range []arrow.RecordBatch{want, got} {
			if r != nil {
				r.Release()
			}
		}
		if problem == "" && mem.CurrentAlloc() != 0 {
			problem = fmt.Sprintf("%d bytes left allocated", mem.CurrentAlloc())
		}
	}()
	if (werr == nil) != (gerr == nil) {
		return fmt.Sprintf("Decode: %v, DecodeRows: %v", werr, gerr)
	}
	if werr != nil {
		var wd, gd *rowbridge.DecodeError
		if !errors.As(werr, &wd) || !errors.As(gerr, &gd) {
			return fmt.Sprintf("not both *DecodeError: %v / %v", werr, gerr)
		}
		if wd.Row != gd.Row || wd.Field != gd.Field || wd.Offset != gd.Offset || werr.Error() != gerr.Error() {
			return fmt.Sprintf("errors differ: Decode %q, DecodeRows %q", werr, gerr)
		}
		return ""
	}
	for i, col := range got.Columns() {
		if err := array.ValidateFull(col); err != nil {
			return fmt.Sprintf("DecodeRows column %d: %v", i, err)
		}
	}
	// Byte for byte (NaNs of hostile doubles are not equal to themselves).
	for c := range got.Columns() {
		if d := testgen.SameBuffers(schema.Field(c).Name, want.Column(c).Data(), got.Column(c).Data()); d != "" {
			return "batches differ: " + d
		}
	}
	return ""
}

func requireSameDecodeRows(t *testing.T, what string, schema *arrow.Schema, rows [][]byte) {
	t.Helper()
	for _, pad := range []int{0, 8, 3} {
		if d := decodeRowsProblem(t, schema, rows, pad); d != "" {
			t.Fatalf("%s, pad %d: %s", what, pad, d)
		}
	}
}

// Every bench shape, as generated and with nulls at every level, and
// every run of its rows (Rows whose offsets start and end inside Data).
func TestDecodeRowsSameAsDecodeOnBenchShapes(t *testing.T) {
	mem := checkedMem(t)
	for _, c := range testgen.BenchCases() {
		batches := []arrow.RecordBatch{
			testgen.BenchBatch(mem, c.Name, 200, 3),
			testgen.RandomBatch(mem, rand.New(rand.NewSource(5)), c.Schema, 200, testgen.WithNullProbability(0.3)),
		}
		for bi, rec := range batches {
			enc, err := NewEncoder(c.Schema)
			require.NoError(t, err)
			encoded, err := enc.Encode(rec)
			require.NoError(t, err)
			rec.Release()
			rows := encoded.Slices()
			requireSameDecodeRows(t, fmt.Sprintf("%s batch %d", c.Name, bi), c.Schema, rows)

			dec := mustDecoder(t, c.Schema, mem)
			for _, run := range [][2]int{{0, 1}, {1, 2}, {3, 67}, {100, 200}, {199, 200}, {50, 50}} {
				lo, hi := run[0], run[1]
				sliced := rowbridge.Rows{Data: encoded.Data, Offsets: encoded.Offsets[lo : hi+1]}
				want, err := dec.Decode(rows[lo:hi])
				require.NoError(t, err)
				got, err := dec.DecodeRows(sliced)
				require.NoError(t, err, "%s rows [%d, %d)", c.Name, lo, hi)
				validateBatch(t, got)
				require.Equal(t, int64(hi-lo), got.NumRows())
				require.True(t, array.RecordEqual(want, got), "%s batch %d rows [%d, %d)", c.Name, bi, lo, hi)
				want.Release()
				got.Release()
			}
		}
	}
}

// Rows that are too short, not a multiple of 8, too long for an all
// fixed-width schema, longer than their fixed region with a null bit set
// past the last field, or with bad offset/size words fail DecodeRows with
// Decode's error, after good rows and before them.
func TestDecodeRowsSameAsDecodeOnHostileRows(t *testing.T) {
	fixed := mustParseDDL(t, "a BIGINT, b INT, c BOOLEAN, d DECIMAL(10, 2)")
	mixed := mustParseDDL(t, "a BIGINT, s STRING, l ARRAY<INT>, m MAP<INT, STRING>")
	good := func(schema *arrow.Schema) []byte {
		if schema == fixed {
			return handRow(hI64(1), hI32(2), hBool(true), hI64(314))
		}
		return handRow(hI64(1), hStr("abc"), hVar(handArray(4, hI32(7), hNull)), hNull)
	}
	word := func(r []byte, at int, w uint64) []byte {
		r = append([]byte(nil), r...)
		binary.LittleEndian.PutUint64(r[at:], w)
		return r
	}
	for _, schema := range []*arrow.Schema{fixed, mixed} {
		g := good(schema)
		bad := map[string][]byte{
			"empty":               {},
			"short":               g[:8],
			"one byte short":      g[:len(g)-1],
			"not a multiple of 8": append(append([]byte(nil), g...), 0, 0, 0),
			"8 bytes longer":      append(append([]byte(nil), g...), make([]byte, 8)...),
			"unused null bit":     word(g, 0, 1<<4),
			"slot word offset":    word(g, 16, 7<<32|3),
			"slot word past end":  word(g, 16, 1<<40|3),
			"size past end":       word(g, 24, 48<<32|0xffff),
		}
		for name, b := range bad {
			for _, rows := range [][][]byte{{b}, {g, g, b}, {b, g}, {g, b, b}} {
				requireSameDecodeRows(t, fmt.Sprintf("%v: %s", schema.Field(1).Type, name), schema, rows)
			}
		}
	}
}

// Offsets that are not ranges of Data in order fail with ErrOutOfBounds
// at the first bad row, and an empty Rows decodes to an empty batch.
func TestDecodeRowsRefusesBadOffsetsAtTheFirstBadRow(t *testing.T) {
	schema := mustParseDDL(t, "a BIGINT")
	mem := checkedMem(t)
	dec := mustDecoder(t, schema, mem)
	row := handRow(hI64(5))
	data := append(append([]byte(nil), row...), row...)
	for _, c := range []struct {
		offs []int
		row  int
	}{
		{[]int{0, 16, 8}, 1},
		{[]int{-16, 0, 16}, 0},
		{[]int{0, 16, 40}, 1},
		{[]int{33}, 0},
		{[]int{0, 16, 32, 48}, 2},
	} {
		_, err := dec.DecodeRows(rowbridge.Rows{Data: data, Offsets: c.offs})
		require.ErrorIs(t, err, rowbridge.ErrOutOfBounds, "%v", c.offs)
		var de *rowbridge.DecodeError
		require.ErrorAs(t, err, &de)
		require.Equal(t, c.row, de.Row, "%v", c.offs)
	}
	for _, rs := range []rowbridge.Rows{{}, {Data: data, Offsets: []int{32}}, {Data: data, Offsets: []int{16, 16}}} {
		rec, err := dec.DecodeRows(rs)
		if len(rs.Offsets) == 2 {
			// One empty row: shorter than the fixed region.
			require.ErrorIs(t, err, rowbridge.ErrTruncated)
			continue
		}
		require.NoError(t, err, "%v", rs.Offsets)
		require.Zero(t, rec.NumRows())
		rec.Release()
	}
	rec, err := dec.DecodeRows(rowbridge.Rows{Data: data, Offsets: []int{16, 32}})
	require.NoError(t, err)
	require.Equal(t, int64(5), rec.Column(0).(*array.Int64).Value(0))
	rec.Release()
}
