package sparkshuffle_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/require"
)

var (
	writeCodecs     = []framing.Codec{framing.LZ4, framing.None, framing.Snappy, framing.Zstd, framing.LZF}
	writeAlgorithms = []sparkshuffle.Algorithm{sparkshuffle.Adler32, sparkshuffle.CRC32, sparkshuffle.CRC32C, sparkshuffle.NoChecksum}
)

// writeCase is a map output written from random batches.
type writeCase struct {
	schema     *arrow.Schema
	batches    []arrow.RecordBatch
	partitions [][]int32 // per batch, per row
	numParts   int
	codec      framing.Codec
	alg        sparkshuffle.Algorithm
	spill      int64
}

func (c *writeCase) release() {
	for _, b := range c.batches {
		b.Release()
	}
}

// randomWriteCase makes a case of several batches of a random nested
// schema with nulls at every level, rows spread over some of numParts
// partitions (so some stay empty).
func randomWriteCase(mem memory.Allocator, r *rand.Rand, codec framing.Codec, alg sparkshuffle.Algorithm) *writeCase {
	c := &writeCase{schema: testgen.RandomSchema(r), numParts: 1 + r.Intn(9), codec: codec, alg: alg}
	c.spill = []int64{0, 0, 1, 7, 50}[r.Intn(5)]
	used := make([]int32, 0, c.numParts)
	for p := range c.numParts {
		if p == 0 || r.Intn(3) > 0 {
			used = append(used, int32(p))
		}
	}
	for range 1 + r.Intn(4) {
		n := []int{0, 1, 17, 300}[r.Intn(4)]
		c.batches = append(c.batches, testgen.RandomBatch(mem, r, c.schema, n))
		parts := make([]int32, n)
		for i := range parts {
			parts[i] = used[r.Intn(len(used))]
		}
		c.partitions = append(c.partitions, parts)
	}
	return c
}

func (c *writeCase) options() []sparkshuffle.WriterOption {
	return []sparkshuffle.WriterOption{sparkshuffle.WithWriteCodec(c.codec),
		sparkshuffle.WithWriteChecksum(c.alg), sparkshuffle.WithSpillRows(c.spill)}
}

func (c *writeCase) write(t *testing.T, dir string, shuffle int, mapID int64, opts ...sparkshuffle.WriterOption) *sparkshuffle.MapOutputWriter {
	t.Helper()
	w, err := sparkshuffle.NewMapOutputWriter(dir, shuffle, mapID, c.numParts, c.schema, append(c.options(), opts...)...)
	require.NoError(t, err)
	for i, b := range c.batches {
		require.NoError(t, w.Write(b, c.partitions[i]))
	}
	require.NoError(t, w.Close())
	return w
}

// partitionRows is the input's rows of partition p, in input order, each
// as its Spark-flavour encoding.
func (c *writeCase) partitionRows(t *testing.T, p int) [][]byte {
	t.Helper()
	enc, err := unsaferow.NewEncoder(c.schema)
	require.NoError(t, err)
	var out [][]byte
	for i, b := range c.batches {
		rows, err := enc.Encode(b)
		require.NoError(t, err)
		for j, q := range c.partitions[i] {
			if int(q) == p {
				out = append(out, rows.Row(j))
			}
		}
	}
	return out
}

// partitionBatch is the input's rows of partition p as one batch.
func (c *writeCase) partitionBatch(t *testing.T, mem memory.Allocator, p int) arrow.RecordBatch {
	t.Helper()
	var slices []arrow.RecordBatch
	for i, b := range c.batches {
		for j, q := range c.partitions[i] {
			if int(q) == p {
				slices = append(slices, b.NewSlice(int64(j), int64(j+1)))
			}
		}
	}
	rec := concatBatches(t, mem, c.schema, slices)
	for _, s := range slices {
		s.Release()
	}
	return rec
}

