package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// shuffleMap is one map output of the CLI's test folder: the spills of
// each partition (rows per spill; none for an empty partition).
type shuffleMap struct {
	id    int64
	alg   sparkshuffle.Algorithm
	parts [][]int
}

// shuffleSpec is one shuffle of the test folder.
type shuffleSpec struct {
	codec framing.Codec
	maps  []shuffleMap
}

// shuffleFixture is a folder of several shuffles as Spark lays them out in
// two local dirs, and the rows of every segment.
type shuffleFixture struct {
	folder *shuffletest.Folder
	dirs   []string // the local dirs, the DIR arguments
	paths  map[[2]int64]shuffletest.Paths
	rows   map[[3]int64][]shuffletest.Key // (shuffle, partition, map) -> rows
	spec   map[int]shuffleSpec
}

// cliShuffles: map ids that sort differently as text and as numbers, a
// map output with no data file (every partition empty), spills
// concatenated, empty partitions, a map without a checksum file, checksum
// files of each algorithm, a shuffle of many partitions.
var cliShuffles = map[int]shuffleSpec{
	0: {codec: framing.LZ4, maps: []shuffleMap{
		{id: 12, alg: sparkshuffle.Adler32, parts: [][]int{{5, 3}, nil, {20}, {1, 1}}},
		{id: 7, alg: sparkshuffle.Adler32, parts: [][]int{{4}, {2, 9}, nil, {6}}},
		{id: 100, alg: sparkshuffle.Adler32, parts: [][]int{nil, nil, nil, nil}}, // no data file
	}},
	3: {codec: framing.Zstd, maps: []shuffleMap{
		{id: 5, alg: sparkshuffle.CRC32, parts: [][]int{{3}, {4}}},
		{id: 9, parts: [][]int{{2}, nil}}, // no checksum file
	}},
	5: {codec: framing.Snappy, maps: []shuffleMap{
		{id: 2, alg: sparkshuffle.CRC32C, parts: slices.Repeat([][]int{{1}, nil, {3}, {2}, {1}}, 4)},
	}},
}

func newShuffleFixture(t *testing.T) *shuffleFixture {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	fx := &shuffleFixture{folder: shuffletest.New(t, 2), paths: map[[2]int64]shuffletest.Paths{}, rows: map[[3]int64][]shuffletest.Key{}, spec: cliShuffles}
	fx.dirs = fx.folder.LocalDirs
	for sh, spec := range cliShuffles {
		for _, m := range spec.maps {
			out := shuffletest.MapOutput{Shuffle: sh, Map: m.id, Checksum: m.alg}
			for p, spills := range m.parts {
				seg, keys := shuffletest.Spills(t, mem, spec.codec, p, m.id, spills...)
				out.Segments = append(out.Segments, seg)
				fx.rows[[3]int64{int64(sh), int64(p), m.id}] = keys
			}
			fx.paths[[2]int64{int64(sh), m.id}] = fx.folder.Write(t, out)
		}
	}
	return fx
}

// want is the rows of partitions first..last of shuffle sh in the order
// shuffle decode writes them: by partition, then map id numerically.
func (fx *shuffleFixture) want(sh, first, last int) []shuffletest.Key {
	var ids []int64
	for _, m := range fx.spec[sh].maps {
		ids = append(ids, m.id)
	}
	slices.Sort(ids)
	var keys []shuffletest.Key
	for p := first; p <= last; p++ {
		for _, id := range ids {
			keys = append(keys, fx.rows[[3]int64{int64(sh), int64(p), id}]...)
		}
	}
	return keys
}

var shuffleSchemaDDL = func() string {
	s, err := ddl.FormatDDL(shuffletest.Schema)
	if err != nil {
		panic(err)
	}
	return s
}()

// requireShuffleRows checks that an Arrow IPC stream holds exactly the
// rows keys, value by value.
func requireShuffleRows(t *testing.T, stream []byte, keys []shuffletest.Key) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := ipc.NewReader(bytes.NewReader(stream), ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer r.Release()
	require.True(t, r.Schema().Equal(shuffletest.Schema), "schema %v", r.Schema())
	n := 0
	for r.Next() {
		rec := r.RecordBatch()
		for _, c := range rec.Columns() {
			require.NoError(t, array.ValidateFull(c))
		}
		for i := range int(rec.NumRows()) {
			require.Less(t, n, len(keys), "more rows than written")
			shuffletest.Check(t, rec, i, keys[n])
			n++
		}
	}
	require.NoError(t, r.Err())
	require.Equal(t, len(keys), n, "rows")
}

