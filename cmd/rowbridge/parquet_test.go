package main

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// parquetDDL has every type the DDL has, nested ones included.
const parquetDDL = "b BOOLEAN, i8 TINYINT, i16 SMALLINT, i32 INT, i64 BIGINT NOT NULL, f32 FLOAT, f64 DOUBLE, " +
	"d DATE, ts TIMESTAMP, ntz TIMESTAMP_NTZ, s STRING, bin BINARY, v VOID, " +
	"dec5 DECIMAL(5,2), dec18 DECIMAL(18,4), dec38 DECIMAL(38,10), " +
	"arr ARRAY<INT>, arrs ARRAY<STRING>, m MAP<STRING, BIGINT>, " +
	"st STRUCT<a: INT, b: ARRAY<STRUCT<x: DOUBLE, y: STRING>>, n: VOID>, " +
	"mm MAP<INT, ARRAY<DATE>>, deep ARRAY<MAP<STRING, STRUCT<p: DECIMAL(10,3), q: BINARY, t: TIMESTAMP>>>"

// parquetRows writes rows random rows of schema (seed) as a Spark-framed
// UnsafeRow stream file in dir, and returns its path and bytes.
func parquetRows(t *testing.T, dir string, schema *arrow.Schema, rows int, seed int64) (string, []byte) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := testgen.RandomBatch(mem, rand.New(rand.NewSource(seed)), schema, rows)
	defer rec.Release()
	in := writeArrowStream(t, schema, []arrow.RecordBatch{rec}, mem)
	out, stderr, code := cli(t, in, "encode", "--format", "unsaferow", "--no-progress")
	require.Equal(t, 0, code, stderr)
	path := filepath.Join(dir, "rows.bin")
	require.NoError(t, os.WriteFile(path, out, 0o644))
	return path, out
}

// parquetMeta opens a Parquet file with arrow-go for its metadata.
func parquetMeta(t *testing.T, path string) *file.Reader {
	t.Helper()
	r, err := file.OpenParquetFile(path, false)
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	return r
}

