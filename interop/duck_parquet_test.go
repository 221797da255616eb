package interop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// duckParquetDDL has every type the DDL has, nested ones included.
const duckParquetDDL = "b BOOLEAN, i8 TINYINT, i16 SMALLINT, i32 INT, i64 BIGINT NOT NULL, f32 FLOAT, f64 DOUBLE, " +
	"d DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, s STRING, bin BINARY, v VOID, " +
	"dec5 DECIMAL(5,2), dec18 DECIMAL(18,4), dec38 DECIMAL(38,10), " +
	"arr ARRAY<INT>, arrs ARRAY<STRING>, m MAP<STRING, BIGINT>, " +
	"st STRUCT<a: INT, b: ARRAY<STRUCT<x: DOUBLE, y: STRING>>, n: VOID>, " +
	"mm MAP<INT, ARRAY<DATE>>, deep ARRAY<MAP<STRING, STRUCT<p: DECIMAL(10,3), q: BINARY, t: TIMESTAMP>>>"

const duckParquetRows = 700

// duckStep is one statement of duckparquet.mjs; with Out, its result is
// written there as JSON.
type duckStep struct {
	SQL string `json:"sql"`
	Out string `json:"out,omitempty"`
}

// duckRendered is a result as duckparquet.mjs writes it.
type duckRendered struct {
	Columns []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"columns"`
	Rows [][]any `json:"rows"`
}

// requireDuckNode is requireNode, and @duckdb/node-api installed.
func requireDuckNode(t *testing.T) string {
	t.Helper()
	node := requireNode(t)
	if _, err := os.Stat(filepath.Join(jsDir(t), "node_modules", "@duckdb", "node-api", "package.json")); err != nil {
		t.Fatalf("@duckdb/node-api is not installed: run `npm ci --prefix interop/js` (or set ROWBRIDGE_SKIP_INTEROP=1)")
	}
	return node
}

// sqlPath quotes path as a DuckDB string literal.
func sqlPath(path string) string { return "'" + strings.ReplaceAll(path, "'", "''") + "'" }

// TestDuckDBParquet: native DuckDB (@duckdb/node-api) reads the Parquet
// that rowbridge decode writes, for every type of the DDL with nulls at
// every level, and returns for every column the values rowbridge decodes
// as JSON lines; DuckDB writes those values back as Parquet, and rowbridge
// encode of DuckDB's file gives the original rows byte for byte, which
// decode turns into the same JSON lines.
func TestDuckDBParquet(t *testing.T) {
	node := requireDuckNode(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	bin := buildRowbridge(t, dir)
	path := func(name string) string { return filepath.Join(dir, name) }

	schema, err := ddl.Parse(duckParquetDDL)
	require.NoError(t, err)
	src := testgen.RandomBatch(mem, rand.New(rand.NewSource(17)), schema, duckParquetRows)
	writeIPC(t, mem, schema, path("in.arrows"), "", src)
	src.Release()

	runRowbridge(t, bin, "encode", "--format", "unsaferow", "--no-progress", "-o", path("rows.bin"), path("in.arrows"))
	decodeArgs := []string{"decode", "--format", "unsaferow", "--no-progress", "--schema", duckParquetDDL}
	runRowbridge(t, bin, append(decodeArgs, "--to", "parquet", "-o", path("rb.parquet"), path("rows.bin"))...)
	runRowbridge(t, bin, append(decodeArgs, "--to", "jsonl", "-o", path("rb.jsonl"), path("rows.bin"))...)

	readOrdered := func(file string) string {
		return fmt.Sprintf("SELECT * EXCLUDE (file_row_number) FROM read_parquet(%s, file_row_number = true) ORDER BY file_row_number", sqlPath(path(file)))
	}
	writeJSON(t, path("duckparquet.json"), map[string]any{"steps": []duckStep{
		{SQL: readOrdered("rb.parquet"), Out: "rb.json"},
		{SQL: fmt.Sprintf("COPY (%s) TO %s (FORMAT parquet)", readOrdered("rb.parquet"), sqlPath(path("duck.parquet")))},
		{SQL: readOrdered("duck.parquet"), Out: "duck.json"},
	}})
	code, stdout, stderr := runNode(t, node, "duckparquet.mjs", dir)
	t.Log(strings.TrimSpace(stdout))
	require.Equal(t, 0, code, "duckparquet.mjs failed:\n%s", stderr)

	// What rowbridge decodes, rendered as the other DuckDB tests render
	// values. (Not read back from the JSON lines: arrow-go's JSON reader
	// refuses dates past year 9999, which the rows hold.)
	runRowbridge(t, bin, append(decodeArgs, "--to", "arrow-stream", "-o", path("rb.arrows"), path("rows.bin"))...)
	want := decodedColumns(t, mem, path("rb.arrows"))

	t.Run("DuckDB reads rowbridge's Parquet", func(t *testing.T) {
		checkDuckRendered(t, schema, want, path("rb.json"))
	})
	t.Run("DuckDB's Parquet encodes to the same rows", func(t *testing.T) {
		checkDuckRendered(t, schema, want, path("duck.json"))
		runRowbridge(t, bin, "encode", "--format", "unsaferow", "--no-progress", "-o", path("duck.bin"), path("duck.parquet"))
		orig, err := os.ReadFile(path("rows.bin"))
		require.NoError(t, err)
		again, err := os.ReadFile(path("duck.bin"))
		require.NoError(t, err)
		require.True(t, bytes.Equal(orig, again), "the rows encoded from DuckDB's Parquet differ from the original rows (%d and %d bytes)", len(again), len(orig))
		runRowbridge(t, bin, append(decodeArgs, "--to", "jsonl", "-o", path("duck.jsonl"), path("duck.bin"))...)
		a, err := os.ReadFile(path("rb.jsonl"))
		require.NoError(t, err)
		b, err := os.ReadFile(path("duck.jsonl"))
		require.NoError(t, err)
		require.Equal(t, string(a), string(b))
	})
}

// decodedColumns reads the Arrow IPC stream that rowbridge decode wrote
// and renders each column, through JSON as DuckDB's values come.
func decodedColumns(t *testing.T, mem memory.Allocator, path string) [][]any {
	t.Helper()
	schema, batches := readIPCStream(t, mem, path)
	defer releaseAll(batches)
	rec := concatBatches(t, mem, schema, batches)
	defer rec.Release()
	require.EqualValues(t, duckParquetRows, rec.NumRows())
	cols := make([][]any, rec.NumCols())
	for c := range cols {
		vals := make([]any, rec.NumRows())
		for i := range vals {
			vals[i] = renderValue(rec.Column(c), i)
		}
		b, err := json.Marshal(vals)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &cols[c]))
	}
	return cols
}

// checkDuckRendered compares DuckDB's result in the JSON file at path with
// want, column by column.
func checkDuckRendered(t *testing.T, schema *arrow.Schema, want [][]any, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var res duckRendered
	require.NoError(t, json.Unmarshal(b, &res))
	require.Len(t, res.Columns, schema.NumFields())
	require.Len(t, res.Rows, duckParquetRows)
	types := []string{}
	for c, f := range schema.Fields() {
		require.Equal(t, f.Name, res.Columns[c].Name)
		types = append(types, f.Name+" "+res.Columns[c].Type)
		got := make([]any, len(res.Rows))
		for i, row := range res.Rows {
			got[i] = row[c]
		}
		assert.Equal(t, want[c], got, "column %s (DuckDB %s)", f.Name, res.Columns[c].Type)
	}
	t.Logf("DuckDB's types: %s", strings.Join(types, ", "))
}
