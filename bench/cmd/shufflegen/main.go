// Command shufflegen writes the shuffle folders of the shuffle benchmark
// (scripts/bench-shuffle, docs/benchmarks.md): one Spark local dir holding
// a blockmgr-<uuid> folder, each file in the hex sub-folder Spark's hash
// gives it, with MAPS map outputs of PARTITIONS lz4 segments of ROWS
// UnsafeRows each, framed as UnsafeRowSerializer writes them, compressed
// as Spark's LZ4CompressionCodec does (lz4-java block streams of 32 KiB
// blocks), with an index and an ADLER32 checksum file per map output.
//
//	shufflegen --shape fixed|strings [--maps 4] [--partitions 4] [--rows 50000] [--seed 1] DIR
//
// The data is deterministic for a seed and compresses as real columns do:
// keys, timestamps and categories compress well, hashes and amounts do not.
// On success it prints one line of key=value facts for the script:
// rows, segments, compressed (on-disk segment bytes), uncompressed (the
// framed records lz4 decompresses to) and schema (Spark DDL).
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

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/rowbridge/rowbridge/unsaferow"
)

func main() {
	var o options
	flag.StringVar(&o.shape, "shape", "", "fixed (5 BIGINT + 5 INT) or strings (a 50-byte STRING + a BIGINT)")
	flag.IntVar(&o.maps, "maps", 4, "map outputs")
	flag.IntVar(&o.partitions, "partitions", 4, "reduce partitions of each map output")
	flag.IntVar(&o.rows, "rows", 50000, "rows per segment")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the data")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: shufflegen --shape fixed|strings [--maps 4] [--partitions 4] [--rows 50000] [--seed 1] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	o.dir = flag.Arg(0)
	facts, err := generate(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "shufflegen:", err)
		os.Exit(1)
	}
	fmt.Println(facts)
}

type options struct {
	shape            string
	maps, partitions int
	rows             int
	seed             uint64
	dir              string
}

// Facts are what the script needs to know of a generated shuffle.
type Facts struct {
	Rows, Segments           int
	Compressed, Uncompressed int64
	Schema                   string
}

func (f Facts) String() string {
	return fmt.Sprintf("rows=%d segments=%d compressed=%d uncompressed=%d schema=%s",
		f.Rows, f.Segments, f.Compressed, f.Uncompressed, f.Schema)
}

// shape makes the rows of one segment.
type shape struct {
	schema *arrow.Schema
	fill   func(b *array.RecordBuilder, rng *rand.Rand, first int64, n int)
}

var shapes = map[string]shape{
	"fixed":   {fixedSchema, fillFixed},
	"strings": {stringsSchema, fillStrings},
}

var fixedSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "hash", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "ts", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "qty", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "cents", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "code", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "cat", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "store", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "day", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "delta", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
}, nil)

// fillFixed: a sequential key, a 64-bit hash, microsecond timestamps
// rising with jitter, small quantities, skewed amounts, a random 32-bit
// code, a category of 100, a store of 10,000, a date within a year and a
// signed 21-bit delta.
func fillFixed(b *array.RecordBuilder, rng *rand.Rand, first int64, n int) {
	ts := int64(1_767_225_600_000_000) + first*1_000
	for i := range n {
		ts += rng.Int64N(2_000)
		b.Field(0).(*array.Int64Builder).Append(first + int64(i))
		b.Field(1).(*array.Int64Builder).Append(int64(rng.Uint64()))
		b.Field(2).(*array.Int64Builder).Append(ts)
		b.Field(3).(*array.Int64Builder).Append(rng.Int64N(1_000_000))
		b.Field(4).(*array.Int64Builder).Append(rng.Int64N(1_000) * rng.Int64N(1_000_000))
		b.Field(5).(*array.Int32Builder).Append(int32(rng.Uint32()))
		b.Field(6).(*array.Int32Builder).Append(rng.Int32N(100))
		b.Field(7).(*array.Int32Builder).Append(rng.Int32N(10_000))
		b.Field(8).(*array.Int32Builder).Append(20_454 + rng.Int32N(365))
		b.Field(9).(*array.Int32Builder).Append(rng.Int32N(1<<21) - 1<<20)
	}
}

var stringsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// StringLen is the length of every string of the strings shape.
const StringLen = 50

var words = strings.Fields(`alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima
	mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu
	amber azure coral crimson ivory jade lemon lilac maroon navy olive pearl plum ruby sable teal
	north south east west upper lower inner outer`)