func concatBatches(t *testing.T, mem memory.Allocator, schema *arrow.Schema, recs []arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	cols := make([]arrow.Array, schema.NumFields())
	var n int64
	for _, r := range recs {
		n += r.NumRows()
	}
	for i := range cols {
		if len(recs) == 0 {
			b := array.NewBuilder(mem, schema.Field(i).Type)
			cols[i] = b.NewArray()
			b.Release()
			continue
		}
		parts := make([]arrow.Array, len(recs))
		for j, r := range recs {
			parts[j] = r.Column(i)
		}
		var err error
		cols[i], err = array.Concatenate(parts, mem)
		require.NoError(t, err)
	}
	rec := array.NewRecordBatch(schema, cols, n)
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// wantSegment is what partition p's segment must be: the framed rows, one
// codec stream per spill.
func (c *writeCase) wantSegment(t *testing.T, p int) []byte {
	t.Helper()
	rows := c.partitionRows(t, p)
	var seg []byte
	for lo := 0; lo < len(rows); {
		hi := len(rows)
		if c.spill > 0 {
			hi = min(hi, lo+int(c.spill))
		}
		var framed []byte
		for _, row := range rows[lo:hi] {
			framed = binary.BigEndian.AppendUint32(framed, uint32(len(row)))
			framed = append(framed, row...)
		}
		var buf bytes.Buffer
		s, err := framing.NewStreamWriter(&buf, c.codec)
		require.NoError(t, err)
		_, err = s.Write(framed)
		require.NoError(t, err)
		require.NoError(t, s.Close())
		seg = append(seg, buf.Bytes()...)
		lo = hi
	}
	return seg
}

// checkFiles requires the files in dir to be exactly what Spark writes
// for the case: the index of the segment lengths, the data file of the
// segments (none if all are empty), the checksum file.
func (c *writeCase) checkFiles(t *testing.T, dir string, shuffle int, mapID int64, out *sparkshuffle.MapOutput) {
	t.Helper()
	var data []byte
	lengths := make([]int64, c.numParts)
	sums := make([]int64, c.numParts)
	for p := range c.numParts {
		seg := c.wantSegment(t, p)
		lengths[p] = int64(len(seg))
		data = append(data, seg...)
		if c.alg != sparkshuffle.NoChecksum {
			sums[p] = c.alg.Checksum(seg)
		}
	}
	want := map[string][]byte{sparkshuffle.IndexName(shuffle, mapID): sparkshuffle.AppendIndex(nil, lengths)}
	if len(data) > 0 {
		want[sparkshuffle.DataName(shuffle, mapID)] = data
	}
	if c.alg != sparkshuffle.NoChecksum {
		want[sparkshuffle.ChecksumName(shuffle, mapID, c.alg)] = sparkshuffle.AppendChecksums(nil, sums)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Len(t, names, len(want), "files in the folder: %v", names)
	for name, b := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, name)
		require.True(t, bytes.Equal(b, got), "%s: %d bytes, want %d bytes equal to the encoder's framed, compressed rows", name, len(got), len(b))
	}
	require.Equal(t, filepath.Join(dir, sparkshuffle.IndexName(shuffle, mapID)), out.IndexPath)
	require.Equal(t, int64(len(data)), out.Size())
	if len(data) == 0 {
		require.Empty(t, out.DataPath)
	}
}

// TestWriterRoundTrip writes random nested batches with every codec and
// checksum algorithm, spills and empty partitions, requires the files to
// be byte for byte the encoder's framed and compressed rows with Spark's
// index and checksums, and reads every partition back with Open and
// NewReader, value for value; some cases sync (WithSync), some keep the
// partitions in memory, some in temporary files, some move there partway
// (WithWriteMemory).
func TestWriterRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewSource(9))
	for i := range 40 {
		codec, alg := writeCodecs[i%len(writeCodecs)], writeAlgorithms[(i/len(writeCodecs))%len(writeAlgorithms)]
		c := randomWriteCase(mem, r, codec, alg)
		t.Run(fmt.Sprintf("%d/%v/%v/spill=%d", i, codec, alg, c.spill), func(t *testing.T) {
			dir := t.TempDir()
			// The same files synced or not, and whether the partitions
			// stay in memory, go to temporary files from the start, or
			// move there partway.
			budget := []int64{sparkshuffle.DefaultWriteMemory, 0, 700, 5000}[i%4]
			w := c.write(t, dir, 3, int64(i), sparkshuffle.WithSync(i%3 == 0), sparkshuffle.WithWriteMemory(budget))
			c.checkFiles(t, dir, 3, int64(i), w.Output())
			rows := w.PartitionRows()
			set, err := sparkshuffle.Open(dir)
			require.NoError(t, err)
			require.NoError(t, set.Shuffles()[0].VerifyChecksums())
			for p := range c.numParts {
				want := c.partitionBatch(t, mem, p)
				require.Equal(t, want.NumRows(), rows[p], "PartitionRows()[%d]", p)
				rd, err := set.NewReader(3, c.schema, sparkshuffle.WithPartition(p), sparkshuffle.WithAllocator(mem), sparkshuffle.WithBatchRows(64))
				require.NoError(t, err)
				var got []arrow.RecordBatch
				for rd.Next() {
					rec := rd.RecordBatch()
					testgen.ValidateBatch(t, rec)
					rec.Retain()
					got = append(got, rec)
				}
				require.NoError(t, rd.Err())
				rd.Release()
				all := concatBatches(t, mem, c.schema, got)
				testgen.EqualBatches(t, want, all)
				for _, g := range got {
					g.Release()
				}
				all.Release()
				want.Release()
			}
		})
		c.release()
	}
}

