package casttest

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestNullSlots: builder-made arrays pass; a value, a value bit or a
// length under a null fails, also inside a list or struct.
func TestNullSlots(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	build := func(dt arrow.DataType, js string) arrow.Array {
		a, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	valid := func(n int, nulls ...int) *memory.Buffer {
		b := make([]byte, (n+7)/8)
		for i := 0; i < n; i++ {
			b[i/8] |= 1 << (i % 8)
		}
		for _, i := range nulls {
			b[i/8] &^= 1 << (i % 8)
		}
		return memory.NewBufferBytes(b)
	}
	i32, utf8 := arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String
	for _, c := range []struct {
		dt arrow.DataType
		js string
	}{
		{i32, `[1, null, 3]`},
		{arrow.FixedWidthTypes.Boolean, `[true, null]`},
		{utf8, `["a", null, "b"]`},
		{arrow.ListOf(i32), `[[1, null], null, [2]]`},
		{arrow.StructOf(arrow.Field{Name: "a", Type: utf8, Nullable: true}), `[{"a": null}, null, {"a": "x"}]`},
	} {
		a := build(c.dt, c.js)
		if err := NullSlots(a); err != nil {
			t.Errorf("%s %s: %v", c.dt, c.js, err)
		}
		a.Release()
	}
	ints := arrow.Int32Traits.CastToBytes([]int32{1, 2, 3})
	bad := map[string]arrow.ArrayData{
		"int32": array.NewData(i32, 2, []*memory.Buffer{valid(3, 1), memory.NewBufferBytes(ints)}, nil, 1, 1),
		"bool":  array.NewData(arrow.FixedWidthTypes.Boolean, 3, []*memory.Buffer{valid(3, 2), memory.NewBufferBytes([]byte{0b100})}, nil, 1, 0),
		"utf8": array.NewData(utf8, 2, []*memory.Buffer{valid(2, 1),
			memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1, 2})), memory.NewBufferBytes([]byte("ab"))}, nil, 1, 0),
	}
	bad["list"] = array.NewData(arrow.ListOf(i32), 1, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 2}))}, []arrow.ArrayData{bad["int32"]}, 0, 0)
	for name, d := range bad {
		a := array.MakeFromData(d)
		if err := NullSlots(a); err == nil {
			t.Errorf("%s: garbage under a null passes", name)
		}
		a.Release()
	}
	for _, d := range bad {
		d.Release()
	}
}
