package unsaferow

import (
	"errors"
	"fmt"
	"math/rand"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// NOT NULL fields: a null where the schema declares NOT NULL is an error,
// as in compactrow; a NOT NULL field under a null parent is not.

func notNullField(name string, dt arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: dt, Nullable: false}
}

func listOfNotNull(dt arrow.DataType) *arrow.ListType {
	return arrow.ListOfField(arrow.Field{Name: "element", Type: dt, Nullable: false})
}

func mapOfNotNull(key, value arrow.DataType) *arrow.MapType {
	return arrow.MapOfFields(arrow.Field{Name: "key", Type: key}, arrow.Field{Name: "value", Type: value, Nullable: false})
}

// wideNotNull is ten int32 fields, f9 NOT NULL, so its null bit is in
// byte 1 of the bitset.
func wideNotNull() *arrow.Schema {
	fields := make([]arrow.Field, 10)
	for i := range fields {
		fields[i] = nullable("f"+strconv.Itoa(i), arrow.PrimitiveTypes.Int32)
	}
	fields[9].Nullable = false
	return goldenSchema(fields...)
}

func wideRow(null9 bool) []byte {
	vals := make([]hv, 10)
	for i := range vals {
		vals[i] = hI32(int32(i))
	}
	if null9 {
		vals[9] = hNull
	}
	return handRow(vals...)
}

func TestDecodeNotNullViolations(t *testing.T) {
	i32, str := arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String
	elems71 := make([]hv, 71) // element 70's null bit is in bitset byte 8
	for j := range elems71 {
		elems71[j] = hI32(int32(j))
	}
	elems71[70] = hNull
	cases := []struct {
		name   string
		schema *arrow.Schema
		good   []byte // decodes
		bad    []byte
		field  string
		offset int
	}{
		{"top-level fixed", goldenSchema(nullable("a", i32), notNullField("x", i32)),
			handRow(hNull, hI32(1)), handRow(hI32(1), hNull), "x", 0},
		{"top-level string", goldenSchema(notNullField("s", str)),
			handRow(hStr("a")), handRow(hNull), "s", 0},
		{"top-level in bitset byte 1", wideNotNull(), wideRow(false), wideRow(true), "f9", 1},
		{"struct field", goldenSchema(nullable("s", arrow.StructOf(notNullField("a", i32), nullable("b", str)))),
			handRow(hVar(handRow(hI32(1), hNull))), handRow(hVar(handRow(hNull, hStr("x")))), "s.a", 16},
		{"struct field, string", goldenSchema(nullable("s", arrow.StructOf(nullable("a", i32), notNullField("b", str)))),
			handRow(hVar(handRow(hNull, hStr("x")))), handRow(hVar(handRow(hI32(1), hNull))), "s.b", 16},
		{"struct in struct", goldenSchema(nullable("s", arrow.StructOf(notNullField("t", arrow.StructOf(nullable("a", i32)))))),
			handRow(hVar(handRow(hVar(handRow(hNull))))), handRow(hVar(handRow(hNull))), "s.t", 16},
		{"list element", goldenSchema(nullable("l", listOfNotNull(i32))),
			handRow(hVar(handArray(4, hI32(1), hI32(2)))), handRow(hVar(handArray(4, hI32(1), hNull, hI32(3)))), "l.element", 24},
		{"list element in bitset byte 8", goldenSchema(nullable("l", listOfNotNull(i32))),
			handRow(hVar(handArray(4, elems71[:70]...))), handRow(hVar(handArray(4, elems71...))), "l.element", 32},
		{"list element, string", goldenSchema(nullable("l", listOfNotNull(str))),
			handRow(hVar(handArray(8, hStr("a")))), handRow(hVar(handArray(8, hStr("a"), hNull))), "l.element", 24},
		{"list element, list", goldenSchema(nullable("l", listOfNotNull(listOfElem(i32)))),
			handRow(hVar(handArray(8, hVar(handArray(4, hNull))))), handRow(hVar(handArray(8, hNull))), "l.element", 24},
		{"map value", goldenSchema(nullable("m", mapOfNotNull(i32, str))),
			handRow(hVar(handMap(handArray(4, hI32(1)), handArray(8, hStr("a"))))),
			handRow(hVar(handMap(handArray(4, hI32(1), hI32(2)), handArray(8, hStr("a"), hNull)))), "m.value", 56},
		{"struct field in a list element", goldenSchema(nullable("l", listOfElem(arrow.StructOf(notNullField("a", i32))))),
			handRow(hVar(handArray(8, hNull, hVar(handRow(hI32(1)))))),
			handRow(hVar(handArray(8, hVar(handRow(hI32(1))), hVar(handRow(hNull))))), "l.element.a", 64},
		{"struct field in a map value", goldenSchema(nullable("m", arrow.MapOf(i32, arrow.StructOf(notNullField("a", str))))),
			handRow(hVar(handMap(handArray(4, hI32(1)), handArray(8, hVar(handRow(hStr("x"))))))),
			handRow(hVar(handMap(handArray(4, hI32(1)), handArray(8, hVar(handRow(hNull)))))), "m.value.a", 72},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := checkedMem(t)
			dec := mustDecoder(t, c.schema, mem)
			rec := decodeValid(t, dec, [][]byte{c.good})
			rec.Release()
			_, err := dec.Decode([][]byte{c.good, c.bad})
			assertDecodeError(t, err, rowbridge.ErrLayout, c.field, c.offset)
			var de *rowbridge.DecodeError
			require.True(t, errors.As(err, &de))
			require.Equal(t, 1, de.Row)
			require.ErrorContains(t, err, "NOT NULL")
		})
	}
}

