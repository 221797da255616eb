package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

var sampleInspectArgs = []string{"inspect", "--format", "unsaferow", "--schema", sampleDDL}

// tableRows returns the cells of the rendered table's data lines (those
// after the second rule), trimmed: widths depend on the rows shown.
func tableRows(t *testing.T, out string) [][]string {
	t.Helper()
	var rows [][]string
	rules := 0
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "+-"):
			rules++
		case rules == 2 && strings.HasPrefix(line, "| "):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			rows = append(rows, cells)
		}
	}
	return rows
}

// cells splits a table line written with " | " between cells.
func cells(line string) []string { return strings.Split(line, " | ") }

func TestInspectSample(t *testing.T) {
	schema, err := loadSchema(sampleDDL)
	require.NoError(t, err)
	out, stderr, code := cli(t, sampleRows, sampleInspectArgs...)
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr)
	text := string(out)
	require.True(t, strings.HasPrefix(text, "Input: UnsafeRow stream, spark framing\n"+
		"Schema: "+strings.TrimSpace(sampleDDL)+"\n"+
		"Arrow "+schema.String()+"\n"+
		"Rows: 5\n\n"), text)
	rows := tableRows(t, text)
	require.Len(t, rows, 5)
	require.Contains(t, text, "\n|  2 | cappuccino |  3.75 | [hot, milk]  | {shots -> 2, milk_ml -> 150} | 2024-03-01T08:20:30.5Z      | true   |\n")
	require.Equal(t, cells("2 | cappuccino | 3.75 | [hot, milk] | {shots -> 2, milk_ml -> 150} | 2024-03-01T08:20:30.5Z | true"), rows[1])
	require.Equal(t, cells("5 | matcha | NULL | NULL | {} | 2024-03-03T09:45:12.123456Z | true"), rows[4])

	for _, tc := range []struct {
		args  []string
		rows  string
		shown int
	}{
		{[]string{"--rows", "2"}, "Rows: more than 2, showing the first 2 (--count counts them all)", 2},
		{[]string{"--rows", "4"}, "Rows: more than 4, showing the first 4 (--count counts them all)", 4},
		{[]string{"--rows", "5"}, "Rows: 5", 5}, // one more read finds the end
		{[]string{"--rows", "0"}, "Rows: more than 0 (--count counts them all)", 0},
		{[]string{"--rows", "2", "--count"}, "Rows: 5 (showing the first 2)", 2},
		{[]string{"--rows=0", "--count"}, "Rows: 5 (showing the first 0)", 0},
	} {
		out, stderr, code := cli(t, sampleRows, append(sampleInspectArgs, tc.args...)...)
		require.Equal(t, 0, code, stderr)
		require.Contains(t, string(out), "\n"+tc.rows+"\n", tc.args)
		got := tableRows(t, string(out))
		require.Len(t, got, tc.shown, tc.args)
		for i, row := range got {
			require.Equal(t, rows[i], row, "the first rows are the same however many are shown")
		}
		if tc.shown == 0 {
			require.NotContains(t, string(out), "+-", "no table without rows")
		}
	}
}

func TestInspectCompactRowFile(t *testing.T) {
	in := filepath.Join(testdataSample, "compactrow-velox-lz4.bin")
	out, stderr, code := cli(t, nil, "inspect", in, "--format=compactrow", "--framing=velox", "--codec=lz4", sampleSchemaFlag, "--rows=3")
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(string(out), "Input: CompactRow stream, velox framing, lz4 codec\nSchema: "+strings.TrimSpace(sampleDDL)+"\n"), string(out))
	rows := tableRows(t, string(out))
	require.Len(t, rows, 3)
	require.Equal(t, cells("3 | NULL | 0.99 | [] | NULL | NULL | false"), rows[2])
}

func TestInspectJSONLinesReadBack(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema, want := sampleRecord(t, mem)
	defer want.Release()
	for _, n := range []int64{1, 3, 5} {
		out, stderr, code := cli(t, sampleRows, append(sampleInspectArgs, "--json", "--rows", itoa(n))...)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, int(n), bytes.Count(out, []byte("\n")), "only rows: %s", out)
		jr := array.NewJSONReader(bytes.NewReader(out), schema, array.WithAllocator(mem), array.WithChunk(-1))
		require.True(t, jr.Next(), "%v", jr.Err())
		head := want.NewSlice(0, n)
		requireRecordEqual(t, head, jr.RecordBatch())
		head.Release()
		jr.Release()
	}
}