// TestWriterAllEmpty: a map output with no rows has an all-zero index, a
// checksum file of empty values (Adler32's is 1) and no data file, as
// Spark's LocalDiskShuffleMapOutputWriter commits it.
func TestWriterAllEmpty(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	w, err := sparkshuffle.NewMapOutputWriter(dir, 0, 0, 4, schema)
	require.NoError(t, err)
	empty := testgen.RandomBatch(mem, rand.New(rand.NewSource(1)), schema, 0)
	defer empty.Release()
	require.NoError(t, w.Write(empty, nil))
	require.NoError(t, w.Close())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2)
	idx, err := os.ReadFile(filepath.Join(dir, "shuffle_0_0_0.index"))
	require.NoError(t, err)
	require.Equal(t, make([]byte, 40), idx)
	sums, err := os.ReadFile(filepath.Join(dir, "shuffle_0_0_0.checksum.ADLER32"))
	require.NoError(t, err)
	require.Equal(t, bytes.Repeat([]byte{0, 0, 0, 0, 0, 0, 0, 1}, 4), sums)
	require.Empty(t, w.Output().DataPath)
	set, err := sparkshuffle.Open(dir)
	require.NoError(t, err)
	require.NoError(t, set.Shuffles()[0].VerifyChecksums())
}

// TestWriterDefaults: lz4 with 32 KiB blocks and ADLER32, as Spark.
func TestWriterDefaults(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewSource(5))
	c := randomWriteCase(mem, r, framing.LZ4, sparkshuffle.Adler32)
	defer c.release()
	c.spill = 0
	dir := t.TempDir()
	w, err := sparkshuffle.NewMapOutputWriter(dir, 1, 2, c.numParts, c.schema)
	require.NoError(t, err)
	for i, b := range c.batches {
		require.NoError(t, w.Write(b, c.partitions[i]))
	}
	require.NoError(t, w.Close())
	c.checkFiles(t, dir, 1, 2, w.Output())
	head, err := os.ReadFile(w.Output().IndexPath)
	require.NoError(t, err)
	require.Len(t, head, 8*(c.numParts+1))
}

// TestWriterLargePartition writes more than a chunk of rows and several
// codec blocks to one partition, in batches larger than the writer's
// encoding chunk.
func TestWriterLargePartition(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}, {Name: "i", Type: arrow.PrimitiveTypes.Int32}}, nil)
	c := &writeCase{schema: schema, numParts: 3, codec: framing.LZ4, alg: sparkshuffle.CRC32C}
	defer c.release()
	r := rand.New(rand.NewSource(3))
	for _, n := range []int{70000, 150000} {
		c.batches = append(c.batches, testgen.RandomBatch(mem, r, schema, n))
		parts := make([]int32, n)
		for i := range parts {
			parts[i] = int32(i % 5 / 2) // 0, 0, 1, 1, 2
		}
		c.partitions = append(c.partitions, parts)
	}
	dir := t.TempDir()
	w := c.write(t, dir, 0, 0)
	c.checkFiles(t, dir, 0, 0, w.Output())
}

func requireEmptyDir(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Empty(t, names, "the folder must be left empty")
}

