package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/stretchr/testify/require"
)

// everyNotationDDL says only what all notations can: every field nullable,
// no comments, zoned timestamps.
const everyNotationDDL = "b BOOLEAN, i8 TINYINT, i16 SMALLINT, i32 INT, i64 BIGINT, f FLOAT, d DOUBLE, " +
	"day DATE, ts TIMESTAMP, dec DECIMAL(38,10), s STRING, bin BINARY, v VOID, " +
	"tags ARRAY<STRING>, m MAP<STRING, ARRAY<INT>>, " +
	"st STRUCT<`a b`: BIGINT, inner: STRUCT<x: DOUBLE>, maps: ARRAY<MAP<INT, STRING>>>"

// schemaCLI runs 'rowbridge schema' and returns stdout without its newline.
func schemaCLI(t *testing.T, stdin []byte, args ...string) string {
	t.Helper()
	out, stderr, code := cli(t, stdin, append([]string{"schema"}, args...)...)
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr)
	text, ok := strings.CutSuffix(string(out), "\n")
	require.True(t, ok, "output ends in a newline: %q", out)
	require.NotContains(t, text, "\n")
	return text
}

func TestSchemaRoundTripsAmongNotations(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want, err := ddl.ParseDDL(everyNotationDDL)
	require.NoError(t, err)
	dir := t.TempDir()
	arrowFile := filepath.Join(dir, "schema.arrow")
	arrowStream := filepath.Join(dir, "schema.arrows")
	require.NoError(t, os.WriteFile(arrowFile, writeArrowFile(t, want, nil, mem), 0o644))
	require.NoError(t, os.WriteFile(arrowStream, writeArrowStream(t, want, nil, mem), 0o644))

	// Each notation's text of the schema, as the CLI itself writes it.
	texts := map[string]string{}
	for _, to := range []string{"ddl", "catalog", "velox"} {
		texts[to] = schemaCLI(t, nil, "--to", to, everyNotationDDL)
		got, err := ddl.Parse(texts[to])
		require.NoError(t, err, texts[to])
		require.True(t, want.Equal(got), "%s:\nwant %v\ngot  %v", to, want, got)
	}
	require.True(t, strings.HasPrefix(texts["catalog"], "struct<b:boolean,i8:tinyint,"), texts["catalog"])
	require.True(t, strings.HasPrefix(texts["velox"], "ROW(b BOOLEAN, i8 TINYINT, i16 SMALLINT, i32 INTEGER,"), texts["velox"])
	require.Equal(t, everyNotationDDL, texts["ddl"])

	type input struct {
		name  string
		stdin []byte
		args  []string
	}
	var inputs []input
	for from, text := range texts {
		inputs = append(inputs,
			input{from + " auto", nil, []string{text}},
			input{from + " explicit", nil, []string{"--from", from, text}},
			input{from + " stdin", []byte(text), []string{"-"}})
	}
	streamBytes, err := os.ReadFile(arrowStream)
	require.NoError(t, err)
	inputs = append(inputs,
		input{"arrow file", nil, []string{"--from", "arrow", arrowFile}},
		input{"arrow file auto", nil, []string{arrowFile}},
		input{"arrow stream", nil, []string{"--from=arrow", arrowStream}},
		input{"arrow stream auto", nil, []string{"@" + arrowStream}},
		input{"arrow stream stdin", streamBytes, []string{"-"}})
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			for to, text := range texts {
				require.Equal(t, text, schemaCLI(t, in.stdin, append([]string{"--to", to}, in.args...)...), "to %s", to)
			}
			// --to arrow is the one multi-line output.
			require.Equal(t, want.String(), mustCLI(t, in.stdin, append([]string{"--to", "arrow"}, in.args...)...), "to arrow")
		})
	}
}

// mustCLI runs 'rowbridge schema' and returns stdout without its last newline.
func mustCLI(t *testing.T, stdin []byte, args ...string) string {
	t.Helper()
	out, stderr, code := cli(t, stdin, append([]string{"schema"}, args...)...)
	require.Equal(t, 0, code, stderr)
	return strings.TrimSuffix(string(out), "\n")
}

