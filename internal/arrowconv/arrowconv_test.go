package arrowconv

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	nsType = &arrow.TimestampType{Unit: arrow.Nanosecond}
	usType = &arrow.TimestampType{Unit: arrow.Microsecond}
)

func fromJSON(t *testing.T, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	a, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	require.NoError(t, err)
	return a
}

// buffers wraps byte slices as buffers (nil stays nil).
func buffers(bs ...[]byte) []*memory.Buffer {
	out := make([]*memory.Buffer, len(bs))
	for i, b := range bs {
		if b != nil {
			out[i] = memory.NewBufferBytes(b)
		}
	}
	return out
}

func i64s(vs ...int64) []byte { return arrow.Int64Traits.CastToBytes(vs) }
func i32s(vs ...int32) []byte { return arrow.Int32Traits.CastToBytes(vs) }
func convertOK(t *testing.T, mem memory.Allocator, a arrow.Array, truncate bool, wantType arrow.DataType, wantJSON string) {
	t.Helper()
	got, err := ConvertArray(mem, a, truncate)
	require.NoError(t, err)
	defer got.Release()
	require.NoError(t, array.ValidateFull(got))
	want := fromJSON(t, mem, wantType, wantJSON)
	defer want.Release()
	require.True(t, array.Equal(want, got), "got %v, want %v", got, want)
}

func convertFails(t *testing.T, mem memory.Allocator, a arrow.Array, truncate bool, row int, field, msg string) {
	t.Helper()
	_, err := ConvertArray(mem, a, truncate)
	var ee *rowbridge.EncodeError
	require.True(t, errors.As(err, &ee), "%v", err)
	assert.Equal(t, row, ee.Row, "%v", err)
	assert.Equal(t, field, ee.Field, "%v", err)
	assert.ErrorIs(t, err, rowbridge.ErrValue)
	assert.ErrorContains(t, err, msg)
}

func TestListViewOutOfOrderIsGathered(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	child := fromJSON(t, mem, arrow.PrimitiveTypes.Uint8, `[10, 11, 12, 13, 14, 15]`)
	defer child.Release()
	// Entries [4,6), [0,2), null over [2,4), [1,3) (overlapping the second).
	d := array.NewData(arrow.ListViewOf(arrow.PrimitiveTypes.Uint8), 4,
		buffers([]byte{0b1011}, i32s(4, 0, 2, 1), i32s(2, 2, 2, 2)), []arrow.ArrayData{child.Data()}, 1, 0)
	defer d.Release()
	lv := array.MakeFromData(d)
	defer lv.Release()
	convertOK(t, mem, lv, false, arrow.ListOf(arrow.PrimitiveTypes.Int16), `[[14, 15], [10, 11], null, [11, 12]]`)
}

func TestValuesNoRowReachesDoNotFail(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	// A null slot holding a value that is not a whole microsecond.
	d := array.NewData(nsType, 3, buffers([]byte{0b101}, i64s(1000, 1, 3000)), nil, 1, 0)
	defer d.Release()
	ts := array.MakeFromData(d)
	defer ts.Release()
	convertOK(t, mem, ts, false, usType, `[1, null, 3]`)

	// A null list entry and a dictionary value no index picks hold such values.
	child := array.NewData(nsType, 3, buffers(nil, i64s(1000, 1001, 2000)), nil, 0, 0)
	defer child.Release()
	ld := array.NewData(arrow.ListOf(nsType), 2, buffers([]byte{0b10}, i32s(0, 2, 3)), []arrow.ArrayData{child}, 1, 0)
	defer ld.Release()
	l := array.MakeFromData(ld)
	defer l.Release()
	convertOK(t, mem, l, false, arrow.ListOf(usType), `[null, [2]]`)

	dict := array.MakeFromData(child)
	defer dict.Release()
	idx := fromJSON(t, mem, arrow.PrimitiveTypes.Uint16, `[2, 0, null, 2]`)
	defer idx.Release()
	da := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint16, ValueType: nsType}, idx, dict)
	defer da.Release()
	convertOK(t, mem, da, false, usType, `[2, 1, null, 2]`)

	// The same value reached by a row fails, naming the first such row.
	idx2 := fromJSON(t, mem, arrow.PrimitiveTypes.Uint16, `[0, 2, null, 1]`)
	defer idx2.Release()
	da2 := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint16, ValueType: nsType}, idx2, dict)
	defer da2.Release()
	convertFails(t, mem, da2, false, 3, "", "1001 is not a whole number of microseconds")
	convertOK(t, mem, da2, true, usType, `[1, 2, null, 1]`)
}

