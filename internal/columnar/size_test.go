package columnar

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestRecordBytes adds every buffer of every column and child: an int64
// column's validity and values, a list's validity, offsets and its child's.
func TestRecordBytes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ib := array.NewInt64Builder(mem)
	ib.AppendValues([]int64{1, 2, 3}, []bool{true, false, true})
	ints := ib.NewArray()
	ib.Release()
	defer ints.Release()
	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
	lb.Append(true)
	lb.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{4, 5}, nil)
	lb.AppendNull()
	lb.Append(true)
	list := lb.NewArray()
	lb.Release()
	defer list.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "i", Type: ints.DataType(), Nullable: true}, {Name: "l", Type: list.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{ints, list}, 3)
	defer rec.Release()
	var want int64
	for _, d := range []arrow.ArrayData{ints.Data(), list.Data(), list.Data().Children()[0]} {
		for _, b := range d.Buffers() {
			if b != nil {
				want += int64(b.Len())
			}
		}
	}
	require.Positive(t, want)
	require.Equal(t, want, RecordBytes(rec))
	require.Greater(t, RecordBytes(rec), int64(3*8+2*4))
}
