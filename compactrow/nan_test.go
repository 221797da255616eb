package compactrow

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// Velox's CompactRow writer copies float bits as they are: NaN payloads and
// signs, and -0, survive encode and decode bit for bit, top level and in
// arrays.
func TestNaNBitsSurvive(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := fields(nf("f", arrow.PrimitiveTypes.Float32), nf("d", arrow.PrimitiveTypes.Float64),
		nf("af", arrow.ListOf(arrow.PrimitiveTypes.Float32)), nf("ad", arrow.ListOf(arrow.PrimitiveTypes.Float64)))
	nan32 := math.Float32frombits(0xffc00001) // negative NaN with a payload
	nan64 := math.Float64frombits(0x7ff0000000000001)
	negZero := math.Copysign(0, -1)

	fb := array.NewFloat32Builder(mem)
	defer fb.Release()
	fb.Append(nan32)
	db := array.NewFloat64Builder(mem)
	defer db.Release()
	db.Append(nan64)
	afb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Float32)
	defer afb.Release()
	afb.Append(true)
	afb.ValueBuilder().(*array.Float32Builder).AppendValues([]float32{1, nan32}, nil)
	adb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Float64)
	defer adb.Release()
	adb.Append(true)
	adb.ValueBuilder().(*array.Float64Builder).AppendValues([]float64{nan64, negZero}, nil)
	cols := []arrow.Array{fb.NewArray(), db.NewArray(), afb.NewArray(), adb.NewArray()}
	rec := array.NewRecordBatch(schema, cols, 1)
	for _, c := range cols {
		c.Release()
	}
	defer rec.Release()

	enc, err := NewEncoder(schema, WithAllocator(mem))
	require.NoError(t, err)
	rows, err := enc.Encode(rec)
	require.NoError(t, err)
	// null flags (1 byte, none set), f, d, then each array: count, null
	// flags, elements.
	require.Equal(t, unhex(t, `00  0100c0ff  010000000000f07f
		02000000 00  0000803f 0100c0ff
		02000000 00  010000000000f07f 0000000000000080`), rows.Row(0))

	dec, err := NewDecoder(schema, WithAllocator(mem))
	require.NoError(t, err)
	got, err := dec.Decode(rows.Slices())
	require.NoError(t, err)
	defer got.Release()
	validateBatch(t, got)
	require.Equal(t, uint32(0xffc00001), math.Float32bits(got.Column(0).(*array.Float32).Value(0)))
	require.Equal(t, uint64(0x7ff0000000000001), math.Float64bits(got.Column(1).(*array.Float64).Value(0)))
	af := got.Column(2).(*array.List).ListValues().(*array.Float32)
	require.Equal(t, []uint32{0x3f800000, 0xffc00001}, []uint32{math.Float32bits(af.Value(0)), math.Float32bits(af.Value(1))})
	ad := got.Column(3).(*array.List).ListValues().(*array.Float64)
	require.Equal(t, []uint64{0x7ff0000000000001, 0x8000000000000000}, []uint64{math.Float64bits(ad.Value(0)), math.Float64bits(ad.Value(1))})
}