// Under a null struct, list, map or list element, NOT NULL fields are
// null and the bytes behind the null parent, here null bits set for NOT
// NULL fields, are never read.
func TestDecodeNotNullUnderNullParent(t *testing.T) {
	i32, str := arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String
	inner := arrow.StructOf(notNullField("a", i32), notNullField("b", str))
	schema := goldenSchema(
		nullable("s", inner),
		nullable("l", listOfNotNull(i32)),
		nullable("ls", listOfElem(inner)),
		nullable("m", mapOfNotNull(i32, inner)),
		notNullField("n", arrow.Null), // the null type is always null
		nullable("ln", listOfNotNull(arrow.Null)),
	)
	mem := checkedMem(t)
	dec := mustDecoder(t, schema, mem)
	allNull := handRow(hNull, hNull, hNull, hNull, hNull, hNull)
	bad := handRow(hNull, hNull)
	// Every value below but the last element of ls and ln's elements
	// breaks a NOT NULL rule unless its parent's null bit is set.
	row := handRow(hVar(bad), hVar(handArray(4, hNull)),
		hVar(handArray(8, hVar(bad), hVar(handRow(hI32(5), hStr("y"))))),
		hVar(handMap(handArray(4, hI32(1)), handArray(8, hVar(bad)))),
		hNull, hVar(handArray(0, hNull, hNull)))
	ls := int(le64(row[8+8*2:]) >> 32)
	for _, c := range []struct {
		field string
		at    int
		mask  byte
	}{{"s.a", 0, 1 << 0}, {"l.element", 0, 1 << 1}, {"ls.element.a", ls + 8, 1 << 0}, {"m.value", 0, 1 << 3}} {
		_, err := dec.Decode([][]byte{row})
		require.ErrorIs(t, err, rowbridge.ErrLayout)
		require.ErrorContains(t, err, c.field, "before its parent is nulled")
		row[c.at] |= c.mask
	}
	rec := decodeValid(t, dec, [][]byte{allNull, row})
	defer rec.Release()
	want := jsonRecord(t, mem, schema, `[
		{"s": null, "l": null, "ls": null, "m": null, "n": null, "ln": null},
		{"s": null, "l": null, "ls": [null, {"a": 5, "b": "y"}], "m": null, "n": null, "ln": [null, null]}]`)
	defer want.Release()
	assertBatch(t, rec, want)
}

