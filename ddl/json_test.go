package ddl

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sparkJSON is what Spark 3.5's df.schema.json() prints for
// `id BIGINT NOT NULL COMMENT 'key', name STRING, price DECIMAL(10,2),
// tags ARRAY<STRING>, attrs MAP<STRING, INT>, at TIMESTAMP, ntz TIMESTAMP_NTZ,
// s STRUCT<b: TINYINT, sh: SMALLINT, f: FLOAT, d: DOUBLE, dt: DATE, bin: BINARY, ok: BOOLEAN, v: VOID>`.
const sparkJSON = `{"type":"struct","fields":[` +
	`{"name":"id","type":"long","nullable":false,"metadata":{"comment":"key"}},` +
	`{"name":"name","type":"string","nullable":true,"metadata":{}},` +
	`{"name":"price","type":"decimal(10,2)","nullable":true,"metadata":{}},` +
	`{"name":"tags","type":{"type":"array","elementType":"string","containsNull":true},"nullable":true,"metadata":{}},` +
	`{"name":"attrs","type":{"type":"map","keyType":"string","valueType":"integer","valueContainsNull":true},"nullable":true,"metadata":{}},` +
	`{"name":"at","type":"timestamp","nullable":true,"metadata":{}},` +
	`{"name":"ntz","type":"timestamp_ntz","nullable":true,"metadata":{}},` +
	`{"name":"s","type":{"type":"struct","fields":[` +
	`{"name":"b","type":"byte","nullable":true,"metadata":{}},` +
	`{"name":"sh","type":"short","nullable":true,"metadata":{}},` +
	`{"name":"f","type":"float","nullable":true,"metadata":{}},` +
	`{"name":"d","type":"double","nullable":true,"metadata":{}},` +
	`{"name":"dt","type":"date","nullable":true,"metadata":{}},` +
	`{"name":"bin","type":"binary","nullable":true,"metadata":{}},` +
	`{"name":"ok","type":"boolean","nullable":true,"metadata":{}},` +
	`{"name":"v","type":"void","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}}]}`

const sparkJSONDDL = "id BIGINT NOT NULL COMMENT 'key', name STRING, price DECIMAL(10,2), tags ARRAY<STRING>, " +
	"attrs MAP<STRING, INT>, at TIMESTAMP, ntz TIMESTAMP_NTZ, " +
	"s STRUCT<b: TINYINT, sh: SMALLINT, f: FLOAT, d: DOUBLE, dt: DATE, bin: BINARY, ok: BOOLEAN, v: VOID>"

func TestJSONMatchesSpark(t *testing.T) {
	want, err := ParseDDL(sparkJSONDDL)
	require.NoError(t, err)
	got, err := FormatJSON(want)
	require.NoError(t, err)
	assert.Equal(t, sparkJSON, got)

	for _, in := range []string{sparkJSON, "\n  " + sparkJSON + "\n"} {
		back, err := Parse(in)
		require.NoError(t, err)
		assertSchemaStrict(t, want, back)
		assert.Equal(t, NotationJSON, Detect(in))
	}
	back, err := ParseJSON(sparkJSON)
	require.NoError(t, err)
	assertSchemaStrict(t, want, back)
	text, err := Format(want, NotationJSON)
	require.NoError(t, err)
	assert.Equal(t, sparkJSON, text)
	typ, err := FormatType(MapOf(arrow.BinaryTypes.String, Decimal(38, 0)), NotationJSON)
	require.NoError(t, err)
	assert.Equal(t, `{"type":"map","keyType":"string","valueType":"decimal(38,0)","valueContainsNull":true}`, typ)
}

