package main

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/sparkhash"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// expectedShufflePartitions is each input row's partition: pmod(Spark's
// hash of the key columns, n), computed with sparkhash.Hash, or round
// robin from 0 over all batches without keys.
func expectedShufflePartitions(t *testing.T, mem memory.Allocator, batches []arrow.RecordBatch, keys []int, n int) [][]int {
	t.Helper()
	var out [][]int
	seen := 0
	for _, rec := range batches {
		parts := make([]int, rec.NumRows())
		if len(keys) == 0 || rec.NumRows() == 0 {
			for i := range parts {
				parts[i] = (seen + i) % n
			}
		} else {
			cols := make([]arrow.Array, len(keys))
			for i, k := range keys {
				cols[i] = rec.Column(k)
			}
			h, err := sparkhash.Hash(mem, cols, 42)
			require.NoError(t, err)
			for i := range parts {
				parts[i] = (int(h.Value(i))%n + n) % n
			}
			h.Release()
		}
		seen += len(parts)
		out = append(out, parts)
	}
	return out
}

// partitionSlices are the input's rows of partition p, in input order.
func partitionSlices(batches []arrow.RecordBatch, parts [][]int, p int) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	for b, rec := range batches {
		for i, q := range parts[b] {
			if q == p {
				out = append(out, rec.NewSlice(int64(i), int64(i+1)))
			}
		}
	}
	return out
}

// readIPCRows reads an Arrow IPC stream and calls fn with each row as a
// one-row batch (released after fn).
func readIPCRows(t *testing.T, mem memory.Allocator, data []byte, fn func(arrow.RecordBatch)) {
	t.Helper()
	r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer r.Release()
	for r.Next() {
		rec := r.RecordBatch()
		for _, c := range rec.Columns() {
			require.NoError(t, array.ValidateFull(c))
		}
		for i := range rec.NumRows() {
			row := rec.NewSlice(i, i+1)
			fn(row)
			row.Release()
		}
	}
	require.NoError(t, r.Err())
}

// TestShuffleWriteRoundTrip: shuffle write, then shuffle decode of each
// partition gives back the input rows the hash sends there, in input
// order, for random nested schemas with nulls at every level, several
// batches (an empty one among them), every codec and checksum, spills,
// Arrow stream and file input, hash and round-robin partitioning. (No
// null-type columns: arrow-go's IPC reader gives them no buffers, which
// array.ValidateFull refuses; the library tests cover them.)
func TestShuffleWriteRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewSource(21))
	codecs := []string{"lz4", "zstd", "snappy", "lzf", "none"}
	checksums := []string{"ADLER32", "CRC32", "crc32c", "none"}
	for i := range 10 {
		schema := testgen.RandomSchema(r, testgen.WithMaxFields(5), testgen.ExcludeTypes(arrow.NULL))
		schemaDDL, err := ddl.FormatDDL(schema)
		require.NoError(t, err)
		var keys []int
		var keyNames []string
		if i%4 != 3 { // every fourth case round robin
			for k, f := range schema.Fields() {
				if sparkhash.Check(f.Name, f.Type) == nil && len(keys) < 2 && !strings.Contains(f.Name, ",") {
					keys, keyNames = append(keys, k), append(keyNames, f.Name)
				}
			}
		}
		var batches []arrow.RecordBatch
		for _, n := range []int{50, 0, 120} {
			batches = append(batches, testgen.RandomBatch(mem, r, schema, n))
		}
		n := 2 + r.Intn(5)
		args := []string{"shuffle", "write", "--partitions", fmt.Sprint(n), "--codec", codecs[i%len(codecs)],
			"--checksum", checksums[i%len(checksums)], "--shuffle", "3", "--map", fmt.Sprint(40 + i)}
		if len(keys) > 0 {
			args = append(args, "--partition-by", strings.Join(keyNames, ","))
		}
		if i%3 == 1 {
			args = append(args, "--spill-rows", "7")
		}
		name := strings.Join(args[2:], " ")
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out", "nested")
			input := writeArrowStream(t, schema, batches, mem)
			if i%2 == 1 {
				input = writeArrowFile(t, schema, batches, mem)
			}
			in := filepath.Join(dir, "in.arrow")
			require.NoError(t, os.WriteFile(in, input, 0o644))
			stdout, stderr, code := cli(t, nil, append(args, "-o", out, in)...)
			require.Equal(t, 0, code, stderr)
			require.Empty(t, stderr)
			require.Empty(t, stdout)

			parts := expectedShufflePartitions(t, mem, batches, keys, n)
			for p := range n {
				got, stderr, code := cli(t, nil, "shuffle", "decode", "--schema", schemaDDL, "--partition", fmt.Sprint(p), "--workers", "1", "-o", "-", out)
				require.Equal(t, 0, code, stderr)
				want := partitionSlices(batches, parts, p)
				k := 0
				readIPCRows(t, mem, got, func(row arrow.RecordBatch) {
					require.Less(t, k, len(want), "partition %d: more rows than written", p)
					require.Empty(t, diffRows(want[k], row), "partition %d, row %d", p, k)
					k++
				})
				require.Equal(t, len(want), k, "partition %d: rows", p)
				for _, w := range want {
					w.Release()
				}
			}
		})
		for _, b := range batches {
			b.Release()
		}
	}
}