func TestSchemaKeepsWhatSparkNotationsSay(t *testing.T) {
	// NOT NULL, comments, NTZ timestamps and odd names survive DDL and
	// catalog strings, in files as well as on the command line.
	const text = "id BIGINT NOT NULL COMMENT 'the key', `weird name` STRING COMMENT 'it\\'s \\\\ here', " +
		"at TIMESTAMP_NTZ, s STRUCT<x: INT NOT NULL COMMENT 'x'>"
	want, err := ddl.ParseDDL(text)
	require.NoError(t, err)
	require.False(t, want.Field(0).Nullable)
	catalog := schemaCLI(t, nil, "--to", "catalog", text)
	require.Equal(t, "struct<id:bigint not null comment 'the key',`weird name`:string comment 'it\\'s \\\\ here',"+
		"at:timestamp_ntz,s:struct<x:int not null comment 'x'>>", catalog)
	path := filepath.Join(t.TempDir(), "schema.txt")
	require.NoError(t, os.WriteFile(path, []byte(catalog+"\n"), 0o644))
	for _, args := range [][]string{{path}, {"@" + path}, {"--from", "catalog", path}} {
		back := schemaCLI(t, nil, append([]string{"--to", "ddl"}, args...)...)
		got, err := ddl.ParseDDL(back)
		require.NoError(t, err, back)
		require.True(t, want.Equal(got), "want %v\ngot  %v", want, got)
	}
}

func TestSchemaToSparkJSON(t *testing.T) {
	got := schemaCLI(t, nil, "--to", "json", sampleDDL)
	require.Equal(t, `{"type":"struct","fields":[`+
		`{"name":"id","type":"long","nullable":false,"metadata":{}},`+
		`{"name":"name","type":"string","nullable":true,"metadata":{}},`+
		`{"name":"price","type":"decimal(10,2)","nullable":true,"metadata":{}},`+
		`{"name":"tags","type":{"type":"array","elementType":"string","containsNull":true},"nullable":true,"metadata":{}},`+
		`{"name":"attrs","type":{"type":"map","keyType":"string","valueType":"integer","valueContainsNull":true},"nullable":true,"metadata":{}},`+
		`{"name":"seen","type":"timestamp","nullable":true,"metadata":{}},`+
		`{"name":"active","type":"boolean","nullable":true,"metadata":{}}]}`, got)

	got = schemaCLI(t, nil, "--to", "json", "ROW(a TINYINT, b SMALLINT, c REAL, d DATE, e VARBINARY, f UNKNOWN, g ROW(\"q\"\"\" INTEGER))")
	var doc struct {
		Fields []struct {
			Name     string
			Type     any
			Nullable bool
			Metadata map[string]string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(got), &doc), got)
	var types []any
	for _, f := range doc.Fields {
		types = append(types, f.Type)
		require.True(t, f.Nullable)
	}
	require.Equal(t, []any{"byte", "short", "float", "date", "binary", "void", map[string]any{
		"type": "struct", "fields": []any{map[string]any{"name": `q"`, "type": "integer", "nullable": true, "metadata": map[string]any{}}},
	}}, types)

	got = schemaCLI(t, nil, "--to", "json", "a ARRAY<INT> COMMENT 'say \"hi\"'")
	require.Equal(t, `{"type":"struct","fields":[{"name":"a","type":{"type":"array","elementType":"integer","containsNull":true},"nullable":true,"metadata":{"comment":"say \"hi\""}}]}`, got)
}