func decodeArgs(fx *shuffleFixture, extra ...string) []string {
	args := append([]string{"shuffle", "decode", "--schema", shuffleSchemaDDL}, extra...)
	return append(args, fx.dirs...)
}

func TestShuffleDecodePartitions(t *testing.T) {
	fx := newShuffleFixture(t)
	cases := []struct {
		name        string
		args        []string
		sh          int
		first, last int
	}{
		{"all", []string{"--shuffle", "0"}, 0, 0, 3},
		{"one", []string{"--shuffle", "0", "--partition", "3"}, 0, 3, 3},
		{"an empty one", []string{"--shuffle", "0", "--partition", "2", "--batch-rows", "1"}, 0, 2, 2},
		{"a range", []string{"--shuffle", "0", "--partitions", "1-2"}, 0, 1, 2},
		{"a range of one", []string{"--shuffle", "3", "--partitions", "1"}, 3, 1, 1},
		{"codec named", []string{"--shuffle", "3", "--codec", "zstd"}, 3, 0, 1},
		{"many partitions", []string{"--shuffle", "5", "--partitions", "3-17", "--batch-rows", "2"}, 5, 3, 17},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := fx.want(tc.sh, tc.first, tc.last)
			if tc.name != "an empty one" {
				require.NotEmpty(t, want)
			}
			var outputs [][]byte
			for _, workers := range []string{"1", "2", "5"} {
				out, stderr, code := cli(t, nil, decodeArgs(fx, append(tc.args, "--workers", workers)...)...)
				require.Equal(t, 0, code, stderr)
				require.Empty(t, stderr)
				requireShuffleRows(t, out, want)
				outputs = append(outputs, out)
			}
			require.Equal(t, outputs[0], outputs[1], "workers 1 and 2 write the same bytes")
			require.Equal(t, outputs[0], outputs[2], "workers 1 and 5 write the same bytes")
		})
	}
}

func TestShuffleDecodeJSONLAndArrowFile(t *testing.T) {
	fx := newShuffleFixture(t)
	jsonl, stderr, code := cli(t, nil, decodeArgs(fx, "--shuffle", "0", "--to", "jsonl", "--workers", "2")...)
	require.Equal(t, 0, code, stderr)
	// The same rows as decode --to jsonl makes of the same rows in one stream.
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var want []byte
	keys := fx.want(0, 0, 3)
	for i, k := range keys {
		rec := shuffletest.Rows(mem, k.Part, k.Map, int(k.Seq), 1)
		want = append(appendRowJSON(want, rec, 0), '\n')
		rec.Release()
		_ = i
	}
	require.Equal(t, string(want), string(jsonl))

	// An Arrow IPC file, to -o.
	path := filepath.Join(t.TempDir(), "rows.arrow")
	out, stderr, code := cli(t, nil, decodeArgs(fx, "--shuffle", "0", "--partitions", "0-1", "--to", "arrow-file", "-o", path)...)
	require.Equal(t, 0, code, stderr)
	require.Empty(t, out)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	r, err := ipc.NewFileReader(bytes.NewReader(b), ipc.WithAllocator(mem))
	require.NoError(t, err)
	keys = fx.want(0, 0, 1)
	n := 0
	for i := range r.NumRecords() {
		rec, err := r.RecordBatch(i)
		require.NoError(t, err)
		for j := range int(rec.NumRows()) {
			shuffletest.Check(t, rec, j, keys[n])
			n++
		}
	}
	require.Equal(t, len(keys), n)
	require.NoError(t, r.Close())
}

// The only shuffle of a folder needs no --shuffle.
func TestShuffleDecodeOnlyShuffle(t *testing.T) {
	fx := newShuffleFixture(t)
	// A blockmgr folder of its own, holding shuffle 3 only: copy its files.
	dir := t.TempDir()
	for _, m := range cliShuffles[3].maps {
		p := fx.paths[[2]int64{3, m.id}]
		for _, f := range []string{p.Index, p.Data, p.Checksum} {
			if f != "" {
				b, err := os.ReadFile(f)
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644))
			}
		}
	}
	out, stderr, code := cli(t, nil, "shuffle", "decode", "--schema", shuffleSchemaDDL, dir)
	require.Equal(t, 0, code, stderr)
	requireShuffleRows(t, out, fx.want(3, 0, 1))
}