// diffRows compares two one-row batches by value, ignoring field
// metadata that the DDL round trip does not keep.
func diffRows(want, got arrow.RecordBatch) []string {
	cols := make([]arrow.Array, want.NumCols())
	copy(cols, got.Columns())
	rebased := array.NewRecordBatch(want.Schema(), cols, got.NumRows())
	defer rebased.Release()
	return testgen.DiffBatches(want, rebased, 5)
}

func TestShuffleWriteBadInput(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	rec := testgen.RandomBatch(mem, rand.New(rand.NewSource(1)), schema, 10)
	defer rec.Release()
	good := filepath.Join(dir, "good.arrow")
	require.NoError(t, os.WriteFile(good, writeArrowStream(t, schema, []arrow.RecordBatch{rec}, mem), 0o644))

	time32 := arrow.NewSchema([]arrow.Field{{Name: "h", Type: arrow.FixedWidthTypes.Time32ms}}, nil) // no row type holds a time of day
	b := array.NewRecordBuilder(mem, time32)
	hrec := b.NewRecordBatch()
	b.Release()
	defer hrec.Release()
	unsupported := filepath.Join(dir, "time32.arrow")
	require.NoError(t, os.WriteFile(unsupported, writeArrowStream(t, time32, []arrow.RecordBatch{hrec}, mem), 0o644))

	// A stream cut short after its first batch: the failure comes after
	// rows were written.
	full := writeArrowStream(t, schema, []arrow.RecordBatch{rec, rec, rec}, mem)
	cut := filepath.Join(dir, "cut.arrow")
	require.NoError(t, os.WriteFile(cut, full[:len(full)*2/3], 0o644))

	existing := filepath.Join(dir, "existing")
	_, stderr, code := cli(t, nil, "shuffle", "write", "--partitions", "2", "--partition-by", "id", "-o", existing, good)
	require.Equal(t, 0, code, stderr)
	before := dirContents(t, existing)

	out := filepath.Join(dir, "out")
	cases := []cliFailure{
		{name: "no such column", args: []string{"write", "--partitions", "2", "--partition-by", "id,nope", "-o", out, good}, code: 2,
			msg: `rowbridge shuffle write: --partition-by: the input has no column "nope" (its columns: id, m) (see 'rowbridge shuffle write -h')`},
		{name: "map column", args: []string{"write", "--partitions", "2", "--partition-by", "m", "-o", out, good}, code: 2,
			msg: `rowbridge shuffle write: --partition-by: column "m"…`},
		{name: "empty column name", args: []string{"write", "--partitions", "2", "--partition-by", "id,", "-o", out, good}, code: 2,
			msg: `rowbridge shuffle write: --partition-by "id,": an empty column name (see 'rowbridge shuffle write -h')`},
		{name: "zero partitions", args: []string{"write", "--partitions", "0", "-o", out, good}, code: 2,
			msg: "rowbridge shuffle write: --partitions 0: want 1 to 16777216 (see 'rowbridge shuffle write -h')"},
		{name: "no partitions", args: []string{"write", "-o", out, good}, code: 2,
			msg: "rowbridge shuffle write: --partitions is required (see 'rowbridge shuffle write -h')"},
		{name: "no -o", args: []string{"write", "--partitions", "2", good}, code: 2,
			msg: "rowbridge shuffle write: -o DIR is required (see 'rowbridge shuffle write -h')"},
		{name: "auto codec", args: []string{"write", "--partitions", "2", "--codec", "auto", "-o", out, good}, code: 2,
			msg: "rowbridge shuffle write: --codec auto: Spark's codecs are lz4, lzf, snappy and zstd (or none) (see 'rowbridge shuffle write -h')"},
		{name: "bad checksum", args: []string{"write", "--partitions", "2", "--checksum", "md5", "-o", out, good}, code: 2,
			msg: `rowbridge shuffle write: unknown --checksum "md5" (want ADLER32, CRC32, CRC32C or none) (see 'rowbridge shuffle write -h')`},
		{name: "negative spill", args: []string{"write", "--partitions", "2", "--spill-rows", "-1", "-o", out, good}, code: 2,
			msg: "rowbridge shuffle write: --spill-rows -1: want 0 (one stream per partition) or more (see 'rowbridge shuffle write -h')"},
		{name: "negative map", args: []string{"write", "--partitions", "2", "--map", "-1", "-o", out, good}, code: 2,
			msg: "rowbridge shuffle write: --map -1: want 0 or more (see 'rowbridge shuffle write -h')"},
		{name: "unsupported type", args: []string{"write", "--partitions", "2", "-o", out, unsupported}, code: 1,
			msg: "rowbridge shuffle write: unsaferow: …"},
		{name: "input cut short", args: []string{"write", "--partitions", "2", "--partition-by", "id", "-o", out, cut}, code: 1,
			msg: "rowbridge shuffle write: …"},
		{name: "existing output", args: []string{"write", "--partitions", "2", "--partition-by", "id", "-o", existing, good}, code: 1,
			msg: "rowbridge shuffle write: " + filepath.Join(existing, "shuffle_0_0_0.index") + ": a map output of this shuffle and map id exists (--force replaces it)"},
		{name: "output is a file", args: []string{"write", "--partitions", "2", "-o", good, good}, code: 1,
			msg: "rowbridge shuffle write: -o " + good + ": not a directory"},
	}
	requireFailures(t, "shuffle", cases)
	_, err := os.Stat(out)
	require.ErrorIs(t, err, os.ErrNotExist, "nothing written, not even the folder")
	require.Equal(t, before, dirContents(t, existing), "the existing map output is untouched")

	// Into an existing folder: a failure midway leaves it empty.
	require.NoError(t, os.Mkdir(out, 0o755))
	_, stderr, code = cli(t, nil, "shuffle", "write", "--partitions", "2", "-o", out, cut)
	require.Equal(t, 1, code, stderr)
	require.Empty(t, dirContents(t, out))

	// --force with an input that fails midway keeps the old map output,
	// byte for byte.
	_, stderr, code = cli(t, nil, "shuffle", "write", "--partitions", "2", "--partition-by", "id", "--force", "-o", existing, cut)
	require.Equal(t, 1, code, stderr)
	require.Equal(t, before, dirContents(t, existing), "a failed --force leaves the old map output")

	// --force replaces the map output; --sync writes the same files.
	_, stderr, code = cli(t, nil, "shuffle", "write", "--partitions", "3", "--checksum", "CRC32", "--force", "-o", existing, good)
	require.Equal(t, 0, code, stderr)
	unsynced := dirContents(t, existing)
	_, stderr, code = cli(t, nil, "shuffle", "write", "--partitions", "3", "--checksum", "CRC32", "--force", "--sync", "-o", existing, good)
	require.Equal(t, 0, code, stderr)
	after := dirContents(t, existing)
	require.Equal(t, unsynced, after)
	require.Len(t, after, 3)
	require.Contains(t, after, "shuffle_0_0_0.checksum.CRC32")
	require.NotContains(t, after, "shuffle_0_0_0.checksum.ADLER32")
	set, err := sparkshuffle.Open(existing)
	require.NoError(t, err)
	require.Equal(t, 3, set.Shuffles()[0].Partitions)
}