// requireNotNullError checks an encode error for a null in a NOT NULL value.
func requireNotNullError(t *testing.T, err error, row int, field string) {
	t.Helper()
	var ee *rowbridge.EncodeError
	require.ErrorAs(t, err, &ee)
	require.ErrorIs(t, err, rowbridge.ErrValue)
	require.Equal(t, row, ee.Row, "row")
	require.Equal(t, field, ee.Field, "field")
}

func TestEncodeNotNullViolations(t *testing.T) {
	i32, str := arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String
	inner := arrow.StructOf(notNullField("a", i32), nullable("b", str))
	cases := []struct {
		name   string
		schema *arrow.Schema
		js     string // the last row breaks the rule, the others do not
		field  string
	}{
		{"top-level fixed", goldenSchema(nullable("a", i32), notNullField("x", i32)),
			`[{"a": null, "x": 1}, {"a": 2, "x": null}]`, "x"},
		{"top-level string", goldenSchema(notNullField("s", str)), `[{"s": ""}, {"s": "a"}, {"s": null}]`, "s"},
		{"top-level list", goldenSchema(notNullField("l", listOfElem(i32))), `[{"l": [null]}, {"l": null}]`, "l"},
		{"struct field", goldenSchema(nullable("s", inner)),
			`[{"s": {"a": 1, "b": null}}, {"s": null}, {"s": {"a": null, "b": "x"}}]`, "s.a"},
		{"struct in struct", goldenSchema(nullable("s", arrow.StructOf(notNullField("t", inner)))),
			`[{"s": {"t": {"a": 1}}}, {"s": null}, {"s": {"t": null}}]`, "s.t"},
		{"list element", goldenSchema(nullable("l", listOfNotNull(i32))),
			`[{"l": [1, 2]}, {"l": null}, {"l": []}, {"l": [3, null]}]`, "l.element"},
		{"list element, string", goldenSchema(nullable("l", listOfNotNull(str))),
			`[{"l": ["a"]}, {"l": [null]}]`, "l.element"},
		{"list element, struct", goldenSchema(nullable("l", listOfNotNull(inner))),
			`[{"l": [{"a": 1}]}, {"l": [{"a": 2}, null]}]`, "l.element"},
		{"struct field in a list element", goldenSchema(nullable("l", listOfElem(inner))),
			`[{"l": [null, {"a": 1}]}, {"l": [{"a": 2}, {"a": null}]}]`, "l.element.a"},
		{"map value", goldenSchema(nullable("m", mapOfNotNull(i32, str))),
			`[{"m": [{"key": 1, "value": "a"}]}, {"m": null}, {"m": [{"key": 1, "value": "b"}, {"key": 2, "value": null}]}]`, "m.value"},
		{"map value, struct", goldenSchema(nullable("m", mapOfNotNull(i32, inner))),
			`[{"m": [{"key": 1, "value": {"a": 1}}]}, {"m": [{"key": 1, "value": null}]}]`, "m.value"},
		{"struct field in a map value", goldenSchema(nullable("m", arrow.MapOf(i32, inner))),
			`[{"m": [{"key": 1, "value": null}]}, {"m": [{"key": 1, "value": {"a": null}}]}]`, "m.value.a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := checkedMem(t)
			rec := strictFromJSON(t, mem, c.schema, c.js)
			defer rec.Release()
			last := int(rec.NumRows()) - 1
			for _, fl := range flavors {
				enc, err := NewEncoder(c.schema, WithFlavor(fl))
				require.NoError(t, err)
				prior := rowbridge.Rows{Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}, Offsets: []int{0, 8}}
				got, err := enc.AppendRows(prior, rec)
				requireNotNullError(t, err, last, c.field)
				require.ErrorContains(t, err, "NOT NULL")
				require.Equal(t, []int{0, 8}, got.Offsets, "dst rolled back")
				require.Equal(t, []byte{1, 2, 3, 4, 5, 6, 7, 8}, got.Data)
				// A slice that ends before the bad row encodes; one that
				// starts at row 1 reports the bad row relative to itself.
				good := rec.NewSlice(0, int64(last))
				requireRoundTrip(t, mem, good, c.name)
				good.Release()
				part := rec.NewSlice(1, rec.NumRows())
				_, err = enc.Encode(part)
				part.Release()
				requireNotNullError(t, err, last-1, c.field)
			}
		})
	}
}