// fillStrings: strings of exactly StringLen bytes made of a few words
// of a 48-word vocabulary, a number and random hex (as names, paths and
// ids mix in real text), with a sequential key.
func fillStrings(b *array.RecordBuilder, rng *rand.Rand, first int64, n int) {
	sb := b.Field(0).(*array.StringBuilder)
	var buf []byte
	for i := range n {
		buf = buf[:0]
		for len(buf) < StringLen {
			switch rng.IntN(4) {
			case 0:
				buf = fmt.Appendf(buf, "%d", rng.IntN(100_000))
			case 1:
				buf = fmt.Appendf(buf, "%08x", rng.Uint32())
			default:
				buf = append(buf, words[rng.IntN(len(words))]...)
			}
			buf = append(buf, "-/_."[rng.IntN(4)])
		}
		sb.Append(string(buf[:StringLen]))
		b.Field(1).(*array.Int64Builder).Append(first + int64(i))
	}
}

// generate writes the shuffle (id 0) and returns its facts.
func generate(o options) (Facts, error) {
	sh, ok := shapes[o.shape]
	if !ok {
		return Facts{}, fmt.Errorf("--shape %q: want fixed or strings", o.shape)
	}
	if o.maps < 1 || o.partitions < 1 || o.rows < 1 {
		return Facts{}, fmt.Errorf("--maps %d --partitions %d --rows %d: want at least 1 each", o.maps, o.partitions, o.rows)
	}
	schema, err := ddl.FormatDDL(sh.schema)
	if err != nil {
		return Facts{}, err
	}
	rng := rand.New(rand.NewPCG(o.seed, 0x5eed))
	blockMgr := filepath.Join(o.dir, fmt.Sprintf("blockmgr-%08x-%04x-%04x-%04x-%012x",
		rng.Uint32(), rng.Uint32()&0xffff, rng.Uint32()&0xffff, rng.Uint32()&0xffff, rng.Uint64()&(1<<48-1)))
	facts := Facts{Schema: schema}
	mem := memory.NewGoAllocator()
	for m := range o.maps {
		mapID := int64(m)
		var data []byte
		lengths := make([]int64, o.partitions)
		sums := make([]int64, o.partitions)
		for p := range o.partitions {
			first := (int64(m)*int64(o.partitions) + int64(p)) * int64(o.rows)
			seg, raw, err := segment(mem, sh, rand.New(rand.NewPCG(o.seed, uint64(first))), first, o.rows)
			if err != nil {
				return Facts{}, err
			}
			data = append(data, seg...)
			lengths[p] = int64(len(seg))
			sums[p] = sparkshuffle.Adler32.Checksum(seg)
			facts.Rows += o.rows
			facts.Segments++
			facts.Compressed += int64(len(seg))
			facts.Uncompressed += raw
		}
		files := []struct {
			name string
			b    []byte
		}{
			{sparkshuffle.DataName(0, mapID), data},
			{sparkshuffle.ChecksumName(0, mapID, sparkshuffle.Adler32), sparkshuffle.AppendChecksums(nil, sums)},
			{sparkshuffle.IndexName(0, mapID), sparkshuffle.AppendIndex(nil, lengths)}, // last, as Spark commits it
		}
		for _, f := range files {
			_, sub := sparkshuffle.Placement(f.name, 1, sparkshuffle.SubDirsPerLocalDir)
			dir := filepath.Join(blockMgr, sparkshuffle.SubDirName(sub))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return Facts{}, err
			}
			if err := os.WriteFile(filepath.Join(dir, f.name), f.b, 0o644); err != nil {
				return Facts{}, err
			}
		}
	}
	return facts, nil
}

// segment is one lz4 stream of n rows of sh, as one spill of a
// partition; raw is its decompressed size.
func segment(mem memory.Allocator, sh shape, rng *rand.Rand, first int64, n int) (seg []byte, raw int64, err error) {
	b := array.NewRecordBuilder(mem, sh.schema)
	defer b.Release()
	sh.fill(b, rng, first, n)
	rec := b.NewRecordBatch()
	defer rec.Release()
	var out bytes.Buffer
	cw, err := framing.NewStreamWriter(&out, framing.LZ4)
	if err != nil {
		return nil, 0, err
	}
	counted := &countingWriter{w: cw}
	w, err := unsaferow.NewWriter(counted, sh.schema)
	if err != nil {
		return nil, 0, err
	}
	if err := w.Write(rec); err != nil {
		return nil, 0, err
	}
	if err := w.Close(); err != nil {
		return nil, 0, err
	}
	if err := cw.Close(); err != nil {
		return nil, 0, err
	}
	return out.Bytes(), counted.n, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