func TestWriterBadOptions(t *testing.T) {
	dir := t.TempDir()
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}}, nil)
	for _, tc := range []struct {
		name       string
		dir        string
		shuffle    int
		mapID      int64
		partitions int
		schema     *arrow.Schema
		opts       []sparkshuffle.WriterOption
		want       string
	}{
		{name: "no partitions", partitions: 0, want: "0 partitions, want 1 to 16777216"},
		{name: "too many partitions", partitions: 1<<24 + 1, want: "16777217 partitions"},
		{name: "negative shuffle", shuffle: -1, want: "shuffle id -1"},
		{name: "negative map", mapID: -3, want: "map id -3"},
		{name: "auto codec", opts: []sparkshuffle.WriterOption{sparkshuffle.WithWriteCodec(framing.Auto)}, want: "cannot write codec auto"},
		{name: "zlib codec", opts: []sparkshuffle.WriterOption{sparkshuffle.WithWriteCodec(framing.Zlib)}, want: "cannot write codec zlib"},
		{name: "checksum", opts: []sparkshuffle.WriterOption{sparkshuffle.WithWriteChecksum(9)}, want: "unknown checksum algorithm"},
		{name: "spill", opts: []sparkshuffle.WriterOption{sparkshuffle.WithSpillRows(-1)}, want: "spill rows -1"},
		{name: "write memory", opts: []sparkshuffle.WriterOption{sparkshuffle.WithWriteMemory(-1)}, want: "write memory -1"},
		{name: "block size", opts: []sparkshuffle.WriterOption{sparkshuffle.WithStreamOptions(framing.WithBlockSize(10))}, want: "lz4 block size 10"},
		{name: "zstd block size", opts: []sparkshuffle.WriterOption{sparkshuffle.WithWriteCodec(framing.Zstd), sparkshuffle.WithStreamOptions(framing.WithBlockSize(1 << 10))}, want: "zstd streams have no block size"},
		{name: "missing dir", dir: filepath.Join(dir, "nope"), want: "no such file or directory"},
		{name: "unsupported type", schema: arrow.NewSchema([]arrow.Field{{Name: "h", Type: arrow.FixedWidthTypes.Time32ms}}, nil), want: "unsupported type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, s, p := dir, schema, tc.partitions
			if tc.dir != "" {
				d = tc.dir
			}
			if tc.schema != nil {
				s = tc.schema
			}
			if p == 0 && tc.name != "no partitions" {
				p = 2
			}
			_, err := sparkshuffle.NewMapOutputWriter(d, tc.shuffle, tc.mapID, p, s, tc.opts...)
			require.ErrorContains(t, err, tc.want)
			if tc.name == "unsupported type" {
				require.ErrorIs(t, err, rowbridge.ErrUnsupportedType)
			}
			requireEmptyDir(t, dir)
		})
	}
}

// TestWriterExisting: an existing map output is refused unless
// overwriting; overwriting replaces every file of the old one.
func TestWriterExisting(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewSource(11))
	c := randomWriteCase(mem, r, framing.Snappy, sparkshuffle.CRC32)
	defer c.release()
	c.batches = append(c.batches, testgen.RandomBatch(mem, r, c.schema, 5))
	c.partitions = append(c.partitions, []int32{0, 0, 0, 0, 0})
	dir := t.TempDir()
	c.write(t, dir, 0, 7)
	before, err := os.ReadFile(filepath.Join(dir, sparkshuffle.IndexName(0, 7)))
	require.NoError(t, err)

	_, err = sparkshuffle.NewMapOutputWriter(dir, 0, 7, c.numParts, c.schema)
	require.ErrorIs(t, err, sparkshuffle.ErrExists)
	var fe *sparkshuffle.FileError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, filepath.Join(dir, "shuffle_0_7_0.index"), fe.Path)
	// Another map id is no conflict.
	w, err := sparkshuffle.NewMapOutputWriter(dir, 0, 8, c.numParts, c.schema)
	require.NoError(t, err)
	w.Abort()
	after, err := os.ReadFile(filepath.Join(dir, sparkshuffle.IndexName(0, 7)))
	require.NoError(t, err)
	require.Equal(t, before, after)

	// A second writer that started before the first committed fails on Close.
	w1, err := sparkshuffle.NewMapOutputWriter(dir, 0, 9, c.numParts, c.schema)
	require.NoError(t, err)
	w2, err := sparkshuffle.NewMapOutputWriter(dir, 0, 9, c.numParts, c.schema)
	require.NoError(t, err)
	require.NoError(t, w1.Close())
	require.ErrorIs(t, w2.Close(), sparkshuffle.ErrExists)

	// Overwrite with an all-empty output of another algorithm: no data
	// file, no CRC32 file are left of the old one.
	w, err = sparkshuffle.NewMapOutputWriter(dir, 0, 7, c.numParts, c.schema, sparkshuffle.WithOverwrite(true))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	for _, name := range []string{"shuffle_0_7_0.data", "shuffle_0_7_0.checksum.CRC32"} {
		_, err := os.Stat(filepath.Join(dir, name))
		require.ErrorIs(t, err, os.ErrNotExist, name)
	}
	set, err := sparkshuffle.Open(dir)
	require.NoError(t, err)
	sh, err := set.Shuffle(0)
	require.NoError(t, err)
	require.Len(t, sh.Maps, 2)
	require.Equal(t, sparkshuffle.Adler32, sh.Maps[0].Algorithm)
	require.Zero(t, sh.Maps[0].Size())

	// A directory in the way is refused up front, even overwriting.
	require.NoError(t, os.Mkdir(filepath.Join(dir, "shuffle_0_10_0.data"), 0o755))
	_, err = sparkshuffle.NewMapOutputWriter(dir, 0, 10, 1, c.schema, sparkshuffle.WithOverwrite(true))
	require.ErrorContains(t, err, "is a directory")
}