// A NOT NULL column built with a builder: its null is found in a slice
// whose null count is not known until counted, and a slice past the null
// encodes, though the array's validity bitmap still holds the null bit.
func TestEncodeNotNullSlices(t *testing.T) {
	mem := checkedMem(t)
	schema := goldenSchema(notNullField("x", arrow.PrimitiveTypes.Int64), notNullField("l", listOfNotNull(arrow.PrimitiveTypes.Int64)))
	xb := array.NewInt64Builder(mem)
	defer xb.Release()
	lb := array.NewListBuilderWithField(mem, schema.Field(1).Type.(*arrow.ListType).ElemField())
	defer lb.Release()
	eb := lb.ValueBuilder().(*array.Int64Builder)
	for i := range int64(8) {
		if i == 2 {
			xb.AppendNull()
		} else {
			xb.Append(i)
		}
		lb.Append(true)
		eb.Append(i)
		if i == 5 {
			eb.AppendNull()
		}
	}
	x, l := xb.NewArray(), lb.NewArray()
	defer x.Release()
	defer l.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{x, l}, 8)
	defer rec.Release()
	enc, err := NewEncoder(schema)
	require.NoError(t, err)
	_, err = enc.Encode(rec)
	requireNotNullError(t, err, 2, "x")
	for _, c := range []struct {
		from, to int64
		row      int // -1: encodes
		field    string
	}{{1, 4, 1, "x"}, {3, 8, 2, "l.element"}, {3, 5, -1, ""}, {6, 8, -1, ""}} {
		part := rec.NewSlice(c.from, c.to)
		if c.row < 0 {
			requireRoundTrip(t, mem, part, fmt.Sprintf("rows %d..%d", c.from, c.to))
		} else {
			_, err := enc.Encode(part)
			requireNotNullError(t, err, c.row, c.field)
		}
		part.Release()
	}
}

