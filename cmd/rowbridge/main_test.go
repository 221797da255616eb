package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/ipcverify"
	"github.com/stretchr/testify/require"
)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testdataSample, name))
	require.NoError(t, err)
	return b
}

// wideSchema has more fields than the sample rows have bytes.
var wideSchema = func() string {
	var fields []string
	for i := range 40 {
		fields = append(fields, fmt.Sprintf("f%d BIGINT", i))
	}
	return strings.Join(fields, ", ")
}()

var sampleSchemaFlag = "--schema=@" + filepath.Join(testdataSample, "schema.ddl")

func TestDemo(t *testing.T) {
	out, stderr, code := cli(t, nil, "demo")
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr)
	text := string(out)
	for _, want := range []string{
		"Schema: id BIGINT NOT NULL, name STRING, price DECIMAL(10,2), tags ARRAY<STRING>, attrs MAP<STRING, INT>, seen TIMESTAMP, active BOOLEAN",
		"5 rows in 764 bytes",
		"| id | name       | price | tags         | attrs                        | seen                        | active |",
		"|  2 | cappuccino |  3.75 | [hot, milk]  | {shots -> 2, milk_ml -> 150} | 2024-03-01T08:20:30.5Z      | true   |",
		"|  3 | NULL       |  0.99 | []           | NULL                         | NULL                        | false  |",
		"|  5 | matcha     |  NULL | NULL         | {}                           | 2024-03-03T09:45:12.123456Z | true   |",
	} {
		require.Contains(t, text, want)
	}
	_, stderr, code = cli(t, nil, "demo", "extra")
	require.Equal(t, 2, code)
	require.Equal(t, "rowbridge demo: demo takes no arguments (see 'rowbridge demo -h')\n", stderr)
}

func TestDecodeEncodeRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name   string
		input  []byte
		layout []string
	}{
		{"unsaferow spark", sampleRows, []string{"--format", "unsaferow"}},
		{"compactrow velox lz4", readTestdata(t, "compactrow-velox-lz4.bin"), []string{"--format=compactrow", "--framing=velox", "--codec=lz4"}},
	} {
		for _, to := range []string{"arrow-stream", "arrow-file"} {
			t.Run(tc.name+"/"+to, func(t *testing.T) {
				arrowBytes, stderr, code := cli(t, tc.input, append([]string{"decode", sampleSchemaFlag, "--to", to}, tc.layout...)...)
				require.Equal(t, 0, code, stderr)
				if to == "arrow-file" {
					require.True(t, bytes.HasPrefix(arrowBytes, ipcverify.FileMagic))
				}
				rows, stderr, code := cli(t, arrowBytes, append([]string{"encode"}, tc.layout...)...)
				require.Equal(t, 0, code, stderr)
				require.Equal(t, tc.input, rows, "decode then encode gives the same bytes")
			})
		}
	}
}

func TestDecodeFilesAndInterspersedFlags(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(testdataSample, "unsaferow-spark.bin")
	arrowPath := filepath.Join(dir, "rows.arrow")
	rowsPath := filepath.Join(dir, "rows.bin")
	_, stderr, code := cli(t, nil, "decode", in, "--format", "unsaferow", sampleSchemaFlag, "--to", "arrow-file", "-o", arrowPath)
	require.Equal(t, 0, code, stderr)
	_, stderr, code = cli(t, nil, "encode", "-o", rowsPath, "--format", "unsaferow", "--flavor", "spark", "--", arrowPath)
	require.Equal(t, 0, code, stderr)
	got, err := os.ReadFile(rowsPath)
	require.NoError(t, err)
	require.Equal(t, sampleRows, got)
}

func TestDecodeOutputsAreReadable(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema, want := sampleRecord(t, mem)
	defer want.Release()
	decode := func(to string, extra ...string) []byte {
		out, stderr, code := cli(t, sampleRows, append([]string{"decode", "--format=unsaferow", sampleSchemaFlag, "--to", to}, extra...)...)
		require.Equal(t, 0, code, stderr)
		return out
	}

	// A stream in batches of 2 rows.
	sr, err := ipc.NewReader(bytes.NewReader(decode("arrow-stream", "--batch-rows", "2")), ipc.WithAllocator(mem))
	require.NoError(t, err)
	var start int64
	for sr.Next() {
		rec := sr.RecordBatch()
		require.LessOrEqual(t, rec.NumRows(), int64(2))
		slice := want.NewSlice(start, start+rec.NumRows())
		requireRecordEqual(t, slice, rec)
		slice.Release()
		start += rec.NumRows()
	}
	require.NoError(t, sr.Err())
	sr.Release()
	require.Equal(t, want.NumRows(), start)

	fr, err := ipc.NewFileReader(bytes.NewReader(decode("arrow-file")), ipc.WithAllocator(mem))
	require.NoError(t, err)
	require.Equal(t, 1, fr.NumRecords())
	rec, err := fr.RecordBatch(0)
	require.NoError(t, err)
	requireRecordEqual(t, want, rec)
	require.NoError(t, fr.Close())

	jsonl := decode("jsonl")
	require.Equal(t, readTestdata(t, "sample.jsonl"), jsonl)
	require.Equal(t, `{"id":3,"name":null,"price":0.99,"tags":[],"attrs":null,"seen":null,"active":false}`,
		strings.Split(string(jsonl), "\n")[2])
	jr := array.NewJSONReader(bytes.NewReader(jsonl), schema, array.WithAllocator(mem), array.WithChunk(-1))
	defer jr.Release()
	require.True(t, jr.Next(), "%v", jr.Err())
	requireRecordEqual(t, want, jr.RecordBatch())
}