// TestParquetRoundTrip: decode --to parquet then encode of that file gives
// back the same rows, byte for byte, for every type of the DDL with nulls
// at every level, with each --parquet-codec, for both row formats; the
// file's columns use the codec asked for and its Arrow schema is decode's.
func TestParquetRoundTrip(t *testing.T) {
	schema, err := ddl.Parse(parquetDDL)
	require.NoError(t, err)
	dir := t.TempDir()
	rowsPath, rows := parquetRows(t, dir, schema, 3000, 13)
	compact, stderr, code := cli(t, rows, "decode", "--format", "unsaferow", "--schema", parquetDDL)
	require.Equal(t, 0, code, stderr)
	compact, stderr, code = cli(t, compact, "encode", "--format", "compactrow")
	require.Equal(t, 0, code, stderr)
	compactPath := filepath.Join(dir, "rows.compact")
	require.NoError(t, os.WriteFile(compactPath, compact, 0o644))

	codecs := map[string]compress.Compression{
		"": compress.Codecs.Zstd, "zstd": compress.Codecs.Zstd, "snappy": compress.Codecs.Snappy,
		"gzip": compress.Codecs.Gzip, "lz4": compress.Codecs.Lz4Raw, "brotli": compress.Codecs.Brotli,
		"none": compress.Codecs.Uncompressed, "UNCOMPRESSED": compress.Codecs.Uncompressed, "lz4_raw": compress.Codecs.Lz4Raw,
	}
	for name, want := range codecs {
		for _, format := range []string{"unsaferow", "compactrow"} {
			if format == "compactrow" && name != "" {
				continue
			}
			t.Run(format+"/"+name, func(t *testing.T) {
				in, orig := rowsPath, rows
				if format == "compactrow" {
					in, orig = compactPath, compact
				}
				pq := filepath.Join(t.TempDir(), "rows.parquet")
				args := []string{"decode", "--format", format, "--schema", parquetDDL, "--to", "parquet", "-o", pq, "--batch-rows", "700"}
				if name != "" {
					args = append(args, "--parquet-codec", name)
				}
				out, stderr, code := cli(t, nil, append(args, in)...)
				require.Equal(t, 0, code, stderr)
				require.Empty(t, out)

				r := parquetMeta(t, pq)
				require.EqualValues(t, 3000, r.NumRows())
				for i := range r.NumRowGroups() {
					rg := r.MetaData().RowGroup(i)
					for j := range rg.NumColumns() {
						cc, err := rg.ColumnChunk(j)
						require.NoError(t, err)
						require.Equal(t, want, cc.Compression(), "column %s", cc.PathInSchema())
					}
				}
				fr, err := pqarrow.NewFileReader(r, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
				require.NoError(t, err)
				got, err := fr.Schema()
				require.NoError(t, err)
				require.Equal(t, schema.NumFields(), got.NumFields())
				for i, f := range schema.Fields() {
					g := got.Field(i)
					require.True(t, f.Name == g.Name && f.Nullable == g.Nullable && arrow.TypeEqual(f.Type, g.Type),
						"Parquet's Arrow field %s, want %s", g, f)
				}

				back, stderr, code := cli(t, nil, "encode", "--format", format, pq)
				require.Equal(t, 0, code, stderr)
				require.True(t, bytes.Equal(orig, back), "the rows encoded from the Parquet file differ from the original rows")
			})
		}
	}
}

// TestParquetToStdout: Parquet goes to stdout too, and a file redirected
// to stdin is read as Parquet (it has a file's random access).
func TestParquetToStdout(t *testing.T) {
	schema, err := ddl.Parse(parquetDDL)
	require.NoError(t, err)
	dir := t.TempDir()
	_, rows := parquetRows(t, dir, schema, 200, 5)
	pq, stderr, code := cli(t, rows, "decode", "--format", "unsaferow", "--schema", parquetDDL, "--to", "parquet")
	require.Equal(t, 0, code, stderr)
	require.True(t, bytes.HasPrefix(pq, []byte("PAR1")))
	path := filepath.Join(dir, "stdout.parquet")
	require.NoError(t, os.WriteFile(path, pq, 0o644))

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	cmd := process(t, "encode", "--format", "unsaferow")
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = f, &out, &errb
	require.NoError(t, cmd.Run(), errb.String())
	require.True(t, bytes.Equal(rows, out.Bytes()), "rows from Parquet on stdin differ")

	// Through a pipe, Parquet cannot be read: one line, exit 1.
	requireFailures(t, "encode", []cliFailure{{
		name: "pipe", stdin: pq, args: []string{"--format", "unsaferow"}, code: 1,
		msg: "rowbridge encode: reading Parquet input: Parquet is read from a file (its footer is at the end), not a pipe: give its path as the input",
	}})
}

// TestParquetRowGroupBounds: decode closes a row group at the row bound
// (1Mi rows by default) and at the byte bound, as batches arrive.
func TestParquetRowGroupBounds(t *testing.T) {
	const ddlText = "id BIGINT NOT NULL, s STRING"
	schema, err := ddl.Parse(ddlText)
	require.NoError(t, err)
	dir := t.TempDir()

	t.Run("default rows", func(t *testing.T) {
		if testing.Short() {
			t.Skip("1Mi rows")
		}
		sch, err := ddl.Parse("id BIGINT NOT NULL")
		require.NoError(t, err)
		n := int(parquetRowGroupRows) + 1000
		rowsPath, _ := parquetRows(t, dir, sch, n, 1)
		pq := filepath.Join(dir, "big.parquet")
		_, stderr, code := cli(t, nil, "decode", "--format", "unsaferow", "--schema", "id BIGINT NOT NULL", "--to", "parquet", "-o", pq, rowsPath)
		require.Equal(t, 0, code, stderr)
		r := parquetMeta(t, pq)
		require.Equal(t, 2, r.NumRowGroups())
		require.Equal(t, parquetRowGroupRows, r.MetaData().RowGroup(0).NumRows())
		require.EqualValues(t, 1000, r.MetaData().RowGroup(1).NumRows())
	})

	rowsPath, rows := parquetRows(t, dir, schema, 20000, 2)
	bound := func(t *testing.T, rowsBound, bytesBound int64) *file.Reader {
		oldRows, oldBytes, oldPage := parquetRowGroupRows, parquetRowGroupBytes, parquetPageBytes
		parquetRowGroupRows, parquetRowGroupBytes, parquetPageBytes = rowsBound, bytesBound, 4<<10
		defer func() { parquetRowGroupRows, parquetRowGroupBytes, parquetPageBytes = oldRows, oldBytes, oldPage }()
		pq := filepath.Join(t.TempDir(), "rows.parquet")
		_, stderr, code := cli(t, nil, "decode", "--format", "unsaferow", "--schema", ddlText, "--to", "parquet",
			"--parquet-codec", "none", "--batch-rows", "1000", "-o", pq, rowsPath)
		require.Equal(t, 0, code, stderr)
		back, stderr, code := cli(t, nil, "encode", "--format", "unsaferow", pq)
		require.Equal(t, 0, code, stderr)
		require.True(t, bytes.Equal(rows, back))
		return parquetMeta(t, pq)
	}
	t.Run("rows", func(t *testing.T) {
		r := bound(t, 3000, 1<<40)
		require.Equal(t, 7, r.NumRowGroups())
		for i := range 6 {
			require.EqualValues(t, 3000, r.MetaData().RowGroup(i).NumRows(), "row group %d", i)
		}
		require.EqualValues(t, 2000, r.MetaData().RowGroup(6).NumRows())
	})
	t.Run("bytes", func(t *testing.T) {
		// The row groups decode's batches of 1000 rows should give: each
		// closed at the end of the batch whose Arrow bytes pass the bound.
		const limit = 64 << 10
		arrows, stderr, code := cli(t, nil, "decode", "--format", "unsaferow", "--schema", ddlText, "--batch-rows", "1000", rowsPath)
		require.Equal(t, 0, code, stderr)
		rr, err := ipc.NewReader(bytes.NewReader(arrows))
		require.NoError(t, err)
		var want []int64
		var rows, size int64
		for rr.Next() {
			rows += rr.RecordBatch().NumRows()
			size += columnar.RecordBytes(rr.RecordBatch())
			if size >= limit {
				want, rows, size = append(want, rows), 0, 0
			}
		}
		require.NoError(t, rr.Err())
		rr.Release()
		if rows > 0 {
			want = append(want, rows)
		}
		require.Greater(t, len(want), 3)

		r := bound(t, 1<<40, limit)
		var got []int64
		for i := range r.NumRowGroups() {
			got = append(got, r.MetaData().RowGroup(i).NumRows())
		}
		require.Equal(t, want, got)
	})
}

// TestParquetCodecFlag: the codec names, and the flag's usage errors.
func TestParquetCodecFlag(t *testing.T) {
	requireFailures(t, "decode", []cliFailure{
		{name: "unknown", args: []string{"--format", "unsaferow", "--schema", "a INT", "--to", "parquet", "--parquet-codec", "lzo"}, code: 2,
			msg: `rowbridge decode: unknown --parquet-codec "lzo" (want zstd, snappy, gzip, lz4, brotli, none) (see 'rowbridge decode -h')`},
		{name: "not parquet", args: []string{"--format", "unsaferow", "--schema", "a INT", "--to", "jsonl", "--parquet-codec", "zstd"}, code: 2,
			msg: "rowbridge decode: --parquet-codec applies to --to parquet only (see 'rowbridge decode -h')"},
		{name: "unknown to", args: []string{"--format", "unsaferow", "--schema", "a INT", "--to", "orc"}, code: 2,
			msg: `rowbridge decode: unknown --to "orc" (want arrow-stream, arrow-file, jsonl or parquet) (see 'rowbridge decode -h')`},
	})
}

// validParquet is a small Parquet file of parquetDDL's rows.
func validParquet(t *testing.T) []byte {
	t.Helper()
	schema, err := ddl.Parse(parquetDDL)
	require.NoError(t, err)
	_, rows := parquetRows(t, t.TempDir(), schema, 40, 9)
	pq, stderr, code := cli(t, rows, "decode", "--format", "unsaferow", "--schema", parquetDDL, "--to", "parquet", "--parquet-codec", "snappy")
	require.Equal(t, 0, code, stderr)
	return pq
}

// TestParquetCorruptInput: bad Parquet fails with one line and exit 1,
// never a panic, whatever byte is damaged.
func TestParquetCorruptInput(t *testing.T) {
	valid := validParquet(t)
	dir := t.TempDir()
	size := len(valid)
	footerLen := int(binary.LittleEndian.Uint32(valid[size-8:]))
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	longFooter := bytes.Clone(valid)
	binary.LittleEndian.PutUint32(longFooter[size-8:], uint32(size))
	encrypted := bytes.Clone(valid)
	copy(encrypted[size-4:], "PARE")
	cases := []cliFailure{
		{name: "magic only", args: []string{write("m.parquet", []byte("PAR1"))},
			msg: "rowbridge encode: reading Parquet file: the input is 4 bytes, too short for a Parquet file (at least 12)"},
		{name: "truncated", args: []string{write("t.parquet", valid[:size-100])},
			msg: "rowbridge encode: reading Parquet file: the file does not end in the Parquet magic PAR1 (it ends in …"},
		{name: "footer length", args: []string{write("f.parquet", longFooter)},
			msg: "rowbridge encode: reading Parquet file: the footer length " + strconv.Itoa(size) + " at byte " + strconv.Itoa(size-8) + " is more than the " + strconv.Itoa(size-12) + " bytes before it"},
		{name: "encrypted", args: []string{write("e.parquet", encrypted)},
			msg: "rowbridge encode: reading Parquet file: the file's footer is encrypted: encrypted Parquet is not supported"},
	}
	for i := range cases {
		cases[i].code = 1
		// encode names the file the bytes came from
		cases[i].msg = strings.Replace(cases[i].msg, "rowbridge encode: ", "rowbridge encode: "+cases[i].args[0]+": ", 1)
		cases[i].args = append([]string{"--format", "unsaferow"}, cases[i].args...)
	}
	requireFailures(t, "encode", cases)

	// A spread of bytes of the footer and of the data, each damaged in
	// two ways: exit 0 (a value changed) or 1 with one line, never more.
	positions := []int{}
	for p := size - 8 - footerLen; p < size-4; p += max(1, footerLen/300) {
		positions = append(positions, p)
	}
	for p := 4; p < size-8-footerLen; p += max(1, (size-footerLen)/150) {
		positions = append(positions, p)
	}
	failed := 0
	path := filepath.Join(dir, "x.parquet")
	for _, p := range positions {
		for _, x := range []byte{0xff, 0x80} {
			b := bytes.Clone(valid)
			b[p] ^= x
			require.NoError(t, os.WriteFile(path, b, 0o644))
			out, stderr, code := cli(t, nil, "encode", "--format", "unsaferow", path)
			switch code {
			case 0:
				require.NotEmpty(t, out)
			case 1:
				failed++
				require.Equal(t, 1, strings.Count(stderr, "\n"), "byte %d ^ %#x: %q", p, x, stderr)
				require.True(t, strings.HasPrefix(stderr, "rowbridge encode: "), stderr)
			default:
				t.Fatalf("byte %d ^ %#x: exit %d: %s", p, x, code, stderr)
			}
		}
	}
	require.Greater(t, failed, len(positions)/2, "most damage is detected")
}

// TestParquetWriterReaderRelease: the Parquet writer and reader release
// every buffer they allocate, and the batches read back equal those
// written, in several row groups and batches.
func TestParquetWriterReaderRelease(t *testing.T) {
	schema, err := ddl.Parse(parquetDDL)
	require.NoError(t, err)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	old := parquetRowGroupRows
	parquetRowGroupRows = 1500
	defer func() { parquetRowGroupRows = old }()

	r := rand.New(rand.NewSource(3))
	var batches []arrow.RecordBatch
	for range 3 {
		batches = append(batches, testgen.RandomBatch(mem, r, schema, 1000))
	}
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	var buf bytes.Buffer
	w, err := parquetSink(compress.Codecs.Zstd)(&buf, schema, mem)
	require.NoError(t, err)
	for _, b := range batches {
		require.NoError(t, w.Write(b))
	}
	require.NoError(t, w.Close())

	src, err := openParquetReaderAt(bytes.NewReader(buf.Bytes()), int64(buf.Len()), mem)
	require.NoError(t, err)
	require.Equal(t, 2, src.(*parquetSource).pf.NumRowGroups())
	var got []arrow.RecordBatch
	for {
		rec, ok, err := src.Next()
		require.NoError(t, err)
		if !ok {
			break
		}
		rec.Retain()
		got = append(got, rec)
	}
	src.Close()
	all := func(bs []arrow.RecordBatch) arrow.RecordBatch {
		cols := make([]arrow.Array, schema.NumFields())
		for c := range cols {
			parts := make([]arrow.Array, len(bs))
			for i, b := range bs {
				parts[i] = b.Column(c)
			}
			cols[c], err = array.Concatenate(parts, mem)
			require.NoError(t, err)
		}
		rec := array.NewRecordBatch(schema, cols, -1)
		for _, c := range cols {
			c.Release()
		}
		return rec
	}
	a, b := all(batches), all(got)
	for _, g := range got {
		g.Release()
	}
	defer a.Release()
	defer b.Release()
	require.EqualValues(t, 3000, b.NumRows())
	// Equal values; what lies under a null may differ (arrow-go's Parquet
	// reader leaves bits there), which the encoders never read.
	requireRecordEqual(t, a, b)
}