func TestShuffleDecodeUsageErrors(t *testing.T) {
	fx := newShuffleFixture(t)
	dirs := strings.Join(fx.dirs, ", ")
	withDirs := func(args ...string) []string {
		return append(append([]string{"decode", "--schema", shuffleSchemaDDL}, args...), fx.dirs...)
	}
	see := " (see 'rowbridge shuffle decode -h')"
	requireFailures(t, "shuffle", []cliFailure{
		{name: "no dir", args: []string{"decode", "--schema", "id INT"}, code: 2, msg: "rowbridge shuffle decode: no DIR given (…"},
		{name: "no schema", args: []string{"decode", fx.dirs[0]}, code: 2, msg: "rowbridge shuffle decode: --schema is required (for example --schema 'id BIGINT, name STRING')" + see},
		{name: "empty schema", args: []string{"decode", "--schema", " ", fx.dirs[0]}, code: 2, msg: "rowbridge shuffle decode: bad schema: it is empty (a schema of no columns is written struct<>)" + see},
		{name: "reversed range", args: withDirs("--shuffle", "0", "--partitions", "3-1"), code: 2, msg: "rowbridge shuffle decode: --partitions 3-1: the last partition is below the first" + see},
		{name: "bad range", args: withDirs("--shuffle", "0", "--partitions", "1-x"), code: 2, msg: `rowbridge shuffle decode: --partitions "1-x": want A-B, the first and last partition (for example 0-3), or one partition` + see},
		{name: "negative range", args: withDirs("--shuffle", "0", "--partitions", "-1-2"), code: 2, msg: `rowbridge shuffle decode: --partitions "-1-2": want …`},
		{name: "both partition flags", args: withDirs("--shuffle", "0", "--partition", "1", "--partitions", "1-2"), code: 2, msg: "rowbridge shuffle decode: --partition and --partitions exclude each other" + see},
		{name: "negative partition", args: withDirs("--shuffle", "0", "--partition", "-1"), code: 2, msg: `rowbridge shuffle decode: invalid value "-1" for flag -partition: want a number, 0 or more` + see},
		{name: "partition beyond the shuffle", args: withDirs("--shuffle", "0", "--partition", "4"), code: 2, msg: "rowbridge shuffle decode: --partition 4: shuffle 0 has partitions 0-3" + see},
		{name: "range beyond the shuffle", args: withDirs("--shuffle", "3", "--partitions", "1-2"), code: 2, msg: "rowbridge shuffle decode: --partitions 1-2: shuffle 3 has partitions 0-1" + see},
		{name: "workers 0", args: withDirs("--shuffle", "0", "--workers", "0"), code: 2, msg: "rowbridge shuffle decode: --workers 0: want at least 1" + see},
		{name: "batch rows 0", args: withDirs("--shuffle", "0", "--batch-rows", "0"), code: 2, msg: "rowbridge shuffle decode: --batch-rows 0: want at least 1" + see},
		{name: "velox codec", args: withDirs("--shuffle", "0", "--codec", "zlib"), code: 2, msg: "rowbridge shuffle decode: --codec zlib: Spark's codecs are lz4, snappy, zstd and lzf (or auto, none)" + see},
		{name: "unknown codec", args: withDirs("--shuffle", "0", "--codec", "brotli"), code: 2, msg: "rowbridge shuffle decode: unknown --codec \"brotli\": Spark's codecs are lz4, snappy, zstd and lzf (or auto, none)" + see},
		{name: "unknown checksum policy", args: withDirs("--shuffle", "0", "--checksum", "skip"), code: 2, msg: `rowbridge shuffle decode: unknown --checksum "skip" (want verify or ignore)` + see},
		{name: "unknown output", args: withDirs("--shuffle", "0", "--to", "csv"), code: 2, msg: `rowbridge shuffle decode: unknown --to "csv" (want arrow-stream, arrow-file, jsonl or parquet)` + see},
		{name: "several shuffles", args: withDirs(), code: 2, msg: "rowbridge shuffle decode: --shuffle is required: " + dirs + " hold shuffles 0, 3, 5" + see},
		{name: "unknown shuffle", args: withDirs("--shuffle", "4"), code: 1, msg: "rowbridge shuffle decode: --shuffle 4: no such shuffle in " + dirs + " (shuffles found: 0, 3, 5)"},
		{name: "missing dir", args: []string{"decode", "--schema", "id INT", filepath.Join(fx.dirs[0], "nope")}, code: 1, msg: "rowbridge shuffle decode: stat " + filepath.Join(fx.dirs[0], "nope") + ": no such file or directory"},
		{name: "empty dir", args: []string{"decode", "--schema", "id INT", t.TempDir()}, code: 1, msg: "rowbridge shuffle decode: no shuffle files in …"},
		{name: "output is an input", args: withDirs("--shuffle", "0", "-o", fx.paths[[2]int64{0, 7}].Data), code: 2, msg: "rowbridge shuffle decode: -o " + fx.paths[[2]int64{0, 7}].Data + " is the input …"},
		{name: "no subcommand", args: nil, code: 2, msg: "rowbridge shuffle: a command is required (see 'rowbridge shuffle -h')"},
		{name: "unknown subcommand", args: []string{"cat", fx.dirs[0]}, code: 2, msg: `rowbridge shuffle: unknown command "cat" (see 'rowbridge shuffle -h')`},
	})
}