func TestErrors(t *testing.T) {
	truncated := sampleRows[:len(sampleRows)-10]
	notArrow := []byte("this is not arrow data at all")
	dir := t.TempDir()
	for _, tc := range []cliFailure{
		{"no command", nil, nil, 2, ""},
		{"unknown command", nil, []string{"frobnicate"}, 2, `rowbridge: unknown command "frobnicate" (run 'rowbridge help')`},
		{"no format", nil, []string{"decode", "--schema", "a INT"}, 2, "rowbridge decode: --format is required (unsaferow or compactrow) (see 'rowbridge decode -h')"},
		{"bad format", nil, []string{"decode", "--format", "parquet", "--schema", "a INT"}, 2, `rowbridge decode: unknown --format "parquet" (want unsaferow or compactrow) (see 'rowbridge decode -h')`},
		{"no schema", nil, []string{"decode", "--format", "unsaferow"}, 2, "rowbridge decode: --schema is required…"},
		// A bad schema's text: TestBadSchemaIsTheSameFromEveryCommand.
		{"missing schema file", nil, []string{"decode", "--format", "unsaferow", "--schema", "@" + filepath.Join(dir, "nope.ddl")}, 2, "rowbridge decode: bad schema: open …"},
		{"bad to", nil, []string{"decode", "--format", "unsaferow", "--schema", "a INT", "--to", "csv"}, 2, `rowbridge decode: unknown --to "csv"…`},
		{"bad batch rows", nil, []string{"decode", "--format", "unsaferow", "--schema", "a INT", "--batch-rows", "0"}, 2, "rowbridge decode: --batch-rows 0: want at least 1…"},
		{"codec without velox", nil, []string{"decode", "--format", "unsaferow", "--schema", "a INT", "--codec", "zlib"}, 2, "rowbridge decode: --codec zlib needs --framing velox (Spark's codecs are lz4, snappy, zstd and lzf)…"},
		{"bad codec", nil, []string{"decode", "--format", "unsaferow", "--schema", "a INT", "--framing", "velox", "--codec", "brotli"}, 2, `rowbridge decode: --codec: unknown codec "brotli"…`},
		{"unknown flag", nil, []string{"decode", "--colour"}, 2, "rowbridge decode: flag provided but not defined: -colour (see 'rowbridge decode -h')"},
		{"stdin twice", nil, []string{"decode", "--format", "unsaferow", "--schema", "a INT", "-", "x", "-"}, 2, `rowbridge decode: stdin (-) is named 2 times among the inputs; it can be read once…`},
		{"missing input", nil, []string{"decode", "--format", "unsaferow", "--schema", "a INT", filepath.Join(dir, "absent.bin")}, 1, "rowbridge decode: open …"},
		{"truncated", truncated, []string{"decode", "--format", "unsaferow", sampleSchemaFlag}, 1, "rowbridge decode: framing: stream byte 664, after 4 rows read: row of 96 bytes has only 86: truncated input"},
		{"wrong schema", sampleRows, []string{"decode", "--format", "unsaferow", "--schema", wideSchema}, 1, "rowbridge decode: row 0…"},
		{"velox header misread", sampleRows, []string{"decode", "--format", "unsaferow", sampleSchemaFlag, "--framing", "velox"}, 1, "rowbridge decode: framing: stream byte 0, row group 0, after 0 rows read: …"},
		{"encode not arrow", notArrow, []string{"encode", "--format", "unsaferow"}, 2, "rowbridge encode: stdin is not Arrow IPC, Parquet or anything else rowbridge recognises (it starts 74 68 69 73 …"},
		{"encode empty", nil, []string{"encode", "--format", "unsaferow"}, 2, "rowbridge encode: stdin " + kindLines[kindEmpty]},
		{"encode flavor for compactrow", nil, []string{"encode", "--format", "compactrow", "--flavor", "velox"}, 2, "rowbridge encode: --flavor applies to --format unsaferow only (see 'rowbridge encode -h')"},
		{"encode bad flavor", nil, []string{"encode", "--format", "unsaferow", "--flavor", "bolt"}, 2, `rowbridge encode: --flavor: unknown flavor "bolt"…`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := cli(t, tc.stdin, tc.args...)
			require.Equal(t, tc.code, code, stderr)
			if tc.msg == "" {
				return
			}
			requireStderrLine(t, stderr, tc.msg)
			if tc.code == 2 {
				require.Empty(t, out)
			}
		})
	}
}

