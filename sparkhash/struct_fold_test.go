package sparkhash

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestStructWithNullsFoldsAsRowByRow holds the column-by-column fold of a
// struct with null rows (nested, and sliced) to Spark's row-by-row order:
// a null row keeps its hash, a valid row folds its non-null fields in turn.
func TestStructWithNullsFoldsAsRowByRow(t *testing.T) {
	mem := checkedMem(t)
	// The children hold values under the struct's null rows (1 and 4),
	// which the fold must not see.
	d := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[7, 8, null, null, 9, -1]`)
	inner, err := array.NewStructArrayWithNulls([]arrow.Array{d}, []string{"d"},
		memory.NewBufferBytes([]byte{0b111011}), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Release()
	children := []arrow.Array{
		fromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[1, 2, null, 4, 5, -9]`),
		fromJSON(t, mem, arrow.BinaryTypes.String, `["x", "w", "yz", null, "v", ""]`),
		inner,
		fromJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int16), `[[1, null, 3], [2], null, [], [6, 6], [5]]`),
	}
	a, err := array.NewStructArrayWithNulls(children, []string{"a", "b", "c", "l"},
		memory.NewBufferBytes([]byte{0b101101}), 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	for _, off := range []int{0, 1, 2} {
		s := array.NewSlice(a, int64(off), int64(a.Len())).(*array.Struct)
		want := make([]int32, s.Len())
		for i := range want {
			want[i] = Seed
			if s.IsValid(i) {
				for f := 0; f < s.NumField(); f++ {
					if c := s.Field(f); c.IsValid(i) {
						want[i] = hashAt(c, i, want[i])
					}
				}
			}
		}
		got := hashCols(t, mem, Seed, s)
		expect(t, "sliced struct", got, want)
		s.Release()
	}
}
