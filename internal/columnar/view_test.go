package columnar

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// A View of a slice, and of the fields of a sliced struct, indexes the
// slice's logical entries, and making it stores no null count.
func TestViewOfSlicedStruct(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dt := arrow.StructOf(
		arrow.Field{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		arrow.Field{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true})
	arr, _, err := array.FromJSON(mem, dt, strings.NewReader(`[
		{"i": 0, "s": "a", "b": true, "l": [1]},
		{"i": 1, "s": "bb", "b": false, "l": [2, 3]},
		{"i": null, "s": "ccc", "b": true, "l": null},
		null,
		{"i": 4, "s": null, "b": null, "l": []},
		{"i": 5, "s": "ffffff", "b": true, "l": [4, 5, 6]}]`))
	require.NoError(t, err)
	defer arr.Release()
	sl := array.NewSlice(arr, 1, 6)
	defer sl.Release()
	outer := array.NewSlice(sl, 1, 4) // entries 2, 3, 4 of arr
	defer outer.Release()
	d := outer.Data()
	require.Equal(t, array.UnknownNullCount, d.NullN())

	st := NewView(KindStruct, d, 0, d.Len())
	require.Equal(t, 3, st.Len)
	require.Equal(t, []bool{true, false, true}, []bool{st.IsValid(0), st.IsValid(1), st.IsValid(2)})
	require.True(t, st.HasNulls(0, 3))
	require.False(t, st.HasNulls(2, 1))

	kids := d.Children()
	iv := NewView(KindInt32, kids[0], st.Off, st.Len)
	require.Equal(t, 3, iv.Len)
	require.False(t, iv.IsValid(0))
	require.Equal(t, int32(4), Cast[int32](iv.Values)[2])
	require.Len(t, iv.Values, 12)

	sv := NewView(KindString, kids[1], st.Off, st.Len)
	require.Len(t, sv.Offsets, 4)
	require.Equal(t, "ccc", string(sv.Data[sv.Offsets[0]:sv.Offsets[1]]))
	require.False(t, sv.IsValid(2))

	bv := NewView(KindBool, kids[2], st.Off, st.Len)
	require.True(t, bv.Bool(0))
	require.False(t, bv.IsValid(2))

	lv := NewView(KindList, kids[3], st.Off, st.Len)
	require.False(t, lv.IsValid(0))
	require.Equal(t, lv.Offsets[2], lv.Offsets[3], "entry 4's list is empty")
	el := kids[3].Children()[0]
	ev := NewView(KindInt64, el, 0, el.Len())
	require.Equal(t, int64(1), Cast[int64](ev.Values)[0])

	require.Equal(t, array.UnknownNullCount, d.NullN(), "viewing stored a null count")
	for _, k := range kids {
		require.NotEqual(t, 0, k.NullN()+1, "viewing stored a null count in a field")
	}

	nulls := array.NewNull(3)
	defer nulls.Release()
	nv := NewView(KindNull, nulls.Data(), 0, 3)
	require.False(t, nv.IsValid(1))
	require.True(t, nv.HasNulls(0, 1))

	tail := array.NewSliceData(el, 4, 6)
	defer tail.Release()
	require.Equal(t, []int64{5, 6}, FixedValues[int64](tail))
	lo := array.NewSliceData(kids[3], 1, 3)
	defer lo.Release()
	require.Equal(t, []int32{1, 3, 3}, Offsets[int32](lo))
	empty := NewView(KindString, array.NewData(arrow.BinaryTypes.String, 0, []*memory.Buffer{nil, nil, nil}, nil, 0, 0), 0, 0)
	require.Equal(t, []int32{0}, empty.Offsets, "an empty array without offsets views as one 0 offset")
}

// The one bytes-per-value table covers every Kind, and agrees with Arrow's
// own bit widths where Arrow has a fixed-width value buffer.
func TestWidthTable(t *testing.T) {
	require.Equal(t, len(kindNames), len(widths))
	types := map[Kind]arrow.DataType{KindInt8: arrow.PrimitiveTypes.Int8, KindInt16: arrow.PrimitiveTypes.Int16,
		KindInt32: arrow.PrimitiveTypes.Int32, KindInt64: arrow.PrimitiveTypes.Int64, KindFloat32: arrow.PrimitiveTypes.Float32,
		KindFloat64: arrow.PrimitiveTypes.Float64, KindDate32: arrow.FixedWidthTypes.Date32,
		KindTimestamp: arrow.FixedWidthTypes.Timestamp_us, KindDecimal: &arrow.Decimal128Type{Precision: 38}}
	for k, dt := range types {
		require.Equal(t, dt.(arrow.FixedWidthDataType).BitWidth()/8, k.ValueWidth(), "%s", k)
	}
	short, err := NewNode(&arrow.Decimal128Type{Precision: 18, Scale: 2}, "d")
	require.NoError(t, err)
	long, err := NewNode(&arrow.Decimal128Type{Precision: 19, Scale: 2}, "d")
	require.NoError(t, err)
	require.Equal(t, []int{8, 16}, []int{short.RowWidth(), long.RowWidth()})
	require.Equal(t, []int{0, 1, VarWidth, VarWidth}, []int{KindNull.RowWidth(), KindBool.RowWidth(), KindString.RowWidth(), KindStruct.RowWidth()})
}

// Store writes a little-endian word at any byte offset, Load reads it
// back, and both refuse a word that does not fit.
func TestStoreLoadUnaligned(t *testing.T) {
	b := make([]byte, 11)
	Store(b, 3, uint64(0x0807060504030201))
	require.Equal(t, []byte{0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}, b)
	require.Equal(t, uint64(0x0807060504030201), Load[uint64](b, 3))
	Store(b, 1, uint16(0xbeef))
	require.Equal(t, uint16(0xbeef), Load[uint16](b, 1))
	require.Panics(t, func() { Store(b, 4, uint64(0)) })
	require.Panics(t, func() { Load[uint64](b, 4) })
}