// corruptByte flips a byte of a file in place.
func corruptByte(t *testing.T, path string, off int64) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	b[off] ^= 0x5a
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

func TestShuffleDecodeChecksumMismatch(t *testing.T) {
	fx := newShuffleFixture(t)
	paths := fx.paths[[2]int64{0, 7}]
	// Partition 1's recorded checksum is wrong.
	corruptByte(t, paths.Checksum, 1*8+7)
	out, stderr, code := cli(t, nil, decodeArgs(fx, "--shuffle", "0", "--partition", "1", "--to", "jsonl")...)
	require.Equal(t, 1, code, stderr)
	requireStderrLine(t, stderr, "rowbridge shuffle decode: "+paths.Data+": shuffle 0, map 7, partition 1: checksum mismatch: ADLER32 of the segment is …")
	require.Contains(t, stderr, paths.Checksum+" records ")
	// The segments before the failing one were written (map 7 comes first).
	require.Empty(t, out)

	out, stderr, code = cli(t, nil, decodeArgs(fx, "--shuffle", "0", "--partition", "1", "--checksum", "ignore")...)
	require.Equal(t, 0, code, stderr)
	requireShuffleRows(t, out, fx.want(0, 1, 1))
}

func TestShuffleDecodeCorruptSegment(t *testing.T) {
	fx := newShuffleFixture(t)
	// Map 9 of shuffle 3 has no checksum file: the codec finds the damage.
	paths := fx.paths[[2]int64{3, 9}]
	data, err := os.ReadFile(paths.Data)
	require.NoError(t, err)
	corruptByte(t, paths.Data, int64(len(data))/2)
	for _, workers := range []string{"1", "2"} {
		out, stderr, code := cli(t, nil, decodeArgs(fx, "--shuffle", "3", "--partition", "0", "--to", "jsonl", "--workers", workers)...)
		require.Equal(t, 1, code, stderr)
		requireStderrLine(t, stderr, fmt.Sprintf("rowbridge shuffle decode: %s: shuffle 3, map 9, partition 0 (zstd, bytes 0-%d), …", paths.Data, len(data)))
		require.Regexp(t, `\), (file|decompressed) byte \d+`, stderr)
		// The rows of map 5 came first, then map 9's before the damage.
		lines := bytes.Count(out, []byte("\n"))
		require.GreaterOrEqual(t, lines, 3)
		require.Less(t, lines, 5)
	}

	// An lz4 segment whose block checksum fails, past the checksum files.
	paths = fx.paths[[2]int64{0, 12}]
	set, err := sparkshuffle.Open(fx.dirs...)
	require.NoError(t, err)
	sh, err := set.Shuffle(0)
	require.NoError(t, err)
	m := sh.Maps[1]
	require.Equal(t, int64(12), m.Map)
	off := m.Offsets[2] + 30 // inside partition 2's first block
	corruptByte(t, paths.Data, off)
	_, stderr, code := cli(t, nil, decodeArgs(fx, "--shuffle", "0", "--checksum", "ignore", "-o", os.DevNull)...)
	require.Equal(t, 1, code, stderr)
	requireStderrLine(t, stderr, fmt.Sprintf("rowbridge shuffle decode: %s: shuffle 0, map 12, partition 2 (lz4, bytes %d-%d), file byte %d, …", paths.Data, m.Offsets[2], m.Offsets[3], m.Offsets[2]))
}

