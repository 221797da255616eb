package sparkhash

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
)

// sliceSchemas covers every accepted type, with nulls, for the slicing
// test: one JSON list of 7 values each.
var sliceSchemas = []struct {
	dt arrow.DataType
	js string
}{
	{arrow.FixedWidthTypes.Boolean, `[true, null, false, true, true, null, false]`},
	{arrow.PrimitiveTypes.Int8, `[1, null, -3, 4, 5, null, 7]`},
	{arrow.PrimitiveTypes.Int16, `[1, null, -3, 4, 5, null, 7]`},
	{arrow.PrimitiveTypes.Int32, `[1, null, -3, 4, 5, null, 7]`},
	{arrow.PrimitiveTypes.Int64, `[1, null, -3, 4, 5, null, 7]`},
	{arrow.PrimitiveTypes.Float32, `[1.5, null, -3, 4, 5, null, 7]`},
	{arrow.PrimitiveTypes.Float64, `[1.5, null, -3, 4, 5, null, 7]`},
	{arrow.FixedWidthTypes.Date32, `[1, null, -3, 4, 5, null, 7]`},
	{arrow.FixedWidthTypes.Timestamp_us, `[1, null, -3, 4, 5, null, 7]`},
	{&arrow.Decimal128Type{Precision: 10, Scale: 2}, `["1.5", null, "-3", "4", "5", null, "7"]`},
	{&arrow.Decimal128Type{Precision: 30, Scale: 2}, `["1.5", null, "-3", "4", "5", null, "7"]`},
	{arrow.BinaryTypes.String, `["a", null, "bcd", "", "efghi", null, "j"]`},
	{arrow.BinaryTypes.LargeBinary, `["YQ==", null, "YmNk", "", "ZWZnaGk=", null, "ag=="]`},
	{arrow.ListOf(arrow.PrimitiveTypes.Int32), `[[1], null, [2, null, 3], [], [4, 5], null, [6]]`},
	{arrow.LargeListOf(arrow.BinaryTypes.String), `[["a"], null, ["b", null], [], ["c", "d"], null, ["e"]]`},
	{arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "y", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true}),
		`[{"x": 1, "y": [1]}, null, {"x": null, "y": [2, 3]}, {"x": 4, "y": null}, {"x": 5, "y": []}, null, {"x": 7, "y": [7]}]`},
	{arrow.ListOf(arrow.StructOf(arrow.Field{Name: "x", Type: &arrow.Decimal128Type{Precision: 20, Scale: 0}, Nullable: true})),
		`[[{"x": "1"}], null, [null, {"x": "-2"}], [], [{"x": null}], null, [{"x": "7"}]]`},
}

// TestSlicesHashLikeTheirRows: a sliced array (non-zero offset, shared
// buffers) hashes each row as the unsliced array does, for every type.
func TestSlicesHashLikeTheirRows(t *testing.T) {
	mem := checkedMem(t)
	for _, c := range sliceSchemas {
		full := fromJSON(t, mem, c.dt, c.js)
		want := hashCols(t, mem, 42, full)
		for _, r := range [][2]int64{{1, 6}, {2, 5}, {3, 4}, {0, 7}, {6, 7}} {
			s := array.NewSlice(full, r[0], r[1])
			got := hashCols(t, mem, 42, s)
			s.Release()
			expect(t, c.dt.String()+" slice", got, want[r[0]:r[1]])
		}
		// Nulls leave the running hash unchanged.
		for i := range want {
			if full.IsNull(i) && want[i] != 42 {
				t.Errorf("%s row %d: null %v but hash %d", c.dt, i, full.IsNull(i), want[i])
			}
		}
	}
}