// testArrowBatches is 12 rows in 3 batches, with a uint32 column that
// Spark DDL has no name for.
func testArrowBatches(t *testing.T, mem memory.Allocator) (*arrow.Schema, arrow.RecordBatch, []arrow.RecordBatch) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "n", Type: arrow.PrimitiveTypes.Int32},
		{Name: "word", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "u", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
	}, nil)
	var js strings.Builder
	js.WriteString("[")
	words := []string{`"zero"`, `"one"`, `null`, `"three"`, `"quatre, \"4\""`, `"five"`}
	for i := range 12 {
		if i > 0 {
			js.WriteString(",")
		}
		u := itoa(4000000000 + int64(i))
		if i%5 == 1 {
			u = "null"
		}
		js.WriteString(`{"n":` + itoa(int64(i*i)) + `,"word":` + words[i%len(words)] + `,"u":` + u + `}`)
	}
	js.WriteString("]")
	full, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(js.String()))
	require.NoError(t, err)
	var batches []arrow.RecordBatch
	for start := int64(0); start < 12; start += 4 {
		batches = append(batches, full.NewSlice(start, start+4))
	}
	return schema, full, batches
}

func releaseAll(recs ...arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

func TestInspectArrow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema, full, batches := testArrowBatches(t, mem)
	defer releaseAll(append(batches, full)...)
	file := writeArrowFile(t, schema, batches, mem)
	stream := writeArrowStream(t, schema, batches, mem)
	path := filepath.Join(t.TempDir(), "rows.arrow")
	require.NoError(t, os.WriteFile(path, file, 0o644))

	for _, tc := range []struct {
		name  string
		stdin []byte
		args  []string
		input string
	}{
		{"file on disk", nil, []string{path}, "Arrow IPC file, 3 record batches"},
		{"file on stdin", file, nil, "Arrow IPC file, 3 record batches"},
		{"stream on stdin", stream, nil, "Arrow IPC stream"},
		{"stream, --format arrow", stream, []string{"--format", "arrow"}, "Arrow IPC stream"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inspect := func(args ...string) string {
				out, stderr, code := cli(t, tc.stdin, append(append([]string{"inspect"}, tc.args...), args...)...)
				require.Equal(t, 0, code, stderr)
				return string(out)
			}
			text := inspect("--rows", "6") // spans two batches
			require.True(t, strings.HasPrefix(text, "Input: "+tc.input+"\n"+
				"Schema: not expressible in Spark DDL (ddl: arrow type uint32: unsupported type)\n"+
				"Arrow "+schema.String()+"\n"+
				"Rows: more than 6, showing the first 6 (--count counts them all)\n\n"+
				"+----+-------------+------------+\n"+
				"| n  | word        | u          |\n"+
				"+----+-------------+------------+\n"+
				"|  0 | zero        | 4000000000 |\n"+
				"|  1 | one         |       NULL |\n"+
				"|  4 | NULL        | 4000000002 |\n"+
				"|  9 | three       | 4000000003 |\n"+
				"| 16 | quatre, \"4\" | 4000000004 |\n"+
				"| 25 | five        | 4000000005 |\n"+
				"+----+-------------+------------+\n"), text)
			all := tableRows(t, inspect("--rows", "100"))
			require.Len(t, all, 12)
			require.Equal(t, cells("121 | five | NULL"), all[11])
			require.Contains(t, inspect("--rows", "6", "--count"), "\nRows: 12 (showing the first 6)\n")
			require.Contains(t, inspect("--rows", "100"), "\nRows: 12\n")

			out, stderr, code := cli(t, tc.stdin, append(append([]string{"inspect"}, tc.args...), "--json", "--rows", "6")...)
			require.Equal(t, 0, code, stderr)
			jr := array.NewJSONReader(bytes.NewReader(out), schema, array.WithAllocator(mem), array.WithChunk(-1))
			defer jr.Release()
			require.True(t, jr.Next(), "%v", jr.Err())
			head := full.NewSlice(0, 6)
			defer head.Release()
			requireRecordEqual(t, head, jr.RecordBatch())
			require.False(t, jr.Next())
		})
	}
}