// Nulls under a null struct, list or map, of NOT NULL fields, elements and
// values, are not looked at; nor are the values of the null type.
func TestEncodeNotNullUnderNullParent(t *testing.T) {
	mem := checkedMem(t)
	i32 := arrow.PrimitiveTypes.Int32
	inner := arrow.StructOf(notNullField("a", i32))
	// A struct builder appends a null to each field of a null struct.
	schema := goldenSchema(nullable("s", inner), notNullField("n", arrow.Null), nullable("ln", listOfNotNull(arrow.Null)))
	rec := recordFromJSON(t, mem, schema, `[{"s": null, "n": null, "ln": [null]}, {"s": {"a": 1}, "n": null, "ln": null}]`)
	defer rec.Release()
	require.Equal(t, 1, rec.Column(0).(*array.Struct).Field(0).NullN())
	requireRoundTrip(t, mem, rec, "builder nulls")

	// Lists and maps whose null entries cover children with nulls, which
	// builders do not make: row 0's list and map are nulled afterwards.
	strict := goldenSchema(nullable("l", listOfNotNull(i32)), nullable("m", mapOfNotNull(i32, i32)))
	rec2 := strictFromJSON(t, mem, strict, `[
		{"l": [1, null], "m": [{"key": 1, "value": null}]},
		{"l": [2], "m": [{"key": 2, "value": 3}]}]`)
	defer rec2.Release()
	enc, err := NewEncoder(strict)
	require.NoError(t, err)
	_, err = enc.Encode(rec2)
	requireNotNullError(t, err, 0, "l.element")
	nulled := memory.NewBufferBytes([]byte{0b10})
	cols := make([]arrow.Array, 2)
	for i := range cols {
		d := rec2.Column(i).Data()
		nd := array.NewData(d.DataType(), d.Len(), append([]*memory.Buffer{nulled}, d.Buffers()[1:]...), d.Children(), 1, d.Offset())
		cols[i] = array.MakeFromData(nd)
		nd.Release()
		defer cols[i].Release()
		require.NoError(t, array.ValidateFull(cols[i]))
	}
	rec3 := array.NewRecordBatch(strict, cols, 2)
	defer rec3.Release()
	dec := mustDecoder(t, strict, mem)
	for _, fl := range flavors {
		rows := encodeWith(t, fl, rec3)
		got := decodeValid(t, dec, rows.Slices())
		want := recordFromJSON(t, mem, strict, `[{"l": null, "m": null}, {"l": [2], "m": [{"key": 2, "value": 3}]}]`)
		assertBatch(t, got, want)
		got.Release()
		want.Release()
	}
}

// strictFromJSON builds a batch of schema from JSON that may hold nulls
// where schema says NOT NULL, which arrow-go's map builder refuses: the
// JSON is read as the all-nullable twin of schema, then retyped.
func strictFromJSON(t *testing.T, mem memory.Allocator, schema *arrow.Schema, js string) arrow.RecordBatch {
	t.Helper()
	twin := make([]arrow.Field, schema.NumFields())
	for i, f := range schema.Fields() {
		twin[i] = arrow.Field{Name: f.Name, Type: nullableType(f.Type), Nullable: true}
	}
	src := recordFromJSON(t, mem, arrow.NewSchema(twin, nil), js)
	defer src.Release()
	cols := make([]arrow.Array, schema.NumFields())
	for i, f := range schema.Fields() {
		d := retyped(src.Column(i).Data(), f.Type)
		cols[i] = array.MakeFromData(d)
		d.Release()
		defer cols[i].Release()
	}
	return array.NewRecordBatch(schema, cols, src.NumRows())
}

// nullableType is dt with every nested field nullable (map keys aside).
func nullableType(dt arrow.DataType) arrow.DataType {
	switch t := dt.(type) {
	case *arrow.ListType:
		return arrow.ListOfField(arrow.Field{Name: t.ElemField().Name, Type: nullableType(t.Elem()), Nullable: true})
	case *arrow.MapType:
		return arrow.MapOf(nullableType(t.KeyType()), nullableType(t.ItemType()))
	case *arrow.StructType:
		fs := make([]arrow.Field, t.NumFields())
		for i, f := range t.Fields() {
			fs[i] = arrow.Field{Name: f.Name, Type: nullableType(f.Type), Nullable: true}
		}
		return arrow.StructOf(fs...)
	}
	return dt
}