func TestShuffleDecodeFailureKeepsOutputFile(t *testing.T) {
	fx := newShuffleFixture(t)
	out := filepath.Join(t.TempDir(), "rows.arrow")
	require.NoError(t, os.WriteFile(out, []byte("precious"), 0o640))
	corruptByte(t, fx.paths[[2]int64{0, 100}].Checksum, 3*8+7)
	_, stderr, code := cli(t, nil, decodeArgs(fx, "--shuffle", "0", "-o", out)...)
	require.Equal(t, 1, code, stderr)
	requireStderrLine(t, stderr, "rowbridge shuffle decode: "+fx.paths[[2]int64{0, 100}].Index+": shuffle 0, map 100, partition 3: checksum mismatch: …")
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "precious", string(b))
	entries, err := os.ReadDir(filepath.Dir(out))
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary file is left")

	// Success replaces it.
	_, stderr, code = cli(t, nil, decodeArgs(fx, "--shuffle", "0", "--checksum", "ignore", "-o", out)...)
	require.Equal(t, 0, code, stderr)
	b, err = os.ReadFile(out)
	require.NoError(t, err)
	requireShuffleRows(t, b, fx.want(0, 0, 3))
}

func TestShuffleLsJSON(t *testing.T) {
	fx := newShuffleFixture(t)
	out, stderr, code := cli(t, nil, append([]string{"shuffle", "ls", "--json"}, fx.dirs...)...)
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr)
	var l shuffleListing
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&l))
	require.Equal(t, 1, l.Version)
	require.Equal(t, fx.dirs, l.Dirs)
	require.Len(t, l.Shuffles, 3)
	str := func(s string) *string { return &s }

	s0 := l.Shuffles[0]
	require.Equal(t, 0, s0.ID)
	require.Equal(t, 4, s0.Partitions)
	require.Equal(t, str("lz4"), s0.Codec)
	require.Empty(t, s0.CodecError)
	require.Equal(t, checksumSummary{Status: "verified", Algorithms: []string{"ADLER32"}, Maps: 3, Segments: 12, Failures: []checksumFailure{}}, s0.Checksums)
	require.Len(t, s0.Maps, 3)
	var total int64
	for i, id := range []int64{7, 12, 100} { // numerically
		m := s0.Maps[i]
		p := fx.paths[[2]int64{0, id}]
		require.Equal(t, id, m.Map)
		require.Equal(t, p.Index, m.Index)
		require.Equal(t, p.Checksum, *m.ChecksumFile)
		require.Equal(t, str("ADLER32"), m.Algorithm)
		var sum int64
		for _, n := range m.PartitionBytes {
			sum += n
		}
		require.Equal(t, sum, m.Bytes)
		total += sum
		if id == 100 {
			require.Nil(t, m.Data)
			require.Equal(t, []int64{0, 0, 0, 0}, m.PartitionBytes)
			require.Equal(t, 0, m.NonEmptyPartitions)
			continue
		}
		require.Equal(t, p.Data, *m.Data)
		st, err := os.Stat(p.Data)
		require.NoError(t, err)
		require.Equal(t, st.Size(), m.Bytes)
		require.Equal(t, 3, m.NonEmptyPartitions)
	}
	require.Equal(t, total, s0.Bytes)
	for p := range 4 {
		require.Equal(t, s0.Maps[0].PartitionBytes[p]+s0.Maps[1].PartitionBytes[p], s0.PartitionBytes[p])
	}
	require.Equal(t, 0, s0.EmptyPartitions)
	sorted := slices.Sorted(slices.Values(s0.PartitionBytes))
	require.Equal(t, float64(sorted[1]+sorted[2])/2, s0.MedianPartitionBytes)
	require.Equal(t, sorted[3], s0.PartitionBytes[s0.LargestPartition])
	require.InDelta(t, float64(sorted[3])/s0.MedianPartitionBytes, s0.Skew, 1e-9)

	s3 := l.Shuffles[1]
	require.Equal(t, 3, s3.ID)
	require.Equal(t, str("zstd"), s3.Codec)
	require.Equal(t, checksumSummary{Status: "verified", Algorithms: []string{"CRC32"}, Maps: 1, Segments: 2, Failures: []checksumFailure{}}, s3.Checksums)
	require.Nil(t, s3.Maps[1].ChecksumFile)
	require.Nil(t, s3.Maps[1].Algorithm)

	s5 := l.Shuffles[2]
	require.Equal(t, 5, s5.ID)
	require.Equal(t, 20, s5.Partitions)
	require.Len(t, s5.PartitionBytes, 20)
	require.Equal(t, 4, s5.EmptyPartitions)
	require.Equal(t, str("snappy"), s5.Codec)
	require.Equal(t, "verified", s5.Checksums.Status)
	require.Equal(t, []string{"CRC32C"}, s5.Checksums.Algorithms)

	// --checksum ignore reads no segment.
	out, stderr, code = cli(t, nil, append([]string{"shuffle", "ls", "--json", "--checksum", "ignore"}, fx.dirs...)...)
	require.Equal(t, 0, code, stderr)
	require.NoError(t, json.Unmarshal(out, &l))
	require.Equal(t, checksumSummary{Status: "unchecked", Algorithms: []string{"ADLER32"}, Maps: 3, Failures: []checksumFailure{}}, l.Shuffles[0].Checksums)
}

