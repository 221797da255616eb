package unsaferow

import (
	"errors"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
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