// TestFoldMatchesHashInto: folding columns one at a time, and a column in
// chunks, gives what HashInto gives for all the columns.
func TestFoldMatchesHashInto(t *testing.T) {
	mem := checkedMem(t)
	var cols []arrow.Array
	for _, c := range sliceSchemas {
		cols = append(cols, fromJSON(t, mem, c.dt, c.js))
	}
	want := make([]int32, 7)
	if err := HashInto(want, cols, Seed); err != nil {
		t.Fatal(err)
	}
	got := []int32{42, 42, 42, 42, 42, 42, 42}
	for _, c := range cols {
		for _, r := range [][2]int{{0, 3}, {3, 3}, {3, 7}} {
			s := array.NewSlice(c, int64(r[0]), int64(r[1]))
			err := Fold(got[r[0]:r[1]], s)
			s.Release()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	expect(t, "folded in chunks", got, want)
}

// TestNullParentsHideChildren: a null struct or null list hashes as the
// seed even when its child buffers hold values under it.
func TestNullParentsHideChildren(t *testing.T) {
	mem := checkedMem(t)
	child := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[1, 999, 3]`)
	bitmap := memory.NewResizableBuffer(mem)
	bitmap.Resize(1)
	bitmap.Bytes()[0] = 0b101 // row 1 null
	st, err := array.NewStructArrayWithNulls([]arrow.Array{child}, []string{"a"}, bitmap, 1, 0)
	bitmap.Release()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	clean := fromJSON(t, mem, st.DataType(), `[{"a": 1}, null, {"a": 3}]`)
	expect(t, "struct hiding 999", hashCols(t, mem, 42, st), hashCols(t, mem, 42, clean))
	expect(t, "null struct", hashCols(t, mem, 42, st)[1:2], []int32{42})
	// The same struct as a list element between valid ones.
	offsets := memory.NewResizableBuffer(mem)
	offsets.Resize(8)
	copy(offsets.Bytes(), arrow.Int32Traits.CastToBytes([]int32{0, 3}))
	ld := array.NewData(arrow.ListOf(st.DataType()), 1, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{st.Data()}, 0, 0)
	offsets.Release()
	list := array.NewListData(ld)
	ld.Release()
	defer list.Release()
	cleanList := fromJSON(t, mem, list.DataType(), `[[{"a": 1}, null, {"a": 3}]]`)
	expect(t, "list of struct hiding 999", hashCols(t, mem, 42, list), hashCols(t, mem, 42, cleanList))

	// A null list row that still covers elements [1, 3).
	vals := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[5, 6, 7]`)
	offs := memory.NewResizableBuffer(mem)
	offs.Resize(12)
	copy(offs.Bytes(), arrow.Int32Traits.CastToBytes([]int32{0, 1, 3}))
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(1)
	valid.Bytes()[0] = 0b01
	nd := array.NewData(arrow.ListOf(arrow.PrimitiveTypes.Int32), 2, []*memory.Buffer{valid, offs}, []arrow.ArrayData{vals.Data()}, 1, 0)
	offs.Release()
	valid.Release()
	nl := array.NewListData(nd)
	nd.Release()
	defer nl.Release()
	expect(t, "null list over [6, 7]", hashCols(t, mem, 42, nl), []int32{HashInt(5, 42), 42})
}

func TestRefusedTypes(t *testing.T) {
	mem := checkedMem(t)
	cases := []struct {
		dt   arrow.DataType
		js   string
		path string
	}{
		{arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), `[[{"key": "a", "value": 1}]]`, "col 1"},
		{arrow.PrimitiveTypes.Uint32, `[1]`, "col 1"},
		{arrow.PrimitiveTypes.Uint8, `[1]`, "col 1"},
		{arrow.FixedWidthTypes.Timestamp_ms, `[1]`, "col 1"},
		{arrow.FixedWidthTypes.Date64, `[86400000]`, "col 1"},
		{arrow.ListOf(arrow.StructOf(arrow.Field{Name: "m", Type: arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32), Nullable: true})),
			`[[{"m": null}]]`, "col 1.element.m"},
	}
	ok := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[1]`)
	for _, c := range cases {
		bad := fromJSON(t, mem, c.dt, c.js)
		dst := []int32{7}
		err := HashInto(dst, []arrow.Array{ok, bad}, Seed)
		var te *TypeError
		if !errors.As(err, &te) || !errors.Is(err, arrow.ErrNotImplemented) || !errors.Is(err, rowbridge.ErrUnsupportedType) {
			t.Errorf("%s: %v", c.dt, err)
			continue
		}
		if te.Path != c.path || !strings.Contains(err.Error(), c.path) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: path %q in %q, want %q", c.dt, te.Path, err, c.path)
		}
		if dst[0] != 7 {
			t.Errorf("%s: dst written before the type was refused", c.dt)
		}
	}
	if err := HashInto(make([]int32, 2), []arrow.Array{ok}, Seed); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("length mismatch: %v", err)
	}
	if _, err := Hash(mem, nil, Seed); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("no columns: %v", err)
	}
	if err := HashInto(make([]int32, 3), nil, 5); err != nil {
		t.Errorf("no columns into dst: %v", err)
	}
}

// TestHashAllocatesNothing: HashInto allocates nothing per call, let alone
// per row, for flat, long-decimal and nested columns.
func TestHashAllocatesNothing(t *testing.T) {
	mem := memory.NewGoAllocator()
	var cols []arrow.Array
	for _, c := range sliceSchemas {
		a, _, err := array.FromJSON(mem, c.dt, strings.NewReader(c.js))
		if err != nil {
			t.Fatal(err)
		}
		defer a.Release()
		cols = append(cols, a)
	}
	dst := make([]int32, 7)
	if n := testing.AllocsPerRun(20, func() {
		if err := HashInto(dst, cols, Seed); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("HashInto allocates %v times per call", n)
	}
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "a", Type: cols[4].DataType()}, {Name: "b", Type: cols[11].DataType()}}, nil),
		[]arrow.Array{cols[4], cols[11]}, 7)
	defer rec.Release()
	p, _ := NewHashPartitioner(13, []int{1, 0})
	if n := testing.AllocsPerRun(20, func() {
		if _, err := p.Partitions(rec, dst); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Partitions allocates %v times per call", n)
	}
}

// TestEmptyAndAllNull: empty arrays and arrays of nulls only (whose value
// buffers may be absent) hash without touching values.
func TestEmptyAndAllNull(t *testing.T) {
	mem := checkedMem(t)
	for _, c := range sliceSchemas {
		empty := fromJSON(t, mem, c.dt, `[]`)
		if got := hashCols(t, mem, 42, empty); len(got) != 0 {
			t.Errorf("%s empty: %v", c.dt, got)
		}
		nulls := array.MakeArrayOfNull(mem, c.dt, 3)
		expect(t, c.dt.String()+" all null", hashCols(t, mem, 42, nulls), []int32{42, 42, 42})
		nulls.Release()
		bd := array.NewData(c.dt, 0, make([]*memory.Buffer, len(empty.Data().Buffers())), empty.Data().Children(), 0, 0)
		bare := array.MakeFromData(bd)
		bd.Release()
		dst := []int32{}
		if err := HashInto(dst, []arrow.Array{bare}, Seed); err != nil {
			t.Errorf("%s without buffers: %v", c.dt, err)
		}
		bare.Release()
	}
}

// TestMissingBufferIsAnError: a non-empty array without its value buffer
// (invalid Arrow) is refused with an error instead of a panic.
func TestMissingBufferIsAnError(t *testing.T) {
	for _, dt := range []arrow.DataType{arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float32} { // (arrow-go itself panics on a string without offsets)
		d := array.NewData(dt, 2, []*memory.Buffer{nil, nil, nil}[:len(dt.Layout().Buffers)], nil, 0, 0)
		a := array.MakeFromData(d)
		d.Release()
		err := HashInto(make([]int32, 2), []arrow.Array{a}, Seed)
		a.Release()
		if !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("%s without buffers: %v", dt, err)
		}
	}
}
