package interop

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/sparkhash"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/require"
)

// goMapOutput is a map output rowbridge wrote and what each partition
// must hold: the Spark-framed records of the rows the hash sent there.
type goMapOutput struct {
	name   string
	codec  framing.Codec
	alg    sparkshuffle.Algorithm
	schema *arrow.Schema
	out    *sparkshuffle.MapOutput
	dir    string
	want   [][]byte // per partition: records (size, row) in input order
	rows   []int
}

// TestJavaReadsGoShuffle writes map outputs with sparkshuffle's
// MapOutputWriter (random nested schemas with nulls at every level,
// partitioned by sparkhash's HashPartitioner on the hashable columns,
// several batches, every codec and checksum algorithm, spills, empty
// partitions, an all-empty output) and has java/ShuffleCheck.java read
// them as a Spark reducer does: it checks the index against the data
// file, each checksum with java.util.zip, and decompresses each segment
// with the Java library's input stream as Spark configures it. The
// records Java gets must be the Spark-flavour encoder's rows of the rows
// whose Spark hash (computed here with sparkhash.Hash and pmod) is the
// partition, in input order; rowbridge's reader must decode the same.
func TestJavaReadsGoShuffle(t *testing.T) {
	java, classpath := requireJava(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewSource(77))
	codecs := []framing.Codec{framing.LZ4, framing.Snappy, framing.Zstd, framing.LZF, framing.None}
	algs := []sparkshuffle.Algorithm{sparkshuffle.Adler32, sparkshuffle.CRC32, sparkshuffle.CRC32C, sparkshuffle.NoChecksum}
	root := t.TempDir()
	var outputs []*goMapOutput
	for i := range 2 * len(codecs) {
		codec, alg := codecs[i%len(codecs)], algs[i%len(algs)]
		spill := int64(0)
		if i >= len(codecs) {
			spill = 13 // several streams per segment, as a fast spill merge leaves them
		}
		batchRows := []int{200, 0, 1500, 37}
		if i == len(codecs)-1 {
			batchRows = []int{0} // no rows at all: no data file
		}
		outputs = append(outputs, writeGoMapOutput(t, mem, r, filepath.Join(root, fmt.Sprint(i)), codec, alg, spill, batchRows))
	}

	var manifest strings.Builder
	for _, o := range outputs {
		data, sums := o.out.DataPath, o.out.ChecksumPath
		if data == "" {
			data = "-"
		}
		if sums == "" {
			sums = "-"
		}
		codec := o.codec.String()
		fmt.Fprintf(&manifest, "%s\t%s\t%s\t%s\t%s\t%s\n", codec, algName(o.alg), o.out.IndexPath, data, sums, filepath.Join(o.dir, "java"))
	}
	// Controls: Java must notice a wrong checksum and a data file that
	// does not match the index.
	o := outputs[0]
	sums, err := os.ReadFile(o.out.ChecksumPath)
	require.NoError(t, err)
	sums[len(sums)-1] ^= 1
	badSums := filepath.Join(root, "bad.checksum")
	require.NoError(t, os.WriteFile(badSums, sums, 0o644))
	data, err := os.ReadFile(o.out.DataPath)
	require.NoError(t, err)
	shortData := filepath.Join(root, "short.data")
	require.NoError(t, os.WriteFile(shortData, data[:len(data)-1], 0o644))
	fmt.Fprintf(&manifest, "lz4\tADLER32\t%s\t%s\t%s\t%s\n", o.out.IndexPath, o.out.DataPath, badSums, filepath.Join(root, "bad"))
	fmt.Fprintf(&manifest, "lz4\tADLER32\t%s\t%s\t-\t%s\n", o.out.IndexPath, shortData, filepath.Join(root, "short"))
	manifestPath := filepath.Join(root, "manifest.tsv")
	require.NoError(t, os.WriteFile(manifestPath, []byte(manifest.String()), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, java, "-cp", classpath, "ShuffleCheck", manifestPath)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "java ShuffleCheck: %s", stderr.String())
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	require.Len(t, lines, len(outputs)+2, "one line per map output: %s", stdout.String())
	require.Regexp(t, `^error .*partition \d+: ADLER32 \d+, checksum file \d+$`, lines[len(outputs)])
	require.Regexp(t, `^error .*index ends at \d+, data file has \d+ bytes$`, lines[len(outputs)+1])

	for i, o := range outputs {
		t.Run(o.name, func(t *testing.T) {
			counts := make([]string, len(o.want))
			for p, n := range o.rows {
				counts[p] = fmt.Sprint(n)
			}
			require.Equal(t, "ok "+strings.Join(counts, ","), lines[i], "Java's check and its record count per partition")
			total := 0
			for p := range o.want {
				got, err := os.ReadFile(filepath.Join(o.dir, fmt.Sprintf("java.%d", p)))
				require.NoError(t, err)
				require.True(t, bytes.Equal(o.want[p], got), "partition %d: Java decompressed %d bytes, want the encoder's %d bytes of records", p, len(got), len(o.want[p]))
				total += o.rows[p]
			}
			if o.out.DataPath == "" {
				require.Zero(t, total)
			}
			requireReaderRows(t, mem, o)
		})
	}
}