// Spark's prettyJson (Jackson's indentation, " : " between key and value)
// and what DataType.fromJson accepts beyond what Spark writes.
func TestParseJSONAcceptsWhatSparkAccepts(t *testing.T) {
	pretty := `{
  "type" : "struct",
  "fields" : [ {
    "name" : "a",
    "type" : {
      "type" : "array",
      "elementType" : "integer",
      "containsNull" : false
    },
    "nullable" : false,
    "metadata" : { }
  } ]
}`
	s, err := ParseJSON(pretty)
	require.NoError(t, err)
	assertSchemaStrict(t, arrow.NewSchema([]arrow.Field{{Name: "a",
		Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int32})}}, nil), s)

	cases := map[string]arrow.DataType{
		`"decimal"`:                   Decimal(10, 0),
		`"decimal( 5 , 3 )"`:          Decimal(5, 3),
		`"null"`:                      arrow.Null,
		`"timestamp_ltz"`:             Timestamp(),
		`"char(3)"`:                   arrow.BinaryTypes.String,
		`"varchar(10)"`:               arrow.BinaryTypes.String,
		`"string collate UTF8_LCASE"`: arrow.BinaryTypes.String,
		`{"type":"udt","class":"org.apache.spark.ml.linalg.VectorUDT","pyClass":"pyspark.ml.linalg.VectorUDT","sqlType":"double"}`:  arrow.PrimitiveTypes.Float64,
		`{"type":"udt","pyClass":"p.U","serializedClass":"x","sqlType":{"type":"array","elementType":"long","containsNull":false}}`: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int64}),
	}
	for in, want := range cases {
		s, err := ParseJSON(`{"type":"struct","fields":[{"name":"x","type":` + in + `,"nullable":true,"metadata":{}}]}`)
		require.NoError(t, err, in)
		assert.True(t, sameType(want, s.Field(0).Type), "%s: %s", in, s.Field(0).Type)
	}
	// "nullable" and "metadata" may be missing; other metadata is dropped.
	s, err = ParseJSON(`{"fields":[{"type":"integer","name":"a"},{"name":"b","type":"string","nullable":false},` +
		`{"name":"c","type":"string","nullable":true,"metadata":{"__CHAR_VARCHAR_TYPE_STRING":"varchar(3)","comment":"hi","n":[1,{"x":null}]}}],"type":"struct"}`)
	require.NoError(t, err)
	want, err := ParseDDL("a INT, b STRING NOT NULL, c STRING COMMENT 'hi'")
	require.NoError(t, err)
	assertSchemaStrict(t, want, s)
}