func TestShuffleLsTable(t *testing.T) {
	fx := newShuffleFixture(t)
	out, stderr, code := cli(t, nil, append([]string{"shuffle", "ls"}, fx.dirs...)...)
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr)
	set, err := sparkshuffle.Open(fx.dirs...)
	require.NoError(t, err)
	sh, err := set.Shuffle(0)
	require.NoError(t, err)
	sizes := sh.PartitionSizes()
	m7, m12 := sh.Maps[0], sh.Maps[1]
	text := string(out)
	blocks := strings.Split(text, "\n\n")
	require.Len(t, blocks, 3, text)
	lines := strings.Split(blocks[0], "\n")
	require.Equal(t, fmt.Sprintf("shuffle 0: 3 map outputs, 4 partitions, %d B", sh.Size()), lines[0])
	require.Equal(t, "  codec:       lz4", lines[1])
	require.Equal(t, "  checksums:   ADLER32, all 12 segments verify", lines[2])
	sorted := slices.Sorted(slices.Values(sizes))
	require.Equal(t, fmt.Sprintf("  skew:        %.2f (largest partition 2: %d B; median %d B)", sh.Skew(), sizes[2], (sorted[1]+sorted[2])/2), lines[3], "partition 2 holds 20 rows")
	require.Equal(t, fmt.Sprintf("  partitions:  0: %d B, 1: %d B, 2: %d B, 3: %d B", sizes[0], sizes[1], sizes[2], sizes[3]), lines[4])
	require.Regexp(t, `^  map  partitions +bytes  data file$`, lines[5])
	require.Regexp(t, fmt.Sprintf(`^    7      3 of 4 +%d B  %s$`, m7.Size(), m7.DataPath), lines[6])
	require.Regexp(t, fmt.Sprintf(`^   12      3 of 4 +%d B  %s$`, m12.Size(), m12.DataPath), lines[7])
	require.Regexp(t, `^  100      0 of 4 +0 B  none \(every partition empty\)$`, lines[8])

	require.Contains(t, blocks[1], "shuffle 3: 2 map outputs, 2 partitions, ")
	require.Contains(t, blocks[1], "\n  codec:       zstd\n")
	require.Contains(t, blocks[1], "\n  checksums:   CRC32 (1 of 2 map outputs have a checksum file), all 2 segments verify\n")

	// Many partitions: a summary.
	require.Contains(t, blocks[2], "shuffle 5: 1 map output, 20 partitions (4 empty), ")
	sh5, err := set.Shuffle(5)
	require.NoError(t, err)
	sizes5 := sh5.PartitionSizes()
	order := []int{}
	for p := range sizes5 {
		order = append(order, p)
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(sizes5[b] - sizes5[a]) })
	sorted5 := slices.Sorted(slices.Values(sizes5))
	require.Contains(t, blocks[2], fmt.Sprintf("\n  partitions:  smallest 0 B, median %d B, largest %d (%d B), %d (%d B), %d (%d B) (--json lists every one)\n",
		(sorted5[9]+sorted5[10])/2, order[0], sizes5[order[0]], order[1], sizes5[order[1]], order[2], sizes5[order[2]]))
	require.Contains(t, blocks[2], "\n  checksums:   CRC32C, all 20 segments verify\n")

	// An empty folder.
	empty := t.TempDir()
	out, stderr, code = cli(t, nil, "shuffle", "ls", empty)
	require.Equal(t, 1, code, stderr)
	require.Empty(t, out)
	require.Equal(t, "rowbridge shuffle ls: no shuffle files in "+empty+"\n", stderr)
	out, stderr, code = cli(t, nil, "shuffle", "ls", "--json", empty)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, string(out), `"shuffles": []`)
	require.Equal(t, "rowbridge shuffle ls: no shuffle files in "+empty+"\n", stderr)
}

