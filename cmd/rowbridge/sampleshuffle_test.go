package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/require"
)

// The bundled sample shuffle, testdata/sample/shuffle: one Spark local
// dir with one blockmgr folder, shuffle 0 of three map tasks (attempt ids
// 7, 12 and 100: 100 sorts before 12 as text, after it as a number), four
// reduce partitions of which partition 2 is empty, lz4 segments, ADLER32
// checksum files. The segments were compressed by lz4-java and the files
// written by interop/java/SampleShuffle.java (scripts/make-sample-shuffle);
// this file holds the rows they were made from.
var sampleRecords = flag.String("sample-shuffle-records", "", "write the sample shuffle's uncompressed records and manifest for interop/java/SampleShuffle.java into this folder (scripts/make-sample-shuffle)")

const (
	sampleShuffleDir        = "../../testdata/sample/shuffle"
	sampleShuffleID         = 0
	sampleBlockMgr          = "blockmgr-5f0c3a7e-2b9d-4c61-8e3f-a1d27b64c098"
	sampleShufflePartitions = 4
)

var sampleShuffleMaps = []int64{7, 12, 100}

// sampleShuffleJSON is the input of the sample shuffle's map tasks: the
// five rows of the bundled sample and seven more, each with the map task
// that wrote it and the reduce partition it went to.
var sampleShuffleRows = []struct {
	mapID int64
	part  int
	row   string
}{
	{7, 0, `{"id":1,"name":"espresso","price":"2.50","tags":["hot","small"],"attrs":[{"key":"shots","value":1}],"seen":"2024-03-01T08:15:00Z","active":true}`},
	{7, 1, `{"id":2,"name":"cappuccino","price":"3.75","tags":["hot","milk"],"attrs":[{"key":"shots","value":2},{"key":"milk_ml","value":150}],"seen":"2024-03-01T08:20:30.5Z","active":true}`},
	{7, 3, `{"id":3,"name":null,"price":"0.99","tags":[],"attrs":null,"seen":null,"active":false}`},
	{7, 0, `{"id":4,"name":"iced latte","price":"4.20","tags":["cold",null],"attrs":[{"key":"shots","value":2}],"seen":"2024-03-02T14:00:00Z","active":null}`},
	{12, 1, `{"id":5,"name":"matcha","price":null,"tags":null,"attrs":[],"seen":"2024-03-03T09:45:12.123456Z","active":true}`},
	{12, 3, `{"id":6,"name":"flat white","price":"3.90","tags":["hot","milk"],"attrs":[{"key":"shots","value":2},{"key":"milk_ml","value":120}],"seen":"2024-03-03T10:02:00Z","active":true}`},
	{12, 3, `{"id":7,"name":"americano","price":"2.80","tags":["hot"],"attrs":[{"key":"shots","value":2},{"key":"water_ml","value":200}],"seen":"2024-03-03T10:05:41Z","active":true}`},
	{12, 3, `{"id":8,"name":"cold brew","price":"4.50","tags":["cold"],"attrs":[],"seen":"2024-03-04T07:30:00Z","active":false}`},
	{100, 0, `{"id":9,"name":"mocha","price":"4.10","tags":["hot","milk","sweet"],"attrs":[{"key":"shots","value":1}],"seen":null,"active":true}`},
	{100, 1, `{"id":10,"name":"cortado","price":"3.20","tags":["hot","small","milk"],"attrs":[{"key":"shots","value":2},{"key":"milk_ml","value":60}],"seen":"2024-03-04T11:11:11.111Z","active":null}`},
	{100, 1, `{"id":11,"name":"chai latte","price":null,"tags":["hot","milk","spiced"],"attrs":null,"seen":"2024-03-05T16:45:00Z","active":true}`},
	{100, 3, `{"id":12,"name":"affogato","price":"5.00","tags":["cold","sweet"],"attrs":[{"key":"shots","value":1},{"key":"gelato_g","value":80}],"seen":"2024-03-05T20:00:00.25Z","active":true}`},
}

// sampleShuffleOrder is the ids in the order shuffle decode writes them:
// partition 0 (maps 7, 100), 1 (7, 12, 100), 3 (7, 12, 100).
var sampleShuffleOrder = []int64{1, 4, 9, 2, 5, 10, 11, 3, 6, 7, 8, 12}

// sampleShuffleRecord is row i of sampleShuffleRows as a batch of one.
func sampleShuffleRecord(t *testing.T, mem memory.Allocator, schema *arrow.Schema, i int) arrow.RecordBatch {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader("["+sampleShuffleRows[i].row+"]"))
	require.NoError(t, err)
	return rec
}