func TestInspectTruncatedShowsRowsBeforeTheError(t *testing.T) {
	truncated := sampleRows[:len(sampleRows)-10]
	out, stderr, code := cli(t, truncated, sampleInspectArgs...)
	require.Equal(t, 1, code)
	require.Equal(t, "rowbridge inspect: framing: stream byte 664, after 4 rows read: row of 96 bytes has only 86: truncated input\n", stderr)
	require.Contains(t, string(out), "\nRows: 4 read before an error\n")
	require.Len(t, tableRows(t, string(out)), 4)

	// Showing fewer rows than the damage is a success: reading stops early.
	out, stderr, code = cli(t, truncated, append(sampleInspectArgs, "--rows", "1")...)
	require.Equal(t, 0, code, stderr)
	require.Len(t, tableRows(t, string(out)), 1)
}

func TestInspectErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema, full, batches := testArrowBatches(t, mem)
	stream := writeArrowStream(t, schema, batches, mem)
	releaseAll(append(batches, full)...)
	requireFailures(t, "inspect", []cliFailure{
		{"negative rows", stream, []string{"--rows", "-1"}, 2, "rowbridge inspect: --rows -1: want 0 or more (see 'rowbridge inspect -h')"},
		{"count and json", stream, []string{"--count", "--json"}, 2, "rowbridge inspect: --count does not combine with --json…"},
		{"schema without format", sampleRows, []string{"--schema", sampleDDL}, 2, "rowbridge inspect: --schema needs --format unsaferow or compactrow (see 'rowbridge inspect -h')"},
		{"not arrow", sampleRows, nil, 2, "rowbridge inspect: stdin " + kindLines[kindRows]},
		{"schema for arrow", stream, []string{"--format", "arrow", "--schema", "a INT"}, 2, "rowbridge inspect: --schema applies to row streams only…"},
		{"framing for detected arrow", stream, []string{"--framing", "velox"}, 2, "rowbridge inspect: --framing applies to row streams only (Arrow IPC input carries its schema) (see 'rowbridge inspect -h')"},
		{"bad format", stream, []string{"--format", "parquet"}, 2, `rowbridge inspect: unknown --format "parquet"…`},
		{"row format without schema", sampleRows, []string{"--format", "unsaferow"}, 2, "rowbridge inspect: --schema is required…"},
		{"stdin twice", nil, []string{"-", "-"}, 2, "rowbridge inspect: stdin (-) is named 2 times among the inputs; it can be read once (see 'rowbridge inspect -h')"},
		{"unknown flag", nil, []string{"--head"}, 2, "rowbridge inspect: flag provided but not defined: -head (see 'rowbridge inspect -h')"},
		{"empty", nil, nil, 2, "rowbridge inspect: stdin " + kindLines[kindEmpty]},
		{"forced arrow on rows", sampleRows, []string{"--format", "arrow"}, 2, "rowbridge inspect: stdin " + kindLines[kindRows]},
		{"flags before the input", nil, []string{"--format", "unsaferow", filepath.Join(t.TempDir(), "absent.bin")}, 2, "rowbridge inspect: --schema is required…"},
		{"missing file", nil, []string{filepath.Join(t.TempDir(), "absent.arrow")}, 1, "rowbridge inspect: open …"},
	})
}

func TestInspectAndSchemaHelp(t *testing.T) {
	out, _, code := cli(t, nil, "help")
	require.Equal(t, 0, code)
	require.Contains(t, string(out), "  inspect    show the schema and first rows")
	require.Contains(t, string(out), "  schema     convert a schema between")
	for _, tc := range []struct{ cmd, usage, flag, example string }{
		{"inspect", "Usage: rowbridge inspect [--format unsaferow|compactrow|arrow] [--schema SCHEMA]", "-rows int", "  rowbridge inspect --format unsaferow --schema 'id BIGINT, name STRING' --rows 20 rows.bin\n"},
		{"schema", "Usage: rowbridge schema [--from auto|ddl|catalog|velox|json|arrow|parquet] [--to ddl|catalog|velox|json|arrow]", "-from string", "  rowbridge schema --to catalog @schema.json   # what Spark's catalog shows\n"},
	} {
		for _, args := range [][]string{{tc.cmd, "-h"}, {tc.cmd, "--help"}, {"help", tc.cmd}} {
			out, stderr, code := cli(t, nil, args...)
			require.Equal(t, 0, code, stderr)
			text := string(out)
			require.True(t, strings.HasPrefix(text, tc.usage), text)
			require.Contains(t, text, "\nFlags:\n")
			require.Contains(t, text, tc.flag)
			_, examples, ok := strings.Cut(text, "\nExamples:\n")
			require.True(t, ok, "examples come after the flags: %s", text)
			require.Contains(t, examples, tc.example)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