func algName(a sparkshuffle.Algorithm) string {
	if a == sparkshuffle.NoChecksum {
		return "none"
	}
	return a.String()
}

// writeGoMapOutput writes one map output of random batches into dir and
// works out independently what each partition must hold.
func writeGoMapOutput(t *testing.T, mem memory.Allocator, r *rand.Rand, dir string, codec framing.Codec, alg sparkshuffle.Algorithm, spill int64, batchRows []int) *goMapOutput {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	schema := testgen.RandomSchema(r)
	var keys []int
	for i, f := range schema.Fields() {
		if sparkhash.Check(f.Name, f.Type) == nil && len(keys) < 2 {
			keys = append(keys, i)
		}
	}
	numParts := 2 + r.Intn(7)
	o := &goMapOutput{name: fmt.Sprintf("%s/%s/spill=%d/%d-partitions/keys=%v", codec, algName(alg), spill, numParts, keys),
		codec: codec, alg: alg, schema: schema, dir: dir, want: make([][]byte, numParts), rows: make([]int, numParts)}
	var part interface {
		Partitions(arrow.RecordBatch, []int32) ([]int32, error)
	}
	var err error
	if len(keys) > 0 {
		part, err = sparkhash.NewHashPartitioner(numParts, keys)
	} else {
		part, err = sparkhash.NewRoundRobinPartitioner(numParts, 0)
	}
	require.NoError(t, err)
	w, err := sparkshuffle.NewMapOutputWriter(dir, 5, 11, numParts, schema, sparkshuffle.WithWriteCodec(codec),
		sparkshuffle.WithWriteChecksum(alg), sparkshuffle.WithSpillRows(spill))
	require.NoError(t, err)
	enc, err := unsaferow.NewEncoder(schema)
	require.NoError(t, err)
	seen := 0
	for _, n := range batchRows {
		rec := testgen.RandomBatch(mem, r, schema, n)
		parts, err := part.Partitions(rec, nil)
		require.NoError(t, err)
		require.NoError(t, w.Write(rec, parts))
		want := expectedPartitions(t, mem, rec, keys, numParts, seen)
		seen += n
		rows, err := enc.Encode(rec)
		require.NoError(t, err)
		for i, p := range want {
			row := rows.Row(i)
			o.want[p] = binary.BigEndian.AppendUint32(o.want[p], uint32(len(row)))
			o.want[p] = append(o.want[p], row...)
			o.rows[p]++
		}
		rec.Release()
	}
	require.NoError(t, w.Close())
	o.out = w.Output()
	return o
}

// expectedPartitions is Spark's partition of each row: pmod(hash(keys),
// n) with the hash from sparkhash.Hash, or round robin from 0 (first
// carries the rows dealt before) without keys.
func expectedPartitions(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch, keys []int, n, first int) []int {
	t.Helper()
	out := make([]int, rec.NumRows())
	if len(keys) == 0 || rec.NumRows() == 0 {
		for i := range out {
			out[i] = (first + i) % n
		}
		return out
	}
	cols := make([]arrow.Array, len(keys))
	for i, k := range keys {
		cols[i] = rec.Column(k)
	}
	h, err := sparkhash.Hash(mem, cols, 42)
	require.NoError(t, err)
	defer h.Release()
	for i := range out {
		out[i] = ((int(h.Value(i)) % n) + n) % n
	}
	return out
}

// requireReaderRows decodes each partition with sparkshuffle's reader
// and requires the re-encoded rows to be the expected records.
func requireReaderRows(t *testing.T, mem memory.Allocator, o *goMapOutput) {
	t.Helper()
	set, err := sparkshuffle.Open(o.dir)
	require.NoError(t, err)
	enc, err := unsaferow.NewEncoder(o.schema)
	require.NoError(t, err)
	for p := range o.want {
		rd, err := set.NewReader(5, o.schema, sparkshuffle.WithPartition(p), sparkshuffle.WithAllocator(mem))
		require.NoError(t, err)
		var got []byte
		for rd.Next() {
			rows, err := enc.Encode(rd.RecordBatch())
			require.NoError(t, err)
			for i := range rows.Len() {
				got = binary.BigEndian.AppendUint32(got, uint32(len(rows.Row(i))))
				got = append(got, rows.Row(i)...)
			}
		}
		require.NoError(t, rd.Err())
		rd.Release()
		require.True(t, bytes.Equal(o.want[p], got), "partition %d through rowbridge's reader", p)
	}
}
