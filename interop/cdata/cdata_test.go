//go:build cgo

package cdata

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nestedBatch builds a small batch with every kind the row formats carry,
// nulls at every level, and values whose sums and byte counts are known.
func nestedBatch(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 30, Scale: 2}, Nullable: true},
		{Name: "l", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true},
		{Name: "st", Type: arrow.StructOf(
			arrow.Field{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
			arrow.Field{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true}), Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int16), Nullable: true},
		{Name: "n", Type: arrow.Null, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 0, -3, 1 << 40}, []bool{true, false, true, true})
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"ab", "", "héllo", "x"}, []bool{true, true, true, false})
	b.Field(2).(*array.Float64Builder).AppendValues([]float64{1.5, math.Copysign(0, -1), 0, 2}, []bool{true, true, false, true})
	b.Field(3).(*array.Decimal128Builder).AppendValues([]decimal128.Num{decimal128.FromI64(-12345), decimal128.New(1, 7)}, nil)
	b.Field(3).(*array.Decimal128Builder).AppendNull()
	b.Field(3).(*array.Decimal128Builder).Append(decimal128.FromI64(0))
	lb := b.Field(4).(*array.ListBuilder)
	ev := lb.ValueBuilder().(*array.Int32Builder)
	lb.Append(true)
	ev.AppendValues([]int32{5, 6}, nil)
	ev.AppendNull()
	lb.AppendNull()
	lb.Append(true)
	lb.Append(true)
	ev.Append(-1)
	sb := b.Field(5).(*array.StructBuilder)
	for i := 0; i < 4; i++ {
		sb.Append(i != 2)
		sb.FieldBuilder(0).(*array.BooleanBuilder).Append(i%2 == 0)
		if i == 3 {
			sb.FieldBuilder(1).(*array.BinaryBuilder).AppendNull()
		} else {
			sb.FieldBuilder(1).(*array.BinaryBuilder).Append([]byte{byte(i), 0xff})
		}
	}
	mb := b.Field(6).(*array.MapBuilder)
	mb.Append(true)
	mb.KeyBuilder().(*array.StringBuilder).AppendValues([]string{"k1", "k2"}, nil)
	mb.ItemBuilder().(*array.Int16Builder).AppendValues([]int16{7, 0}, []bool{true, false})
	mb.AppendNull()
	mb.Append(true)
	mb.Append(true)
	mb.KeyBuilder().(*array.StringBuilder).Append("z")
	mb.ItemBuilder().(*array.Int16Builder).Append(-2)
	b.Field(7).(*array.NullBuilder).AppendNulls(4)
	return b.NewRecordBatch()
}

func TestConsumeRecordBatchMatchesGo(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rb := nestedBatch(t, mem)
	defer rb.Release()

	got, err := ConsumeRecordBatch(rb)
	require.NoError(t, err)
	want, err := SummarizeRecordBatch(rb)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	// Values computed by hand, so a shared mistake in both walkers shows.
	assert.Equal(t, int64(4), got.Length)
	assert.Equal(t, int64(0), got.NullCount)
	// ints: 1-3+2^40 | list 5+6-1 | map values 7-2
	assert.Equal(t, int64(1-3+1<<40+5+6-1+7-2), got.IntSum)
	// strings: ab héllo(6) | binary 3x2 | map keys k1 k2 z
	assert.Equal(t, int64(2+0+6+6+2+2+1), got.StrBytes)
}

