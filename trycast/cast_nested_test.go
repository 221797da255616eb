package trycast

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/casttest"
)

// fromJSON builds flat decimal arrays itself: arrow-go v18.8.0 parses
// decimals wrong on 386.
func fromJSON(t *testing.T, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	if dec, ok := dt.(*arrow.Decimal128Type); ok {
		a, err := casttest.DecimalArray(mem, dec, js)
		if err != nil {
			t.Fatalf("decimals %s: %v", dt, err)
		}
		return a
	}
	a, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	if err != nil {
		t.Fatalf("FromJSON %s: %v", dt, err)
	}
	return a
}

type nestedCase struct {
	name       string
	from, to   arrow.DataType
	input      string
	opts       Options
	want       string // JSON of the expected output
	failedRows []int
}

func nestedCases() []nestedCase {
	utf8, i32, f64 := arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Float64
	list := `[["1","x","3"], null, [], ["4"], ["y"]]`
	st := func(a, b arrow.DataType) arrow.DataType {
		return arrow.StructOf(arrow.Field{Name: "a", Type: a, Nullable: true}, arrow.Field{Name: "b", Type: b, Nullable: true})
	}
	structs := `[{"a":"1","b":"2.5"}, {"a":"x","b":"1"}, null, {"a":"3","b":"y"}]`
	maps := `[[{"key":"1","value":"10"},{"key":"2","value":"x"}], [{"key":"k","value":"5"}], [{"key":"3","value":"30"}], null]`
	deep := `[[{"a":"1","b":"1"}], [{"a":"2","b":"z"}, {"a":"3","b":"3"}], null]`
	return []nestedCase{
		{"list/presto", arrow.ListOf(utf8), arrow.ListOf(i32), list, Options{Dialect: Presto},
			`[null, null, [], [4], null]`, []int{0, 4}},
		{"list/spark", arrow.ListOf(utf8), arrow.ListOf(i32), list, Options{Dialect: Spark},
			`[[1,null,3], null, [], [4], [null]]`, []int{0, 4}},
		{"list/spark_ansi", arrow.ListOf(utf8), arrow.ListOf(i32), list, Options{Dialect: SparkANSI},
			`[[1,null,3], null, [], [4], [null]]`, []int{0, 4}},
		{"list/spark_ansi/null_failed_rows", arrow.ListOf(utf8), arrow.ListOf(i32), list, Options{Dialect: SparkANSI, NullFailedRows: true},
			`[null, null, [], [4], null]`, []int{0, 4}},
		{"large_list/spark", arrow.LargeListOf(utf8), arrow.LargeListOf(arrow.PrimitiveTypes.Int64), list, Options{Dialect: Spark},
			`[[1,null,3], null, [], [4], [null]]`, []int{0, 4}},
		{"struct/presto", st(utf8, utf8), st(i32, f64), structs, Options{Dialect: Presto},
			`[{"a":1,"b":2.5}, null, null, null]`, []int{1, 3}},
		{"struct/spark", st(utf8, utf8), st(i32, f64), structs, Options{Dialect: Spark},
			`[{"a":1,"b":2.5}, {"a":null,"b":1}, null, {"a":3,"b":null}]`, []int{1, 3}},
		{"map/presto", arrow.MapOf(utf8, utf8), arrow.MapOf(i32, i32), maps, Options{Dialect: Presto},
			`[null, null, [{"key":3,"value":30}], null]`, []int{0, 1}},
		// A failing key nulls its row in every dialect: map keys cannot be null.
		{"map/spark", arrow.MapOf(utf8, utf8), arrow.MapOf(i32, i32), maps, Options{Dialect: Spark},
			`[[{"key":1,"value":10},{"key":2,"value":null}], null, [{"key":3,"value":30}], null]`, []int{0, 1}},
		{"list_of_struct/presto", arrow.ListOf(st(utf8, utf8)), arrow.ListOf(st(i32, i32)), deep, Options{Dialect: Presto},
			`[[{"a":1,"b":1}], null, null]`, []int{1}},
		{"list_of_struct/spark", arrow.ListOf(st(utf8, utf8)), arrow.ListOf(st(i32, i32)), deep, Options{Dialect: Spark},
			`[[{"a":1,"b":1}], [{"a":2,"b":null}, {"a":3,"b":3}], null]`, []int{1}},
	}
}

// TestCastNested runs every nested case at offsets 0 and 3, on zeroed and
// on dirty memory (0xA5): null slots must hold zeros either way.
func TestCastNested(t *testing.T) {
	casttest.EachMemory(t, testCastNested)
}

func testCastNested(t *testing.T, mem memory.Allocator) {
	for _, c := range nestedCases() {
		t.Run(c.name, func(t *testing.T) {
			in := fromJSON(t, mem, c.from, c.input)
			defer in.Release()
			want := fromJSON(t, mem, c.to, c.want)
			defer want.Release()
			checkNested(t, mem, in, c, want, 0)
			// The same rows at offset 3 of a longer array.
			pad := fromJSON(t, mem, c.from, `[null, null, null]`)
			defer pad.Release()
			long, err := array.Concatenate([]arrow.Array{pad, in, pad}, mem)
			if err != nil {
				t.Fatal(err)
			}
			defer long.Release()
			sliced := array.NewSlice(long, 3, int64(3+in.Len()))
			defer sliced.Release()
			checkNested(t, mem, sliced, c, want, 3)
		})
	}
}