func TestFailedOutputFileIsRemoved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.arrow")
	_, stderr, code := cli(t, sampleRows[:len(sampleRows)-10], "decode", "--format", "unsaferow", sampleSchemaFlag, "-o", path)
	require.Equal(t, 1, code, stderr)
	_, err := os.Stat(path)
	require.True(t, os.IsNotExist(err), "a failed decode leaves no partial output: %v", err)
}

func TestHelp(t *testing.T) {
	out, _, code := cli(t, nil, "help")
	require.Equal(t, 0, code)
	for _, name := range []string{"decode", "encode", "demo"} {
		require.Contains(t, string(out), "  "+name+" ")
	}
	out, _, code = cli(t, nil, "decode", "-h")
	require.Equal(t, 0, code)
	require.Contains(t, string(out), "Usage: rowbridge decode --format unsaferow|compactrow --schema SCHEMA")
	require.Contains(t, string(out), "-batch-rows")
	out, _, code = cli(t, nil, "help", "encode")
	require.Equal(t, 0, code)
	require.Contains(t, string(out), "-flavor")
	_, stderr, code := cli(t, nil)
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "Commands:")
}

func TestPanicBecomesInternalError(t *testing.T) {
	register(&command{name: "panic-test", summary: "panics", flags: func(*flag.FlagSet) func(*env, []string) error {
		return func(*env, []string) error { panic("boom") }
	}})
	defer delete(commands, "panic-test")
	_, stderr, code := cli(t, nil, "panic-test")
	require.Equal(t, 70, code)
	require.Equal(t, "rowbridge: internal error: boom\n", stderr)
}

// A stream that breaks after some rows still gets those rows to stdout,
// and the error after them; to a file, nothing is left.
func TestRowsBeforeAnErrorReachStdout(t *testing.T) {
	truncated := sampleRows[:len(sampleRows)-10]
	out, stderr, code := cli(t, truncated, "decode", "--format", "unsaferow", sampleSchemaFlag, "--batch-rows", "1", "--to", "jsonl")
	require.Equal(t, 1, code, stderr)
	requireStderrLine(t, stderr, "rowbridge decode: framing: stream byte 664, after 4 rows read: row of 96 bytes has only 86: truncated input")
	want, err := os.ReadFile(filepath.Join(testdataSample, "sample.jsonl"))
	require.NoError(t, err)
	wantLines := strings.SplitAfter(string(want), "\n")
	require.Equal(t, strings.Join(wantLines[:4], ""), string(out), "the four rows read before the break")

	path := filepath.Join(t.TempDir(), "out.jsonl")
	_, _, code = cli(t, truncated, "decode", "--format", "unsaferow", sampleSchemaFlag, "--batch-rows", "1", "--to", "jsonl", "-o", path)
	require.Equal(t, 1, code)
	require.NoFileExists(t, path)
}

// A blank --schema, given or read from a file, is a usage error: it
// would decode every row as a row of no columns.
func TestEmptySchemaIsUsageError(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.ddl")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	blank := filepath.Join(dir, "blank.ddl")
	require.NoError(t, os.WriteFile(blank, []byte(" \n\t\n"), 0o644))
	for _, cmd := range []string{"decode", "inspect"} {
		t.Run(cmd, func(t *testing.T) {
			requireFailures(t, cmd, []cliFailure{
				{"space", sampleRows, []string{"--format", "unsaferow", "--schema", " "}, 2, "rowbridge " + cmd + ": bad schema: it is empty (a schema of no columns is written struct<>) (see 'rowbridge " + cmd + " -h')"},
				{"newlines", sampleRows, []string{"--format", "compactrow", "--schema=\n\t\n"}, 2, "rowbridge " + cmd + ": bad schema: it is empty (a schema of no columns is written struct<>) (see 'rowbridge " + cmd + " -h')"},
				{"empty file", sampleRows, []string{"--format", "unsaferow", "--schema", "@" + empty}, 2, "rowbridge " + cmd + ": bad schema in " + empty + ": the file is empty (a schema of no columns is written struct<>) (see 'rowbridge " + cmd + " -h')"},
				{"blank file", sampleRows, []string{"--format", "unsaferow", "--schema", "@" + blank}, 2, "rowbridge " + cmd + ": bad schema in " + blank + ": the file is empty (a schema of no columns is written struct<>) (see 'rowbridge " + cmd + " -h')"},
			})
		})
	}
	// Rows of no columns, when meant, are still possible.
	out, stderr, code := cli(t, []byte{0, 0, 0, 0, 0, 0, 0, 0}, "decode", "--format", "unsaferow", "--schema", "struct<>", "--to", "jsonl")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "{}\n{}\n", string(out))
}
