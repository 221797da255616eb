package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/stretchr/testify/require"
)

// schemaCommands runs each command that takes a schema with it: decode and
// inspect by --schema, schema by its argument.
var schemaCommands = []struct {
	name string
	args func(schema string) []string
}{
	{"decode", func(s string) []string {
		return []string{"decode", "--format", "unsaferow", "--to", "jsonl", "--schema", s}
	}},
	{"inspect", func(s string) []string { return []string{"inspect", "--format", "unsaferow", "--schema", s} }},
	{"schema", func(s string) []string { return []string{"schema", s} }},
}

// The same bad schema fails every command the same way: exit code 2, the
// same message after the command's name (and the same caret above it for
// a syntax error), nothing on stdout.
func TestBadSchemaIsTheSameFromEveryCommand(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	badDDL := write("bad.ddl", []byte("a INT,\nb STRNG\n"))
	dupJSON := write("dup.json", []byte(`{"type":"struct","fields":[{"name":"a","type":"long"},{"name":"A","type":"long"}]}`))
	timeArrow := write("time.arrow", writeArrowStream(t, arrow.NewSchema([]arrow.Field{{Name: "t", Type: arrow.FixedWidthTypes.Time64us}}, nil), nil, mem))
	truncParquet := write("trunc.parquet", []byte("PAR1\x00\x01\x02\x03"))
	empty := write("empty.ddl", nil)
	cases := []struct {
		name, schema string
		caret        string // the lines above the message, if any
		msg          string // after "rowbridge CMD: "
	}{
		{"syntax", "a INT, b STRNG", "  a INT, b STRNG\n           ^\n", `bad schema: column 10: unknown type "STRNG"`},
		{"duplicate", "id BIGINT, ID STRING", "  id BIGINT, ID STRING\n             ^\n", `bad schema: column 12: duplicate field name "ID": Spark ignores case in names, and "id" comes before it`},
		{"json", `{"type":"struct","fields":[{"name":"a","type":"int"}]}`, "  {\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}\n" + "  " + strings.Repeat(" ", 46) + "^\n", `bad schema: column 47: unknown type "int"`},
		{"blank", " \t", "", "bad schema: it is empty (a schema of no columns is written struct<>)"},
		{"file syntax", "@" + badDDL, "  b STRNG\n    ^\n", "bad schema in " + badDDL + `: line 2, column 3: unknown type "STRNG"`},
		{"file duplicate", "@" + dupJSON, "", ""},
		{"empty file", "@" + empty, "", "bad schema in " + empty + ": the file is empty (a schema of no columns is written struct<>)"},
		{"missing file", "@" + filepath.Join(dir, "absent"), "", "bad schema: open " + filepath.Join(dir, "absent") + ": no such file or directory"},
		{"arrow type", "@" + timeArrow, "", "bad schema in " + timeArrow + ": field t: arrow type time64[us] has no Spark type: unsupported type"},
		{"parquet", "@" + truncParquet, "", "bad schema in " + truncParquet + ": reading Parquet footer: 8 bytes are too few for a Parquet file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var first string
			for _, c := range schemaCommands {
				out, stderr, code := cli(t, sampleRows, c.args(tc.schema)...)
				require.Equal(t, exitUsage, code, "%s: %s", c.name, stderr)
				require.Empty(t, out, c.name)
				prefix := "rowbridge " + c.name + ": "
				suffix := " (see 'rowbridge " + c.name + " -h')\n"
				caret, line, ok := strings.Cut(stderr, prefix)
				require.True(t, ok, stderr)
				require.True(t, strings.HasSuffix(line, suffix), stderr)
				line = strings.TrimSuffix(line, suffix)
				require.NotContains(t, line, "\n")
				if tc.msg != "" {
					require.Equal(t, tc.caret, caret, c.name)
					require.Equal(t, tc.msg, line, c.name)
				}
				if first == "" {
					first = caret + line
				}
				require.Equal(t, first, caret+line, "%s says what decode says", c.name)
			}
			t.Log(first)
		})
	}
}