func TestShuffleLsReportsMismatches(t *testing.T) {
	fx := newShuffleFixture(t)
	paths := fx.paths[[2]int64{0, 12}]
	corruptByte(t, paths.Checksum, 2*8+7)
	out, stderr, code := cli(t, nil, append([]string{"shuffle", "ls"}, fx.dirs...)...)
	require.Equal(t, 1, code, "a mismatch fails the listing, as sha256sum -c does")
	requireStderrLine(t, stderr, "rowbridge shuffle ls: 1 problem found (listed above); the first: "+paths.Data+": shuffle 0, map 12, partition 2: checksum mismatch: …")
	require.Contains(t, string(out), "\n  checksums:   ADLER32, 1 of 12 segments FAIL (first: map 12, partition 2)\n")

	out, _, code = cli(t, nil, append([]string{"shuffle", "ls", "--json"}, fx.dirs...)...)
	require.Equal(t, 1, code)
	var l shuffleListing
	require.NoError(t, json.Unmarshal(out, &l))
	c := l.Shuffles[0].Checksums
	require.Equal(t, "mismatch", c.Status)
	require.Len(t, c.Failures, 1)
	f := c.Failures[0]
	require.Equal(t, int64(12), f.Map)
	require.Equal(t, 2, f.Partition)
	require.Equal(t, paths.Data, f.File)
	require.Equal(t, paths.Checksum, f.ChecksumFile)
	b, err := os.ReadFile(paths.Checksum)
	require.NoError(t, err)
	require.Equal(t, int64(binary.BigEndian.Uint64(b[16:])), *f.Want)
	require.Equal(t, *f.Want^0x5a, *f.Got)

	// Bad index: one line naming the file, exit 1.
	require.NoError(t, os.WriteFile(fx.paths[[2]int64{3, 5}].Index, []byte{1, 2, 3}, 0o644))
	_, stderr, code = cli(t, nil, append([]string{"shuffle", "ls"}, fx.dirs...)...)
	require.Equal(t, 1, code)
	requireStderrLine(t, stderr, "rowbridge shuffle ls: "+fx.paths[[2]int64{3, 5}].Index+": invalid index file: 3 bytes is not (partitions+1) x 8")
}

// The progress bar counts the on-disk bytes of the selected segments.
func TestShuffleDecodeProgressCountsSegmentBytes(t *testing.T) {
	fx := newShuffleFixture(t)
	set, err := sparkshuffle.Open(fx.dirs...)
	require.NoError(t, err)
	sh, err := set.Shuffle(0)
	require.NoError(t, err)
	schema := shuffletest.Schema
	sink, err := newSink(toJSONL)
	require.NoError(t, err)
	sizes := sh.PartitionSizes()
	for _, workers := range []int{1, 2} {
		var bar bytes.Buffer
		prog := newProgress(&bar, "shuffle decode", sizes[1]+sizes[2], 0, 0)
		opts := []sparkshuffle.Option{sparkshuffle.WithPartitions(1, 2), sparkshuffle.WithWorkers(workers), sparkshuffle.WithBatchRows(3)}
		var out bytes.Buffer
		require.NoError(t, decodeShuffle(sh, schema, opts, sink, &out, prog))
		require.Equal(t, sizes[1]+sizes[2], prog.bytes, "workers %d", workers)
		require.Equal(t, int64(len(fx.want(0, 1, 2))), prog.rows)
		require.Contains(t, bar.String(), "shuffle decode: ")
		prog.done()
	}
}