func TestParseJSONErrors(t *testing.T) {
	cases := []struct{ in, msg string }{
		{`{"type":"struct","fields":[{"name":"a","type":"int"}]}`, `ddl: column 47: unknown type "int"`},
		{`{"type":"struct","fields":[{"name":"a","type":"integer","nullable":"yes"}]}`, `ddl: column 68: "nullable" must be true or false, found a string`},
		{`{"type":"struct","fields":[{"name":"a","type":"integer","extra":1}]}`, `ddl: column 57: unexpected key "extra" in a struct field (Spark's keys: metadata, name, nullable, type)`},
		{`{"type":"struct","fields":[{"name":"a"}]}`, `ddl: column 28: a struct field needs the key "type"`},
		{`{"type":"struct","fields":[{"name":"a","type":{"type":"array","elementType":"long"}}]}`, `ddl: column 47: an array type needs the key "containsNull"`},
		{`{"type":"struct","fields":[{"name":"a","type":{"type":"list"}}]}`, `ddl: column 55: unknown type "list" (want "struct", "array", "map" or "udt")`},
		{`{"type":"struct","fields":[{"name":"a","type":"decimal(39,0)"}]}`, `ddl: column 47: decimal precision 39 is out of range [1, 38]`},
		{`{"type":"struct","fields":[{"name":"a","type":"decimal(5,-1)"}]}`, `ddl: column 47: decimal scale -1 is out of range [0, 5]`},
		{`{"type":"struct","fields":[{"name":"a","type":"interval day to second"}]}`, `ddl: column 47: Spark type "interval day to second" has no Arrow type in rowbridge`},
		{`{"type":"struct","fields":[{"name":"a","type":"variant"}]}`, `ddl: column 47: Spark type "variant" has no Arrow type in rowbridge`},
		{`{"type":"struct","fields":[{"name":"a","type":"integer"},{"name":"A","type":"long"}]}`, `ddl: column 66: duplicate field name "A": Spark ignores case in names, and "a" comes before it`},
		{`{"type":"struct","fields":[{"name":"s","type":{"type":"struct","fields":[{"name":"x","type":"long"},{"name":"x","type":"long"}]}}]}`, `ddl: column 109: duplicate field name "x"`},
		{`{"type":"struct","type":"struct","fields":[]}`, `ddl: column 18: duplicate key "type"`},
		{`{"type":"array","elementType":"long","containsNull":true}`, `ddl: column 1: a schema's JSON must be a struct: {"type":"struct","fields":[...]}`},
		{`{"type":"struct","fields":[]} x`, `ddl: column 31: unexpected text after the end of the JSON schema`},
		{`{"type":"struct","fields":[}`, `ddl: column 28: invalid JSON: invalid character '}' looking for beginning of value`},
		{`{"type":"struct","fields":[`, `ddl: column 28: the JSON ends too early`},
		{"{\"type\":\"struct\",\"fields\":[{\"name\":\"\xff\",\"type\":\"long\"}]}", `ddl: column 37: invalid UTF-8`},
		{`{"type":"struct","fields":{}}`, `ddl: column 27: "fields" must be an array, found an object`},
		{`{"type":"struct","fields":[{"name":1,"type":"long"}]}`, `ddl: column 36: a field's "name" must be a string, found a number`},
		{`{"type":"struct","fields":[{"name":"a","type":"long","metadata":{"comment":3}}]}`, `ddl: column 76: a field's comment must be a string, found a number`},
	}
	for _, tc := range cases {
		_, err := Parse(tc.in)
		require.Error(t, err, tc.in)
		var se *SyntaxError
		require.True(t, errors.As(err, &se), "%T", err)
		assert.Equal(t, tc.msg, err.Error(), tc.in)
		assert.NotPanics(t, func() { _ = se.Caret() })
	}
	// Nesting is bounded before the stack is.
	deep := strings.Repeat(`{"type":"array","elementType":`, 100) + `"long"` + strings.Repeat(`,"containsNull":true}`, 100)
	_, err := ParseJSON(`{"type":"struct","fields":[{"name":"a","type":` + deep + `}]}`)
	require.ErrorContains(t, err, "nested deeper than 64 levels")
	_, err = ParseJSON(strings.Repeat("[", 100000))
	require.ErrorContains(t, err, "JSON nested deeper than")
}

// Spark rejects names that repeat, ignoring case, in a struct at any level;
// so does every notation, pointing at the second one.
func TestDuplicateNames(t *testing.T) {
	cases := []struct{ in, msg string }{
		{"a INT, b INT, A STRING", `ddl: column 15: duplicate field name "A": Spark ignores case in names, and "a" comes before it`},
		{"a INT, a INT", `ddl: column 8: duplicate field name "a"`},
		{"s STRUCT<x: INT, X: INT>", `ddl: column 18: duplicate field name "X": Spark ignores case in names, and "x" comes before it`},
		{"m MAP<INT, ARRAY<STRUCT<`q`: INT, `Q`: INT>>>", `ddl: column 35: duplicate field name "Q": Spark ignores case in names, and "q" comes before it`},
		{"struct<a:int,b:int,a:int>", `ddl: column 20: duplicate field name "a"`},
		{"ROW(a BIGINT, A VARCHAR)", `ddl: column 15: duplicate field name "A": Spark ignores case in names, and "a" comes before it`},
		{"ROW(BIGINT, c0 VARCHAR)", `ddl: column 13: duplicate field name "c0"`},
		{"`Ä` INT, `ä` INT", `ddl: column 10: duplicate field name "ä": Spark ignores case in names, and "Ä" comes before it`},
	}
	for _, tc := range cases {
		_, err := Parse(tc.in)
		require.Error(t, err, tc.in)
		assert.Equal(t, tc.msg, err.Error(), tc.in)
	}
	// The same names in different structs are fine.
	_, err := Parse("a INT, s STRUCT<a: INT, t: STRUCT<a: INT>>, l ARRAY<STRUCT<a: INT>>")
	require.NoError(t, err)
}