// A schema given as @FILE, or to the schema command as FILE, may be an
// Arrow IPC file or stream or a Parquet file (with or without the Arrow
// schema an Arrow writer stores): told apart by magic, not by name, and
// taken as the row schema of its data.
func TestSchemaFromDataFiles(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	sampleDDL := strings.TrimSpace(sampleDDL)
	want, err := ddl.ParseDDL(sampleDDL)
	require.NoError(t, err)
	dir := t.TempDir()
	files := map[string][]byte{
		"file.bin":          writeArrowFile(t, want, nil, mem),
		"stream.data":       writeArrowStream(t, want, nil, mem),
		"plain.x":           writeParquet(t, want, false),
		"stored-schema.pq":  writeParquet(t, want, true),
		"spark.schema.json": []byte(schemaCLI(t, nil, "--to", "json", sampleDDL)),
	}
	wantRows, stderr, code := cli(t, sampleRows, "decode", "--format", "unsaferow", "--to", "jsonl", "--schema", sampleDDL)
	require.Equal(t, 0, code, stderr)
	require.NotEmpty(t, wantRows)
	for name, data := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, data, 0o644))
		t.Run(name, func(t *testing.T) {
			require.Equal(t, sampleDDL, schemaCLI(t, nil, path))
			require.Equal(t, sampleDDL, schemaCLI(t, nil, "@"+path))
			rows, stderr, code := cli(t, sampleRows, "decode", "--format", "unsaferow", "--to", "jsonl", "--schema", "@"+path)
			require.Equal(t, 0, code, stderr)
			require.Equal(t, string(wantRows), string(rows))
			out, stderr, code := cli(t, sampleRows, "inspect", "--format", "unsaferow", "--schema", "@"+path)
			require.Equal(t, 0, code, stderr)
			require.Contains(t, string(out), "id BIGINT NOT NULL")
		})
	}
	// Arrow IPC from stdin; a Parquet file must be named.
	require.Equal(t, sampleDDL, schemaCLI(t, files["stream.data"], "-"))
	require.Equal(t, sampleDDL, schemaCLI(t, files["file.bin"], "--from", "arrow", "-"))
	_, stderr, code = cli(t, files["plain.x"], "schema", "-")
	require.Equal(t, exitUsage, code)
	require.Equal(t, "rowbridge schema: bad schema on stdin: a Parquet file's schema is in its footer, at the end: name the file instead of piping it (see 'rowbridge schema -h')\n", stderr)

	// Producer types read as Spark reads them.
	producer := arrow.NewSchema([]arrow.Field{
		{Name: "u", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.LargeString, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "d", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}, Nullable: true},
	}, nil)
	for name, data := range map[string][]byte{"p.arrow": writeArrowStream(t, producer, nil, mem), "p.parquet": writeParquet(t, producer, true)} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, data, 0o644))
		require.Equal(t, "u INT, s STRING, ts TIMESTAMP, d STRING", schemaCLI(t, nil, path), name)
	}
}

func writeParquet(t *testing.T, s *arrow.Schema, storeSchema bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	var opts []pqarrow.WriterOption
	if storeSchema {
		opts = append(opts, pqarrow.WithStoreSchema())
	}
	w, err := pqarrow.NewFileWriter(s, &buf, parquet.NewWriterProperties(), pqarrow.NewArrowWriterProperties(opts...))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// Corrupt Parquet footers fail with one line and exit code 2, allocating
// nothing by their lengths.
func TestCorruptParquetSchema(t *testing.T) {
	want, err := ddl.ParseDDL(sampleDDL)
	require.NoError(t, err)
	valid := writeParquet(t, want, true)
	footerLen := binary.LittleEndian.Uint32(valid[len(valid)-8:])
	footer := valid[len(valid)-8-int(footerLen) : len(valid)-8]

	withLen := func(n uint32) []byte {
		b := bytes.Clone(valid)
		binary.LittleEndian.PutUint32(b[len(b)-8:], n)
		return b
	}
	garbage := bytes.Clone(valid)
	for i := len(garbage) - 8 - int(footerLen); i < len(garbage)-8; i++ {
		garbage[i] = 0xff
	}
	// The stored Arrow schema, corrupted: its flatbuffer's root offset points far away.
	badArrow := bytes.Clone(valid)
	stored := mustStoredSchema(t, footer)
	decoded, err := base64.StdEncoding.DecodeString(stored)
	require.NoError(t, err)
	binary.LittleEndian.PutUint32(decoded[8:], 0x7fff0000)
	corrupt := base64.StdEncoding.EncodeToString(decoded)
	require.Len(t, corrupt, len(stored))
	i := bytes.Index(badArrow, []byte(stored))
	copy(badArrow[i:], corrupt)
	encrypted := bytes.Clone(valid)
	copy(encrypted[len(encrypted)-4:], "PARE")

	dir := t.TempDir()
	cases := []struct{ name, msg string }{
		{"huge length", "reading Parquet footer: footer length 4294967295 does not fit in the " + itoa(int64(len(valid))) + "-byte file"},
		{"zero length", "reading Parquet footer: footer length 0 does not fit in the " + itoa(int64(len(valid))) + "-byte file"},
		{"garbage", "reading Parquet footer: …"},
		{"bad arrow", "reading Parquet footer: the ARROW:schema metadata: reading Arrow IPC schema: malformed input at byte…"},
		{"encrypted", "reading Parquet footer: the footer is encrypted; rowbridge reads plaintext footers"},
	}
	data := map[string][]byte{"huge length": withLen(0xffffffff), "zero length": withLen(0), "garbage": garbage, "bad arrow": badArrow, "encrypted": encrypted}
	for _, tc := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".parquet")
		require.NoError(t, os.WriteFile(path, data[tc.name], 0o644))
		requireFailures(t, "schema", []cliFailure{{tc.name, nil, []string{path}, 2, "rowbridge schema: bad schema in " + path + ": " + strings.TrimSuffix(tc.msg, "…") + map[bool]string{true: "…", false: " (see 'rowbridge schema -h')"}[strings.HasSuffix(tc.msg, "…")]}})
	}
}

// mustStoredSchema finds the base64 ARROW:schema value in a footer.
func mustStoredSchema(t *testing.T, footer []byte) string {
	t.Helper()
	i := bytes.Index(footer, []byte("ARROW:schema"))
	require.Positive(t, i)
	rest := footer[i+len("ARROW:schema"):]
	// Thrift compact: a field header byte, a varint length, the string.
	rest = rest[1:]
	n, k := binary.Uvarint(rest)
	require.Positive(t, k)
	return string(rest[k : k+int(n)])
}