func TestShuffleLsReportsUnknownCodec(t *testing.T) {
	fx := newShuffleFixture(t)
	paths := fx.paths[[2]int64{3, 9}] // no checksum file
	f, err := os.OpenFile(paths.Data, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte{0xff, 0xff, 0xff, 0x10, 'x'}, 0)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	out, stderr, code := cli(t, nil, append([]string{"shuffle", "ls", "--json"}, fx.dirs...)...)
	require.Equal(t, 1, code)
	requireStderrLine(t, stderr, "rowbridge shuffle ls: 1 problem found (listed above); the first: "+paths.Data+": shuffle 3, map 9, partition 0 (bytes 0-…")
	var l shuffleListing
	require.NoError(t, json.Unmarshal(out, &l))
	require.Equal(t, 3, l.Shuffles[1].ID)
	require.Nil(t, l.Shuffles[1].Codec)
	require.Contains(t, l.Shuffles[1].CodecError, paths.Data)
	require.Equal(t, "verified", l.Shuffles[1].Checksums.Status, "map 5's checksums still verify")
	require.Equal(t, "lz4", *l.Shuffles[0].Codec, "the other shuffles are listed")

	out, _, code = cli(t, nil, append([]string{"shuffle", "ls"}, fx.dirs...)...)
	require.Equal(t, 1, code)
	require.Contains(t, string(out), "\n  codec:       UNKNOWN: "+paths.Data+": shuffle 3, map 9, partition 0 ")
}

// Degenerate shuffles: no partitions at all, and most partitions empty.
func TestShuffleWithoutPartitions(t *testing.T) {
	folder := shuffletest.New(t, 1)
	folder.Write(t, shuffletest.MapOutput{Shuffle: 9, Map: 1, Checksum: sparkshuffle.CRC32}) // an index of one offset
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	seg, keys := shuffletest.Spills(t, mem, framing.LZ4, 2, 4, 3)
	folder.Write(t, shuffletest.MapOutput{Shuffle: 10, Map: 4, Segments: [][]byte{nil, nil, seg}})
	dir := folder.LocalDirs[0]

	out, stderr, code := cli(t, nil, "shuffle", "ls", dir)
	require.Equal(t, 0, code, stderr)
	blocks := strings.Split(string(out), "\n\n")
	require.Len(t, blocks, 2)
	require.True(t, strings.HasPrefix(blocks[0], "shuffle 9: 1 map output, 0 partitions, 0 B\n  codec:       - (no bytes)\n  checksums:   CRC32, all 0 segments verify\n  skew:        - (no partitions)\n  partitions:  none\n"), blocks[0])
	require.Contains(t, blocks[1], "\n  skew:        - (the median partition is empty)\n")
	require.Contains(t, blocks[1], "\n  checksums:   none (no checksum files)\n")

	_, stderr, code = cli(t, nil, "shuffle", "decode", "--schema", shuffleSchemaDDL, "--shuffle", "9", "--partition", "0", dir)
	require.Equal(t, 2, code)
	requireStderrLine(t, stderr, "rowbridge shuffle decode: --partition 0: shuffle 9 has no partitions (see 'rowbridge shuffle decode -h')")
	out, stderr, code = cli(t, nil, "shuffle", "decode", "--schema", shuffleSchemaDDL, "--shuffle", "9", dir)
	require.Equal(t, 0, code, stderr)
	requireShuffleRows(t, out, nil)
	out, stderr, code = cli(t, nil, "shuffle", "decode", "--schema", shuffleSchemaDDL, "--shuffle", "10", "--partitions", "1-2", dir)
	require.Equal(t, 0, code, stderr)
	requireShuffleRows(t, out, keys)
}