func TestSchemaSyntaxErrorShowsCaret(t *testing.T) {
	_, stderr, code := cli(t, nil, "schema", "a INT, b STRNG")
	require.Equal(t, 1, code)
	require.Equal(t, "  a INT, b STRNG\n"+
		"           ^\n"+
		"rowbridge schema: ddl: column 10: unknown type \"STRNG\"\n", stderr)

	// In a file the message names the line, and the caret shows that line.
	path := filepath.Join(t.TempDir(), "bad.ddl")
	require.NoError(t, os.WriteFile(path, []byte("ROW(\n\ta BIGINT,\n\tb MAP(VARCHAR BIGINT)\n)\n"), 0o644))
	_, stderr, code = cli(t, nil, "schema", "--to", "catalog", path)
	require.Equal(t, 1, code)
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	require.Len(t, lines, 3, stderr)
	require.Equal(t, "  \tb MAP(VARCHAR BIGINT)", lines[0])
	require.Equal(t, "  \t"+strings.Repeat(" ", len("b MAP(VARCHAR "))+"^", lines[1])
	require.True(t, strings.HasPrefix(lines[2], "rowbridge schema: ddl: line 3, column 16: "), lines[2])

	// A forced notation that does not match is a syntax error too.
	_, stderr, code = cli(t, nil, "schema", "--from", "velox", "a INT")
	require.Equal(t, 1, code)
	require.Equal(t, "  a INT\n  ^\nrowbridge schema: ddl: column 1: expected ROW(...\n", stderr)
}

func TestSchemaErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	unsigned := filepath.Join(dir, "unsigned.arrow")
	require.NoError(t, os.WriteFile(unsigned, writeArrowFile(t,
		arrow.NewSchema([]arrow.Field{{Name: "u", Type: arrow.PrimitiveTypes.Uint32}}, nil), nil, mem), 0o644))
	requireFailures(t, "schema", []cliFailure{
		{"no argument", nil, nil, 2, "rowbridge schema: want one schema, @FILE, FILE or - (stdin), got 0 arguments (see 'rowbridge schema -h')"},
		{"two arguments", nil, []string{"a INT", "b INT"}, 2, "rowbridge schema: want one schema, @FILE, FILE or - (stdin), got 2 arguments…"},
		{"unknown from", nil, []string{"--from", "avro", "a INT"}, 2, `rowbridge schema: unknown --from "avro" (want auto, ddl, catalog, velox or arrow) (see 'rowbridge schema -h')`},
		{"unknown to", nil, []string{"--to", "sql", "a INT"}, 2, `rowbridge schema: unknown --to "sql" (want ddl, catalog, velox, arrow or json) (see 'rowbridge schema -h')`},
		{"unknown flag", nil, []string{"--pretty", "a INT"}, 2, "rowbridge schema: flag provided but not defined: -pretty…"},
		{"missing @file", nil, []string{"@" + filepath.Join(dir, "absent.ddl")}, 1, "rowbridge schema: open …"},
		{"missing arrow file", nil, []string{"--from", "arrow", filepath.Join(dir, "absent.arrow")}, 1, "rowbridge schema: open …"},
		{"arrow from text", []byte("a INT"), []string{"--from", "arrow", "-"}, 1, "rowbridge schema: reading Arrow IPC stream: …"},
		{"unsupported arrow type", nil, []string{unsigned}, 1, "rowbridge schema: ddl: arrow type uint32: unsupported type"},
		{"unsupported arrow type to json", nil, []string{"--to", "json", unsigned}, 1, "rowbridge schema: ddl: arrow type uint32: unsupported type"},
	})
	// Arrow's own notation shows what Spark's cannot.
	require.Equal(t, "schema:\n  fields: 1\n    - u: type=uint32", mustCLI(t, nil, "--to", "arrow", unsigned))
}

// Velox type strings have no NOT NULL: the conversion says what it drops,
// on stderr, and still succeeds; a schema without NOT NULL says nothing.
func TestSchemaToVeloxNotesDroppedNotNull(t *testing.T) {
	out, stderr, code := cli(t, nil, "schema", "--to", "velox", "id BIGINT NOT NULL, s STRUCT<a: INT NOT NULL, b: INT>, l ARRAY<INT>")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "ROW(id BIGINT, s ROW(a INTEGER, b INTEGER), l ARRAY(INTEGER))\n", string(out))
	require.Equal(t, "rowbridge schema: note: Velox type strings cannot say NOT NULL; dropped for id, s.a\n", stderr)

	_, stderr, code = cli(t, nil, "schema", "--to", "velox", "id BIGINT, s STRUCT<a: INT>")
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr)
	_, stderr, code = cli(t, nil, "schema", "--to", "ddl", "id BIGINT NOT NULL")
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr, "DDL keeps NOT NULL")
}