func checkNested(t *testing.T, mem memory.Allocator, in arrow.Array, c nestedCase, want arrow.Array, off int) {
	t.Helper()
	out, f, err := CastWithFailures(mem, in, c.to, c.opts)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if err := array.ValidateFull(out); err != nil {
		t.Fatalf("offset %d: invalid output: %v", off, err)
	}
	if err := casttest.NullSlots(out); err != nil {
		t.Errorf("offset %d: %v", off, err)
	}
	if !array.Equal(out, want) {
		t.Errorf("offset %d: got %v, want %v", off, out, want)
	}
	if out.NullN() != want.NullN() {
		t.Errorf("offset %d: NullN %d, want %d", off, out.NullN(), want.NullN())
	}
	if f.Count != len(c.failedRows) || f.First != c.failedRows[0] {
		t.Errorf("offset %d: %d failures from %d, want %v", off, f.Count, f.First, c.failedRows)
	}
	for _, r := range c.failedRows {
		if !f.Failed(r) {
			t.Errorf("offset %d: row %d not reported as failed", off, r)
		}
	}
}

// TestCastListNullRowHidesBadElements: elements under a null list row are
// cast (they share the child) but are no failure and null nothing.
func TestCastListNullRowHidesBadElements(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	child := fromJSON(t, mem, arrow.BinaryTypes.String, `["1","2","3","x","y"]`)
	defer child.Release()
	offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 3, 5}))
	valid := memory.NewBufferBytes([]byte{0b01})
	data := array.NewData(arrow.ListOf(arrow.BinaryTypes.String), 2, []*memory.Buffer{valid, offsets}, []arrow.ArrayData{child.Data()}, 1, 0)
	defer data.Release()
	in := array.MakeFromData(data)
	defer in.Release()
	out, f, err := CastWithFailures(mem, in, arrow.ListOf(arrow.PrimitiveTypes.Int32), Options{Dialect: Presto})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	want := fromJSON(t, mem, arrow.ListOf(arrow.PrimitiveTypes.Int32), `[[1,2,3], null]`)
	defer want.Release()
	if !array.Equal(out, want) || f.Count != 0 {
		t.Errorf("got %v with %d failures, want %v and none", out, f.Count, want)
	}
	if err := array.ValidateFull(out); err != nil {
		t.Error(err)
	}
}

func TestCastNestedUnsupported(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	utf8, i32 := arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32
	in := fromJSON(t, mem, arrow.ListOf(utf8), `[["1"]]`)
	defer in.Release()
	for _, to := range []arrow.DataType{
		arrow.LargeListOf(i32),
		arrow.ListOf(arrow.FixedWidthTypes.Time32s),
		arrow.StructOf(arrow.Field{Name: "a", Type: i32}),
		i32,
	} {
		if out, err := Cast(mem, in, to, Options{}); err == nil {
			out.Release()
			t.Errorf("cast to %s: no error", to)
		}
		if CanCast(in.DataType(), to) {
			t.Errorf("CanCast(%s, %s) = true", in.DataType(), to)
		}
	}
}

// TestCastStructDropZeroes: a struct row nulled for a failing field nulls
// its other fields with nothing left under them (zero bytes, zero
// lengths), also for fields of unchanged type, whose buffers are the
// input's and stay as they were.
func TestCastStructDropZeroes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	utf8, large := arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString
	field := func(name string, dt arrow.DataType) arrow.Field {
		return arrow.Field{Name: name, Type: dt, Nullable: true}
	}
	from := arrow.StructOf(field("a", utf8), field("b", utf8), field("c", utf8), field("d", large), field("e", arrow.PrimitiveTypes.Int64))
	to := arrow.StructOf(field("a", utf8), field("b", arrow.PrimitiveTypes.Int32), field("c", arrow.FixedWidthTypes.Boolean),
		field("d", large), field("e", arrow.PrimitiveTypes.Int64))
	js := `[{"a":"keep","b":"1","c":"true","d":"x","e":7}, {"a":"gone","b":"x","c":"true","d":"yy","e":8}, null, {"a":"z","b":"2","c":null,"d":null,"e":9}]`
	in := fromJSON(t, mem, from, js)
	defer in.Release()
	out, err := Cast(mem, in, to, Options{Dialect: Presto})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if err := array.ValidateFull(out); err != nil {
		t.Fatal(err)
	}
	want := fromJSON(t, mem, to, `[{"a":"keep","b":1,"c":true,"d":"x","e":7}, null, null, {"a":"z","b":2,"c":null,"d":null,"e":9}]`)
	defer want.Release()
	if !array.Equal(out, want) {
		t.Errorf("got %v, want %v", out, want)
	}
	st := out.(*array.Struct)
	for j := 0; j < st.NumField(); j++ {
		if f := st.Field(j); f.IsValid(1) {
			t.Errorf("field %d of the dropped row is valid", j)
		}
	}
	if err := casttest.NullSlots(out); err != nil {
		t.Error(err)
	}
	again := fromJSON(t, mem, from, js)
	defer again.Release()
	if !array.Equal(in, again) {
		t.Errorf("input changed: %v", in)
	}
}
