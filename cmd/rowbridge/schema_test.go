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
	// Spark's JSON, in files as well as on the command line.
	const text = "id BIGINT NOT NULL COMMENT 'the key', `weird name` STRING COMMENT 'it\\'s \\\\ here', " +
		"at TIMESTAMP_NTZ, s STRUCT<x: INT NOT NULL COMMENT 'x'>"
	want, err := ddl.ParseDDL(text)
	require.NoError(t, err)
	require.False(t, want.Field(0).Nullable)
	path := filepath.Join(t.TempDir(), "schema.txt")
	for _, to := range []string{"ddl", "json"} {
		out := schemaCLI(t, nil, "--to", to, text)
		require.NoError(t, os.WriteFile(path, []byte(out+"\n"), 0o644))
		for _, args := range [][]string{{path}, {"@" + path}, {"--from", to, path}, {out}} {
			back := schemaCLI(t, nil, append([]string{"--to", "ddl"}, args...)...)
			got, err := ddl.ParseDDL(back)
			require.NoError(t, err, back)
			require.True(t, want.Equal(got), "%s: want %v\ngot  %v", to, want, got)
		}
	}
}

// schema --to catalog prints Spark's catalogString, which says neither NOT
// NULL nor comments, and notes on stderr what it dropped.
func TestSchemaToCatalogIsSparksCatalogString(t *testing.T) {
	out, stderr, code := cli(t, nil, "schema", "--to", "catalog",
		"id BIGINT NOT NULL COMMENT 'k', `a b` ARRAY<STRING>, m MAP<STRING, DECIMAL(10,2)>, s STRUCT<x: INT NOT NULL, t: TIMESTAMP_NTZ, v: VOID>")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "struct<id:bigint,`a b`:array<string>,m:map<string,decimal(10,2)>,s:struct<x:int,t:timestamp_ntz,v:void>>\n", string(out))
	require.Equal(t, "rowbridge schema: note: Spark's catalog strings say neither NOT NULL nor comments; dropped for id, s.x\n", stderr)
	_, stderr, code = cli(t, nil, "schema", "--to", "catalog", "a INT")
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr)
}

func TestSchemaToSparkJSON(t *testing.T) {
	// The JSON reads back, with nullability at every level.
	const nested = `{"type":"struct","fields":[{"name":"l","type":{"type":"array","elementType":"long","containsNull":false},"nullable":false,"metadata":{}},` +
		`{"name":"m","type":{"type":"map","keyType":"string","valueType":"double","valueContainsNull":false},"nullable":true,"metadata":{"comment":"c"}}]}`
	require.Equal(t, nested, schemaCLI(t, nil, "--to", "json", nested))
	require.Equal(t, nested, schemaCLI(t, []byte(nested), "--from", "json", "--to", "json", "-"))
	require.Equal(t, "l ARRAY<BIGINT> NOT NULL, m MAP<STRING, DOUBLE> COMMENT 'c'", schemaCLI(t, nil, nested))

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
	require.Equal(t, 2, code)
	require.Equal(t, "  a INT, b STRNG\n"+
		"           ^\n"+
		"rowbridge schema: bad schema: column 10: unknown type \"STRNG\" (see 'rowbridge schema -h')\n", stderr)

	// In a file the message names the file and the line, and the caret shows that line.
	path := filepath.Join(t.TempDir(), "bad.ddl")
	require.NoError(t, os.WriteFile(path, []byte("ROW(\n\ta BIGINT,\n\tb MAP(VARCHAR BIGINT)\n)\n"), 0o644))
	_, stderr, code = cli(t, nil, "schema", "--to", "catalog", path)
	require.Equal(t, 2, code)
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	require.Len(t, lines, 3, stderr)
	require.Equal(t, "  \tb MAP(VARCHAR BIGINT)", lines[0])
	require.Equal(t, "  \t"+strings.Repeat(" ", len("b MAP(VARCHAR "))+"^", lines[1])
	require.True(t, strings.HasPrefix(lines[2], "rowbridge schema: bad schema in "+path+": line 3, column 16: "), lines[2])

	// A forced notation that does not match is a syntax error too.
	_, stderr, code = cli(t, nil, "schema", "--from", "velox", "a INT")
	require.Equal(t, 2, code)
	require.Equal(t, "  a INT\n  ^\nrowbridge schema: bad schema: column 1: expected ROW(... (see 'rowbridge schema -h')\n", stderr)
}

func TestSchemaErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	timeFile := filepath.Join(dir, "time.arrow")
	require.NoError(t, os.WriteFile(timeFile, writeArrowFile(t,
		arrow.NewSchema([]arrow.Field{{Name: "t", Type: arrow.FixedWidthTypes.Time32s}}, nil), nil, mem), 0o644))
	text := filepath.Join(dir, "text.ddl")
	require.NoError(t, os.WriteFile(text, []byte("a INT"), 0o644))
	requireFailures(t, "schema", []cliFailure{
		{"no argument", nil, nil, 2, "rowbridge schema: want one schema, @FILE, FILE or - (stdin), got 0 arguments (see 'rowbridge schema -h')"},
		{"two arguments", nil, []string{"a INT", "b INT"}, 2, "rowbridge schema: want one schema, @FILE, FILE or - (stdin), got 2 arguments…"},
		{"unknown from", nil, []string{"--from", "avro", "a INT"}, 2, `rowbridge schema: unknown --from "avro" (want auto, ddl, catalog, velox, json, arrow or parquet) (see 'rowbridge schema -h')`},
		{"unknown to", nil, []string{"--to", "sql", "a INT"}, 2, `rowbridge schema: unknown --to "sql" (want ddl, catalog, velox, json or arrow) (see 'rowbridge schema -h')`},
		{"unknown flag", nil, []string{"--pretty", "a INT"}, 2, "rowbridge schema: flag provided but not defined: -pretty…"},
		{"missing @file", nil, []string{"@" + filepath.Join(dir, "absent.ddl")}, 2, "rowbridge schema: bad schema: open " + filepath.Join(dir, "absent.ddl") + ": no such file or directory (see 'rowbridge schema -h')"},
		{"missing arrow file", nil, []string{"--from", "arrow", filepath.Join(dir, "absent.arrow")}, 2, "rowbridge schema: bad schema: open …"},
		{"directory", nil, []string{"@" + dir}, 2, "rowbridge schema: bad schema in " + dir + ": it is a directory (see 'rowbridge schema -h')"},
		{"arrow from text", []byte("a INT"), []string{"--from", "arrow", "-"}, 2, `rowbridge schema: bad schema on stdin: it is not an Arrow IPC file or stream (no magic "ARROW1" or continuation marker at its start) (see 'rowbridge schema -h')`},
		{"arrow from text file", nil, []string{"--from", "arrow", text}, 2, "rowbridge schema: bad schema in " + text + `: it is not an Arrow IPC file or stream…`},
		{"parquet from text file", nil, []string{"--from", "parquet", text}, 2, "rowbridge schema: bad schema in " + text + `: it is not a Parquet file (no magic "PAR1" at its start) (see 'rowbridge schema -h')`},
		{"text from arrow file", nil, []string{"--from", "ddl", timeFile}, 2, "rowbridge schema: bad schema in " + timeFile + ": --from ddl wants schema text, and this is Arrow IPC data (see 'rowbridge schema -h')"},
		{"arrow from empty stdin", nil, []string{"--from", "arrow", "-"}, 2, `rowbridge schema: bad schema on stdin: it is not an Arrow IPC file or stream…`},
		{"unsupported arrow type", nil, []string{timeFile}, 2, "rowbridge schema: bad schema in " + timeFile + ": field t: arrow type time32[s] has no Spark type: unsupported type (see 'rowbridge schema -h')"},
		{"unsupported arrow type to json", nil, []string{"--to", "json", timeFile}, 2, "rowbridge schema: bad schema in " + timeFile + ": field t: arrow type time32[s] has no Spark type…"},
		{"empty", nil, []string{" "}, 2, "rowbridge schema: bad schema: it is empty (a schema of no columns is written struct<>) (see 'rowbridge schema -h')"},
	})
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