// retyped is d as type dt, which differs from d's type only in
// nullability, with its children retyped to match.
func retyped(d arrow.ArrayData, dt arrow.DataType) arrow.ArrayData {
	var kids []arrow.DataType
	switch t := dt.(type) {
	case *arrow.ListType:
		kids = []arrow.DataType{t.Elem()}
	case *arrow.MapType:
		kids = []arrow.DataType{t.Elem()}
	case *arrow.StructType:
		for _, f := range t.Fields() {
			kids = append(kids, f.Type)
		}
	}
	children := make([]arrow.ArrayData, len(kids))
	for i, k := range kids {
		children[i] = retyped(d.Children()[i], k)
		defer children[i].Release()
	}
	return array.NewData(dt, d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
}

// A null map key fails in the NOT NULL pass with its own message. arrow-go
// refuses to build such a map, so the key array is bound into the view.
func TestEncodeNullMapKey(t *testing.T) {
	mem := checkedMem(t)
	mt := arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int32)
	keys := recordFromJSON(t, mem, goldenSchema(nullable("k", arrow.PrimitiveTypes.Int32)), `[{"k": 1}, {"k": null}, {"k": null}]`)
	defer keys.Release()
	schema := goldenSchema(nullable("m", mt))
	mrec := recordFromJSON(t, mem, schema, `[{"m": [{"key": 1, "value": 1}]}, {"m": null}, {"m": [{"key": 3, "value": 1}, {"key": 2, "value": 2}]}]`)
	defer mrec.Release()
	enc, err := NewEncoder(schema)
	require.NoError(t, err)
	cols := []encView{newEncView(enc.fields[0])}
	cols[0].bind(mrec.Column(0).Data())
	cols[0].kids[0].bind(keys.Column(0).Data())
	cols[0].markNotNullCheck()
	var w encWalker
	enc.checkNotNull(&w, cols, 3)
	requireNotNullError(t, w.err, 2, "m.key")
	require.ErrorContains(t, w.err, "null map key")
	// Key 1, the null one, belongs to the null map: nothing to report.
	keys2 := recordFromJSON(t, mem, goldenSchema(nullable("k", arrow.PrimitiveTypes.Int32)), `[{"k": 1}, {"k": null}, {"k": 3}, {"k": 2}]`)
	defer keys2.Release()
	mrec2 := recordFromJSON(t, mem, schema, `[{"m": [{"key": 1, "value": 1}]}, {"m": [{"key": 9, "value": 9}]}, {"m": [{"key": 3, "value": 1}, {"key": 2, "value": 2}]}]`)
	defer mrec2.Release()
	d := mrec2.Column(0).Data()
	nd := array.NewData(mt, 3, append([]*memory.Buffer{memory.NewBufferBytes([]byte{0b101})}, d.Buffers()[1:]...), d.Children(), 1, 0)
	m := array.MakeFromData(nd)
	nd.Release()
	defer m.Release()
	cols[0].bind(m.Data())
	cols[0].kids[0].bind(keys2.Column(0).Data())
	cols[0].markNotNullCheck()
	require.True(t, cols[0].check)
	w = encWalker{}
	enc.checkNotNull(&w, cols, 3)
	require.NoError(t, w.err)
}

// NOT NULL schemas without nulls in their NOT NULL values round trip
// exactly: random schemas with most fields NOT NULL, and NOT NULL list
// elements and map values, which RandomSchema does not make.
func TestRoundTripNotNull(t *testing.T) {
	mem := checkedMem(t)
	r := rand.New(rand.NewSource(7))
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	inner := arrow.StructOf(notNullField("a", i64), nullable("b", str), notNullField("c", listOfNotNull(str)))
	schemas := []*arrow.Schema{goldenSchema(
		nullable("l", listOfNotNull(i64)),
		notNullField("ls", listOfNotNull(inner)),
		nullable("m", mapOfNotNull(str, inner)),
		notNullField("ml", mapOfNotNull(i64, listOfNotNull(arrow.FixedWidthTypes.Boolean))),
		nullable("s", inner),
		notNullField("n", arrow.Null),
	)}
	for range 100 {
		schemas = append(schemas, testgen.RandomSchema(r, portableSchemas(testgen.WithNonNullable(0.7))...))
	}
	for i, schema := range schemas {
		rec := testgen.RandomBatch(mem, r, schema, 1+r.Intn(20))
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			for _, fl := range flavors {
				roundTrip(t, mem, fl, rec)
				if rec.NumRows() > 1 {
					part := rec.NewSlice(1, rec.NumRows())
					roundTrip(t, mem, fl, part)
					part.Release()
				}
			}
		})
		rec.Release()
	}
}