// sampleSegmentRecords is the uncompressed records of each (map, partition)
// of the sample: UnsafeRowSerializer's size-prefixed UnsafeRows.
func sampleSegmentRecords(t *testing.T, mem memory.Allocator) map[[2]int64][]byte {
	t.Helper()
	schema, err := ddl.Parse(sampleDDL)
	require.NoError(t, err)
	segs := map[[2]int64][]byte{}
	for i, r := range sampleShuffleRows {
		rec := sampleShuffleRecord(t, mem, schema, i)
		var buf bytes.Buffer
		w, err := unsaferow.NewWriter(&buf, schema, unsaferow.WithAllocator(mem))
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
		require.NoError(t, w.Close())
		rec.Release()
		k := [2]int64{r.mapID, int64(r.part)}
		segs[k] = append(segs[k], buf.Bytes()...)
	}
	return segs
}

// TestSampleShuffleIsCurrent checks the bundled sample shuffle: where
// Spark puts its files, what they hold (ADLER32 of each segment, lz4
// streams whose records are exactly the rows above). With
// -sample-shuffle-records DIR it writes the records for
// scripts/make-sample-shuffle instead.
func TestSampleShuffleIsCurrent(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	segs := sampleSegmentRecords(t, mem)
	if *sampleRecords != "" {
		writeSampleRecords(t, *sampleRecords, segs)
		return
	}
	schemaFile, err := os.ReadFile(filepath.Join(sampleShuffleDir, "schema.ddl"))
	require.NoError(t, err)
	require.Equal(t, sampleDDL, string(schemaFile), "the sample shuffle has the sample's columns")

	set, err := sparkshuffle.Open(sampleShuffleDir)
	require.NoError(t, err)
	shuffles := set.Shuffles()
	require.Len(t, shuffles, 1)
	sh := shuffles[0]
	require.Equal(t, sampleShuffleID, sh.ID)
	require.Equal(t, sampleShufflePartitions, sh.Partitions)
	require.Equal(t, []sparkshuffle.Algorithm{sparkshuffle.Adler32}, sh.Algorithms())
	require.NoError(t, sh.VerifyChecksums())
	codec, err := sh.SniffCodec()
	require.NoError(t, err)
	require.Equal(t, framing.LZ4, codec)
	require.Equal(t, int64(0), sh.PartitionSizes()[2], "partition 2 is empty")
	var total int64
	require.Len(t, sh.Maps, len(sampleShuffleMaps))
	for i, m := range sh.Maps {
		require.Equal(t, sampleShuffleMaps[i], m.Map)
		for _, path := range []string{m.IndexPath, m.DataPath, m.ChecksumPath} {
			_, sub := sparkshuffle.Placement(filepath.Base(path), 1, sparkshuffle.SubDirsPerLocalDir)
			require.Equal(t, filepath.Join(sampleShuffleDir, sampleBlockMgr, sparkshuffle.SubDirName(sub), filepath.Base(path)), path, "placed by Spark's hash")
			st, err := os.Stat(path)
			require.NoError(t, err)
			total += st.Size()
		}
		data, err := os.ReadFile(m.DataPath)
		require.NoError(t, err)
		for p := range sh.Partitions {
			seg := data[m.Offsets[p]:m.Offsets[p+1]]
			want := segs[[2]int64{m.Map, int64(p)}]
			if len(want) == 0 {
				require.Empty(t, seg, "map %d, partition %d", m.Map, p)
				require.Equal(t, int64(1), m.Checksums[p], "Adler32 of nothing")
				continue
			}
			require.True(t, bytes.HasPrefix(seg, []byte("LZ4Block")), "map %d, partition %d is lz4-java's", m.Map, p)
			r, err := framing.NewStreamReader(bytes.NewReader(seg), framing.LZ4)
			require.NoError(t, err)
			got, err := io.ReadAll(r)
			require.NoError(t, err)
			require.Equal(t, want, got, "map %d, partition %d: the records of the rows above; run scripts/make-sample-shuffle", m.Map, p)
		}
	}
	require.Less(t, total, int64(8<<10), "a few KB")
}

// writeSampleRecords writes each segment's records and the manifest of
// interop/java/SampleShuffle.java.
func writeSampleRecords(t *testing.T, dir string, segs map[[2]int64][]byte) {
	require.NoError(t, os.MkdirAll(dir, 0o755))
	var manifest strings.Builder
	for _, m := range sampleShuffleMaps {
		fmt.Fprintf(&manifest, "%d\t%d", sampleShuffleID, m)
		for p := range sampleShufflePartitions {
			path := filepath.Join(dir, fmt.Sprintf("map%d-part%d.records", m, p))
			require.NoError(t, os.WriteFile(path, segs[[2]int64{m, int64(p)}], 0o644))
			fmt.Fprintf(&manifest, "\t%s", path)
		}
		manifest.WriteString("\n")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "manifest.tsv"), []byte(manifest.String()), 0o644))
}