func TestSlicesConvert(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	st := arrow.StructOf(arrow.Field{Name: "t", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		arrow.Field{Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true})
	a := fromJSON(t, mem, st, `[{"t": 1, "s": "a"}, null, {"t": 3, "s": "ccc"}, {"t": null, "s": "dd"}]`)
	defer a.Release()
	s := array.NewSlice(a, 1, 4)
	defer s.Release()
	want := arrow.StructOf(arrow.Field{Name: "t", Type: usType, Nullable: true},
		arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true})
	convertOK(t, mem, s, false, want, `[null, {"t": 3000, "s": "ccc"}, {"t": null, "s": "dd"}]`)

	ll := fromJSON(t, mem, arrow.LargeListOf(arrow.BinaryTypes.LargeString), `[["a"], ["b", "c"], null, ["d"]]`)
	defer ll.Release()
	ls := array.NewSlice(ll, 1, 4)
	defer ls.Release()
	convertOK(t, mem, ls, false, arrow.ListOf(arrow.BinaryTypes.String), `[["b", "c"], null, ["d"]]`)

	fsl := fromJSON(t, mem, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Uint32), `[[1, 2], [3, 4], [5, 6]]`)
	defer fsl.Release()
	fs := array.NewSlice(fsl, 1, 3)
	defer fs.Release()
	convertOK(t, mem, fs, false, arrow.ListOf(arrow.PrimitiveTypes.Int64), `[[3, 4], [5, 6]]`)
}

func TestOutOfRangeFailsEvenWhenTruncating(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sec := &arrow.TimestampType{Unit: arrow.Second}
	d := array.NewData(sec, 2, buffers(nil, i64s(0, math.MaxInt64/1_000_000+1)), nil, 0, 0)
	defer d.Release()
	a := array.MakeFromData(d)
	defer a.Release()
	convertFails(t, mem, a, true, 1, "", "out of the range")

	d64 := array.NewData(arrow.FixedWidthTypes.Date64, 2, buffers(nil, i64s(0, 86_400_000*(math.MaxInt32+1))), nil, 0, 0)
	defer d64.Release()
	b := array.MakeFromData(d64)
	defer b.Release()
	convertFails(t, mem, b, true, 1, "", "beyond the days a date32 holds")
}

func TestDataBeyond32BitOffsetsNamesTheRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	defer func(m int64) { maxData = m }(maxData)
	maxData = 10
	a := fromJSON(t, mem, arrow.BinaryTypes.LargeString, `["abcd", "efgh", "ijkl", "m"]`)
	defer a.Release()
	convertFails(t, mem, a, false, 2, "", "more than 10 bytes")
	v := fromJSON(t, mem, arrow.BinaryTypes.StringView, `["abcd", "efgh", "ijkl", "m"]`)
	defer v.Release()
	convertFails(t, mem, v, false, 2, "", "more than 10 bytes")
	s := array.NewSlice(a, 1, 3) // 8 bytes, rebased: fits
	defer s.Release()
	convertOK(t, mem, s, false, arrow.BinaryTypes.String, `["efgh", "ijkl"]`)
}

func TestUnconvertedColumnsAreShared(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	keep := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2]`)
	defer keep.Release()
	large := fromJSON(t, mem, arrow.BinaryTypes.LargeString, `["x", "yz"]`)
	defer large.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: keep.DataType()}, {Name: "l", Type: large.DataType()}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{keep, large}, 2)
	defer rec.Release()

	c, err := New(schema, false)
	require.NoError(t, err)
	require.False(t, c.Identity())
	require.Equal(t, "l", c.Schema().Field(1).Name)
	require.True(t, arrow.TypeEqual(arrow.BinaryTypes.String, c.Schema().Field(1).Type))
	out, err := c.Convert(mem, rec)
	require.NoError(t, err)
	defer out.Release()
	assert.Same(t, keep, out.Column(0))
	// The data bytes are shared, only the offsets narrowed.
	assert.Same(t, &large.Data().Buffers()[2].Bytes()[0], &out.Column(1).Data().Buffers()[2].Bytes()[0])

	native, err := New(arrow.NewSchema([]arrow.Field{{Name: "k", Type: keep.DataType()}}, nil), false)
	require.NoError(t, err)
	require.True(t, native.Identity())

	wrong := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "k", Type: keep.DataType()}, {Name: "l", Type: keep.DataType()}}, nil),
		[]arrow.Array{keep, keep}, 2)
	defer wrong.Release()
	_, err = c.Convert(mem, wrong)
	require.ErrorContains(t, err, "column 1 (l) is int64, schema has large_utf8")
}

func TestDictionaryIndexOutOfRange(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	vals := fromJSON(t, mem, arrow.BinaryTypes.String, `["a"]`)
	defer vals.Release()
	idx := fromJSON(t, mem, arrow.PrimitiveTypes.Int8, `[0, 1]`)
	defer idx.Release()
	d := array.NewData(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, 2,
		idx.Data().Buffers(), nil, 0, 0)
	d.SetDictionary(vals.Data())
	defer d.Release()
	a := array.MakeFromData(d)
	defer a.Release()
	convertFails(t, mem, a, false, 1, "", "dictionary index 1 is outside the dictionary's 1 values")
}

// A decimal256 that does not fit decimal128 fails naming its exact value
// (arrow-go's ValueStr garbles it on 386).
func TestDecimal256TooWideNamesTheValue(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	words := []uint64{5, 0, 0, 0, 0, 1 << 63, 0, 0} // 0.05, then 2^127
	d := array.NewData(&arrow.Decimal256Type{Precision: 76, Scale: 2}, 2,
		buffers(nil, arrow.Uint64Traits.CastToBytes(words)), nil, 0, 0)
	defer d.Release()
	a := array.MakeFromData(d)
	defer a.Release()
	convertFails(t, mem, a, false, 1, "", "value 1701411834604692317316873037158841057.28 has more than 38 digits")
}