func TestConsumeEachColumnAndSlices(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rb := nestedBatch(t, mem)
	defer rb.Release()

	wantNulls := []int64{1, 1, 1, 1, 1, 1, 1, 4}
	for c, col := range rb.Columns() {
		got, err := ConsumeArray(col)
		require.NoError(t, err, rb.ColumnName(c))
		want, err := Summarize(col)
		require.NoError(t, err)
		assert.Equal(t, want, got, rb.ColumnName(c))
		assert.Equal(t, wantNulls[c], got.NullCount, rb.ColumnName(c))

		// A slice exports a non-zero offset that C must honour.
		sl := array.NewSlice(col, 1, 4)
		if col.DataType().ID() == arrow.STRUCT {
			// arrow-go exports a sliced struct with the offset on the parent
			// AND children already sliced by it, so a consumer following the
			// spec (parent offset applies to children, as in C++) sees
			// children too short. Copying to offset 0 avoids it.
			_, err := ConsumeArray(sl)
			require.ErrorContains(t, err, "struct child shorter than parent offset + length")
			flat, err := array.Concatenate([]arrow.Array{sl}, mem)
			require.NoError(t, err)
			sl.Release()
			sl = flat
		}
		got, err = ConsumeArray(sl)
		require.NoError(t, err)
		want, err = Summarize(sl)
		require.NoError(t, err)
		sl.Release()
		assert.Equal(t, want, got, "slice of %s", rb.ColumnName(c))
		assert.Equal(t, int64(3), got.Length)
	}
}

func TestSummaryDetectsDifference(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := array.NewInt32Builder(mem)
	defer a.Release()
	a.AppendValues([]int32{1, 2, 3}, []bool{true, true, false})
	x := a.NewArray()
	defer x.Release()
	a.AppendValues([]int32{1, 2, 3}, []bool{true, false, true})
	y := a.NewArray()
	defer y.Release()
	sx, err := ConsumeArray(x)
	require.NoError(t, err)
	sy, err := ConsumeArray(y)
	require.NoError(t, err)
	assert.NotEqual(t, sx.Hash, sy.Hash)
	assert.Equal(t, int64(3), sx.IntSum)
	assert.Equal(t, int64(4), sy.IntSum)
}

func TestImportCRecordBatch(t *testing.T) {
	arrays0, schemas0 := Released()
	rb, err := ProduceRecordBatch()
	require.NoError(t, err)
	_, schemas1 := Released()
	// The parent and both child schemas are released at import.
	assert.Equal(t, schemas0+3, schemas1)

	require.Equal(t, int64(5), rb.NumRows())
	for _, col := range rb.Columns() {
		require.NoError(t, array.ValidateFull(col))
	}
	i := rb.Column(0).(*array.Int32)
	s := rb.Column(1).(*array.String)
	assert.Equal(t, 1, i.NullN())
	assert.Equal(t, 2, s.NullN())
	wantI := []any{int32(1), nil, int32(3), int32(-4), int32(2147483647)}
	wantS := []any{"a", nil, "", "héllo", nil}
	for r := 0; r < 5; r++ {
		if wantI[r] == nil {
			assert.True(t, i.IsNull(r), "i[%d]", r)
		} else {
			assert.Equal(t, wantI[r], i.Value(r), "i[%d]", r)
		}
		if wantS[r] == nil {
			assert.True(t, s.IsNull(r), "s[%d]", r)
		} else {
			assert.Equal(t, wantS[r], s.Value(r), "s[%d]", r)
		}
	}
	arrays1, _ := Released()
	assert.Equal(t, arrays0, arrays1, "released before the Go batch was")
	rb.Release()
	arrays2, _ := Released()
	// The parent's release callback releases its two children: 3 calls.
	assert.Equal(t, arrays0+3, arrays2)
}

func TestImportCArrayWithOffset(t *testing.T) {
	arrays0, _ := Released()
	f, arr, err := ProduceInt32()
	require.NoError(t, err)
	assert.Equal(t, "n", f.Name)
	assert.True(t, arrow.TypeEqual(arrow.PrimitiveTypes.Int32, f.Type))
	require.NoError(t, array.ValidateFull(arr))
	a := arr.(*array.Int32)
	assert.Equal(t, 5, a.Len())
	assert.Equal(t, 2, a.NullN())
	assert.True(t, a.IsNull(0))
	assert.Equal(t, int32(9), a.Value(1))
	assert.True(t, a.IsNull(2))
	assert.Equal(t, []int32{11, 12}, []int32{a.Value(3), a.Value(4)})
	// Go hands the imported array back to C: same content either way.
	got, err := ConsumeArray(a)
	require.NoError(t, err)
	assert.Equal(t, int64(9+11+12), got.IntSum)
	assert.Equal(t, int64(2), got.NullCount)
	arr.Release()
	arrays1, _ := Released()
	assert.Equal(t, arrays0+1, arrays1)
}
