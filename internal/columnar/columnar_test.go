package columnar

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlanPathsAndKinds(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.StructOf(
			arrow.Field{Name: "x", Type: &arrow.Decimal128Type{Precision: 38, Scale: 2}, Nullable: true}))},
		{Name: "l", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true})},
	}, nil)
	p, err := NewPlan(schema)
	require.NoError(t, err)
	require.Len(t, p.Fields, 3)
	assert.Equal(t, KindInt32, p.Fields[0].Kind)
	m := p.Fields[1]
	assert.Equal(t, KindMap, m.Kind)
	assert.Equal(t, "m.key", m.Children[0].Path)
	assert.Equal(t, KindString, m.Children[0].Kind)
	x := m.Children[1].Children[0]
	assert.Equal(t, "m.value.x", x.Path)
	assert.True(t, x.IsLongDecimal())
	assert.Equal(t, int32(2), x.Scale)
	assert.Equal(t, "l.element", p.Fields[2].Children[0].Path)
	assert.Equal(t, KindTimestamp, p.Fields[2].Children[0].Kind)
}

func TestPlanRejectsUnsupported(t *testing.T) {
	for _, dt := range []arrow.DataType{
		arrow.BinaryTypes.LargeString, &arrow.TimestampType{Unit: arrow.Nanosecond}, arrow.PrimitiveTypes.Uint32,
	} {
		_, err := NewPlan(arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "z", Type: dt})}}, nil))
		require.Error(t, err, dt.String())
		assert.True(t, errors.Is(err, rowbridge.ErrUnsupportedType))
		assert.Contains(t, err.Error(), "s.z")
	}
}

func TestValidityLazyAndCounted(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var v Validity
	v.Reset(mem, 20)
	assert.Nil(t, v.Bits())
	buf, nulls := v.Finish()
	assert.Nil(t, buf)
	assert.Zero(t, nulls)

	v.Reset(mem, 20)
	v.SetNull(3)
	v.SetNull(3)
	v.SetNull(19)
	assert.True(t, v.IsNull(19))
	assert.False(t, v.IsNull(4))
	buf, nulls = v.Finish()
	require.Equal(t, 2, nulls)
	vals := NewZeroedBuffer(mem, 20*4)
	data := NewFixedData(arrow.PrimitiveTypes.Int32, 20, buf, nulls, vals)
	arr := array.MakeFromData(data)
	data.Release()
	defer arr.Release()
	require.NoError(t, array.ValidateFull(arr))
	assert.True(t, arr.IsNull(3))
	assert.True(t, arr.IsNull(19))
	assert.True(t, arr.IsValid(0))
	assert.Equal(t, 2, arr.NullN())
}

func TestNestedConstructors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	// map<string, int64> with rows {"a":1,"bc":2}, null, {}
	keyOffs, ko := NewOffsets(mem, 2)
	ko[1], ko[2] = 1, 3
	keyData := NewBuffer(mem, 3)
	copy(keyData.Bytes(), "abc")
	keys := NewBinaryData(arrow.BinaryTypes.String, 2, nil, 0, keyOffs, keyData)
	vb := NewBuffer(mem, 16)
	binary.LittleEndian.PutUint64(vb.Bytes(), 1)
	binary.LittleEndian.PutUint64(vb.Bytes()[8:], 2)
	vals := NewFixedData(arrow.PrimitiveTypes.Int64, 2, nil, 0, vb)

	var v Validity
	v.Reset(mem, 3)
	v.SetNull(1)
	valid, nulls := v.Finish()
	offs, o := NewOffsets(mem, 3)
	o[1], o[2], o[3] = 2, 2, 2
	mt := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	md := NewMapData(mt, 3, valid, nulls, offs, keys, vals)

	st := arrow.StructOf(arrow.Field{Name: "m", Type: mt, Nullable: true}, arrow.Field{Name: "n", Type: arrow.Null, Nullable: true})
	sd := NewStructData(st, 3, nil, 0, []arrow.ArrayData{md, NewNullData(3)})
	rec := NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "s", Type: st}}, nil), 3, []arrow.ArrayData{sd})
	defer rec.Release()
	require.NoError(t, array.ValidateFull(rec.Column(0)))
	m := rec.Column(0).(*array.Struct).Field(0).(*array.Map)
	assert.True(t, m.IsNull(1))
	assert.Equal(t, "bc", m.Keys().(*array.String).Value(1))
	assert.Equal(t, int64(2), m.Items().(*array.Int64).Value(1))
	s, e := m.ValueOffsets(2)
	assert.Equal(t, s, e)
}

// Sizes that do not fit int32 offsets or the address space panic with a
// message (a caller's bug) rather than wrap into a small buffer on 32-bit
// machines.
func TestSizesDoNotWrap(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	assert.PanicsWithValue(t, "rowbridge: 2147483647 offsets entries", func() { NewOffsets(mem, math.MaxInt32) })
	assert.PanicsWithValue(t, "rowbridge: -1 offsets entries", func() { NewOffsets(mem, -1) })
}