// TestWriterFailureLeavesNothing: an error in the middle of writing
// (a value the encoder refuses, a bad partition number, a row count that
// does not match) aborts the writer and leaves the folder empty; so does
// Abort.
func TestWriterFailureLeavesNothing(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dec := &arrow.Decimal128Type{Precision: 5, Scale: 0}
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}, {Name: "d", Type: dec, Nullable: true}}, nil)
	good := testgen.RandomBatch(mem, rand.New(rand.NewSource(2)), schema, 200)
	defer good.Release()
	b := array.NewRecordBuilder(mem, schema)
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"a", "b", "c"}, nil)
	db := b.Field(1).(*array.Decimal128Builder)
	db.Append(decimal128.FromI64(1))
	db.Append(decimal128.FromI64(123456)) // six digits in DECIMAL(5,0)
	db.AppendNull()
	bad := b.NewRecordBatch()
	b.Release()
	defer bad.Release()
	spread := func(n int) []int32 {
		p := make([]int32, n)
		for i := range p {
			p[i] = int32(i % 3)
		}
		return p
	}
	for _, tc := range []struct {
		name  string
		batch arrow.RecordBatch
		parts []int32
		want  string
	}{
		{"encode error", bad, spread(3), "batch row 1"},
		{"partition out of range", good, append(spread(199), 3), "row 199 goes to partition 3, want 0 to 2"},
		{"negative partition", good, append([]int32{-1}, spread(199)...), "row 0 goes to partition -1"},
		{"row count", good, spread(10), "10 partition numbers for a batch of 200 rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			w, err := sparkshuffle.NewMapOutputWriter(dir, 0, 0, 3, schema, sparkshuffle.WithSpillRows(10))
			require.NoError(t, err)
			require.NoError(t, w.Write(good, spread(200)))
			err = w.Write(tc.batch, tc.parts)
			require.ErrorContains(t, err, tc.want)
			require.Equal(t, err, w.Write(good, spread(200)), "the writer stays failed")
			require.Equal(t, err, w.Close())
			w.Abort()
			requireEmptyDir(t, dir)
		})
	}
	t.Run("abort", func(t *testing.T) {
		dir := t.TempDir()
		w, err := sparkshuffle.NewMapOutputWriter(dir, 0, 0, 3, schema)
		require.NoError(t, err)
		require.NoError(t, w.Write(good, spread(200)))
		w.Abort()
		requireEmptyDir(t, dir)
		require.ErrorIs(t, w.Close(), sparkshuffle.ErrAborted)
		require.ErrorIs(t, w.Write(good, spread(200)), sparkshuffle.ErrAborted)
	})
	t.Run("closed", func(t *testing.T) {
		dir := t.TempDir()
		w, err := sparkshuffle.NewMapOutputWriter(dir, 0, 0, 3, schema)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		require.ErrorContains(t, w.Write(good, spread(200)), "already closed")
		require.ErrorContains(t, w.Close(), "already closed")
		w.Abort() // does nothing after a commit
		_, err = os.Stat(filepath.Join(dir, "shuffle_0_0_0.index"))
		require.NoError(t, err)
	})
}