// dirContents maps each file name in dir to its bytes.
func dirContents(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	m := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		m[e.Name()] = string(b)
	}
	return m
}

// TestShuffleWriteStdin reads Arrow from stdin, deals rows round robin,
// and writes Spark's defaults: lz4 segments and an ADLER32 checksum file.
func TestShuffleWriteStdin(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int32}}, nil)
	b := array.NewRecordBuilder(mem, schema)
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{10, 11, 12, 13, 14}, nil)
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()
	out := filepath.Join(t.TempDir(), "o")
	_, stderr, code := cli(t, writeArrowStream(t, schema, []arrow.RecordBatch{rec}, mem), "shuffle", "write", "--partitions", "3", "-o", out)
	require.Equal(t, 0, code, stderr)
	require.ElementsMatch(t, []string{"shuffle_0_0_0.index", "shuffle_0_0_0.data", "shuffle_0_0_0.checksum.ADLER32"}, keysOf(dirContents(t, out)))
	set, err := sparkshuffle.Open(out)
	require.NoError(t, err)
	sh := set.Shuffles()[0]
	codec, err := sh.SniffCodec()
	require.NoError(t, err)
	require.Equal(t, "lz4", codec.String())
	for p, want := range [][]int32{{10, 13}, {11, 14}, {12}} {
		rd, err := sh.NewReader(schema, sparkshuffle.WithPartition(p), sparkshuffle.WithAllocator(mem))
		require.NoError(t, err)
		var got []int32
		for rd.Next() {
			got = append(got, rd.RecordBatch().Column(0).(*array.Int32).Int32Values()...)
		}
		require.NoError(t, rd.Err())
		rd.Release()
		require.Equal(t, want, got, "partition %d", p)
	}
}

func keysOf(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