// TestSampleShuffleDecodes decodes the bundled sample as the README does
// and checks every value of every row, in order.
func TestSampleShuffleDecodes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema, err := ddl.Parse(sampleDDL)
	require.NoError(t, err)
	byID := map[int64]int{}
	for i := range sampleShuffleRows {
		rec := sampleShuffleRecord(t, mem, schema, i)
		byID[rec.Column(0).(*array.Int64).Value(0)] = i
		rec.Release()
	}
	var want []byte
	for _, id := range sampleShuffleOrder {
		rec := sampleShuffleRecord(t, mem, schema, byID[id])
		want = append(appendRowJSON(want, rec, 0), '\n')
		rec.Release()
	}
	t.Chdir("../..")
	for _, workers := range []string{"1", "2"} {
		out, stderr, code := cli(t, nil, "shuffle", "decode", "--schema", "@testdata/sample/shuffle/schema.ddl", "--workers", workers, "--to", "jsonl", "testdata/sample/shuffle")
		require.Equal(t, 0, code, stderr)
		require.Equal(t, string(want), string(out))
	}
	// The first rows, spelled out: partition 0 holds ids 1 and 4 of map 7, then 9 of map 100.
	lines := strings.SplitN(string(want), "\n", 4)
	require.Equal(t, `{"id":1,"name":"espresso","price":2.50,"tags":["hot","small"],"attrs":[{"key":"shots","value":1}],"seen":"2024-03-01T08:15:00Z","active":true}`, lines[0])
	require.Equal(t, `{"id":4,"name":"iced latte","price":4.20,"tags":["cold",null],"attrs":[{"key":"shots","value":2}],"seen":"2024-03-02T14:00:00Z","active":null}`, lines[1])
	require.Equal(t, `{"id":9,"name":"mocha","price":4.10,"tags":["hot","milk","sweet"],"attrs":[{"key":"shots","value":1}],"seen":null,"active":true}`, lines[2])

	// One partition, as Arrow: partition 3 is ids 3 (map 7), 6, 7, 8 (map 12), 12 (map 100).
	out, stderr, code := cli(t, nil, "shuffle", "decode", "--schema", "@testdata/sample/shuffle/schema.ddl", "--partition", "3", "testdata/sample/shuffle")
	require.Equal(t, 0, code, stderr)
	r, err := ipc.NewReader(bytes.NewReader(out), ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer r.Release()
	var ids []int64
	for r.Next() {
		rec := r.RecordBatch()
		for _, c := range rec.Columns() {
			require.NoError(t, array.ValidateFull(c))
		}
		for i := range int(rec.NumRows()) {
			ids = append(ids, rec.Column(0).(*array.Int64).Value(i))
		}
	}
	require.NoError(t, r.Err())
	require.Equal(t, []int64{3, 6, 7, 8, 12}, ids)

	// The README shows the start of shuffle ls on the sample.
	out, stderr, code = cli(t, nil, "shuffle", "ls", "testdata/sample/shuffle")
	require.Equal(t, 0, code, stderr)
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	_, shown, ok := strings.Cut(string(readme), "its output for the sample\nstarts:\n\n```\n")
	require.True(t, ok, "the README shows shuffle ls")
	shown, _, _ = strings.Cut(shown, "```")
	require.True(t, strings.HasPrefix(string(out), shown), "README:\n%s\nshuffle ls:\n%s", shown, out)
}

// TestSampleShuffleCorruptions flips bytes of the sample's files: every
// run of shuffle ls and shuffle decode succeeds or fails with one line and
// exit 1, never a panic (exit 70).
func TestSampleShuffleCorruptions(t *testing.T) {
	var files []string
	require.NoError(t, filepath.WalkDir(sampleShuffleDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "shuffle_") {
			files = append(files, path)
		}
		return err
	}))
	require.Len(t, files, 9)
	rng := rand.New(rand.NewPCG(8, 9))
	for i := range 150 {
		dir := t.TempDir()
		require.NoError(t, os.CopyFS(dir, os.DirFS(sampleShuffleDir)))
		victim := filepath.Join(dir, strings.TrimPrefix(files[i%len(files)], sampleShuffleDir))
		b, err := os.ReadFile(victim)
		require.NoError(t, err)
		for range 1 + rng.IntN(3) {
			b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
		}
		require.NoError(t, os.WriteFile(victim, b, 0o644))
		for _, args := range [][]string{
			{"shuffle", "ls", dir},
			{"shuffle", "decode", "--schema", sampleDDL, "--to", "jsonl", dir},
			{"shuffle", "decode", "--schema", sampleDDL, "--checksum", "ignore", "--workers", "2", dir},
		} {
			_, stderr, code := cli(t, nil, args...)
			require.Contains(t, []int{0, 1}, code, "%v on %s: %s", args, victim, stderr)
			if code == 1 {
				require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
			}
		}
	}
}
