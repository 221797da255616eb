// Package shuffletest writes Spark shuffle folders for tests: local dirs
// each holding a blockmgr-<uuid> folder, files placed in its hex
// sub-folders by Spark's hash, map outputs with an index, a data file
// unless every partition is empty, and a checksum file of any algorithm;
// segments made of one codec stream per spill, as Spark's writers leave
// them. Rows of the fixed Schema carry where they were written, so a
// reader's output can be checked row by row and for order.
//
// It is test support: failures stop the test through testing.TB.
package shuffletest

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// Folder is a set of Spark local dirs of one executor.
type Folder struct {
	LocalDirs []string // the spark.local.dir entries
	BlockMgrs []string // the blockmgr-<uuid> folder in each
	SubDirs   int      // sub-folders per blockmgr folder (Spark's 64)
}

// New creates n local dirs in a temporary directory of the test, each with
// an empty blockmgr-<uuid> folder, with Spark's 64 sub-folders per folder.
func New(t testing.TB, n int) *Folder {
	t.Helper()
	root := t.TempDir()
	f := &Folder{SubDirs: sparkshuffle.SubDirsPerLocalDir}
	for i := range n {
		local := filepath.Join(root, fmt.Sprintf("local%d", i))
		bm := filepath.Join(local, "blockmgr-"+uuid(t))
		if err := os.MkdirAll(bm, 0o755); err != nil {
			t.Fatal(err)
		}
		f.LocalDirs = append(f.LocalDirs, local)
		f.BlockMgrs = append(f.BlockMgrs, bm)
	}
	return f
}

func uuid(t testing.TB) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// Path is where Spark puts a file named name; it creates the sub-folder
// (Spark creates them on first use, too).
func (f *Folder) Path(t testing.TB, name string) string {
	t.Helper()
	local, sub := sparkshuffle.Placement(name, len(f.BlockMgrs), f.SubDirs)
	dir := filepath.Join(f.BlockMgrs[local], sparkshuffle.SubDirName(sub))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, name)
}

// MapOutput is one map output to write.
type MapOutput struct {
	Shuffle  int
	Map      int64
	Segments [][]byte // on-disk bytes of each partition, in partition order
	// Checksum is the algorithm of the checksum file (NoChecksum: none).
	Checksum sparkshuffle.Algorithm
}

// Paths are the files a Write made ("" for one it did not).
type Paths struct{ Index, Data, Checksum string }

// Write writes m's files where Spark puts them: the index, the data file
// unless every segment is empty (as Spark omits it), and the checksum
// file when m.Checksum says so, holding each segment's checksum.
func (f *Folder) Write(t testing.TB, m MapOutput) Paths {
	t.Helper()
	var p Paths
	lengths := make([]int64, len(m.Segments))
	var data []byte
	for i, s := range m.Segments {
		lengths[i] = int64(len(s))
		data = append(data, s...)
	}
	if len(data) > 0 {
		p.Data = f.Path(t, sparkshuffle.DataName(m.Shuffle, m.Map))
		writeFile(t, p.Data, data)
	}
	if m.Checksum != sparkshuffle.NoChecksum {
		sums := make([]int64, len(m.Segments))
		for i, s := range m.Segments {
			sums[i] = m.Checksum.Checksum(s)
		}
		p.Checksum = f.Path(t, sparkshuffle.ChecksumName(m.Shuffle, m.Map, m.Checksum))
		writeFile(t, p.Checksum, sparkshuffle.AppendChecksums(nil, sums))
	}
	p.Index = f.Path(t, sparkshuffle.IndexName(m.Shuffle, m.Map))
	writeFile(t, p.Index, sparkshuffle.AppendIndex(nil, lengths))
	return p
}

func writeFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Schema is the schema of the rows Rows makes: where each row was written
// (partition, map id, position within its segment) and values derived
// from them, nullable and variable-length ones included.
var Schema = arrow.NewSchema([]arrow.Field{
	{Name: "part", Type: arrow.PrimitiveTypes.Int32},
	{Name: "map", Type: arrow.PrimitiveTypes.Int64},
	{Name: "seq", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "vals", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
}, nil)

// Key is where a row was written.
type Key struct {
	Part int
	Map  int64
	Seq  int64
}

// Rows makes a batch of n rows of Schema for partition part of map mapID,
// with positions from, from+1, ...
func Rows(mem memory.Allocator, part int, mapID int64, from, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, Schema)
	defer b.Release()
	for i := range n {
		k := Key{part, mapID, int64(from + i)}
		b.Field(0).(*array.Int32Builder).Append(int32(k.Part))
		b.Field(1).(*array.Int64Builder).Append(k.Map)
		b.Field(2).(*array.Int64Builder).Append(k.Seq)
		name, vals := values(k)
		if name == nil {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.StringBuilder).Append(*name)
		}
		lb := b.Field(4).(*array.ListBuilder)
		if vals == nil {
			lb.AppendNull()
		} else {
			lb.Append(true)
			for _, v := range vals {
				lb.ValueBuilder().(*array.Int32Builder).Append(v)
			}
		}
	}
	return b.NewRecordBatch()
}

// values are the derived columns of the row at k (nil for null).
func values(k Key) (*string, []int32) {
	h := k.Seq*7919 + k.Map*104729 + int64(k.Part)*31
	var name *string
	if h%5 != 0 {
		s := fmt.Sprintf("p%d-m%d-#%d%s", k.Part, k.Map, k.Seq, string(bytes.Repeat([]byte{'x'}, int(h%23))))
		name = &s
	}
	var vals []int32
	if h%7 != 0 {
		vals = make([]int32, h%5)
		for i := range vals {
			vals[i] = int32(h) + int32(i)
		}
	}
	return name, vals
}

// Check asserts that row i of rec is the row Rows wrote at k.
func Check(t testing.TB, rec arrow.RecordBatch, i int, k Key) {
	t.Helper()
	got := Key{
		Part: int(rec.Column(0).(*array.Int32).Value(i)),
		Map:  rec.Column(1).(*array.Int64).Value(i),
		Seq:  rec.Column(2).(*array.Int64).Value(i),
	}
	if got != k {
		t.Fatalf("row %d is %+v, want %+v", i, got, k)
	}
	name, vals := values(k)
	nc := rec.Column(3).(*array.String)
	switch {
	case name == nil && !nc.IsNull(i), name != nil && (nc.IsNull(i) || nc.Value(i) != *name):
		t.Fatalf("row %d (%+v): name %q (null %v), want %v", i, k, nc.Value(i), nc.IsNull(i), name)
	}
	lc := rec.Column(4).(*array.List)
	if (vals == nil) != lc.IsNull(i) {
		t.Fatalf("row %d (%+v): vals null %v, want %v", i, k, lc.IsNull(i), vals == nil)
	}
	if vals != nil {
		start, end := lc.ValueOffsets(i)
		elems := lc.ListValues().(*array.Int32)
		if int(end-start) != len(vals) {
			t.Fatalf("row %d (%+v): %d vals, want %d", i, k, end-start, len(vals))
		}
		for j, v := range vals {
			if got := elems.Value(int(start) + j); got != v {
				t.Fatalf("row %d (%+v): vals[%d] = %d, want %d", i, k, j, got, v)
			}
		}
	}
}

// Stream encodes recs as one codec stream of Spark-framed UnsafeRows
// (UnsafeRowSerializer records), as one DiskBlockObjectWriter writes it.
func Stream(t testing.TB, codec framing.Codec, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	var out bytes.Buffer
	cw, err := framing.NewStreamWriter(&out, codec)
	if err != nil {
		t.Fatal(err)
	}
	w, err := unsaferow.NewWriter(cw, Schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// Spills builds a segment of spills: spills[i] rows of the partition's
// rows, each spill its own codec stream, concatenated as Spark's fast
// merge leaves them; no spill of 0 rows writes a stream (Spark opens a
// stream only for a partition with records). Positions run on across
// spills. It returns the segment and the keys of its rows.
func Spills(t testing.TB, mem memory.Allocator, codec framing.Codec, part int, mapID int64, spills ...int) ([]byte, []Key) {
	t.Helper()
	var seg []byte
	var keys []Key
	from := 0
	for _, n := range spills {
		if n == 0 {
			continue
		}
		rec := Rows(mem, part, mapID, from, n)
		seg = append(seg, Stream(t, codec, rec)...)
		rec.Release()
		for i := range n {
			keys = append(keys, Key{part, mapID, int64(from + i)})
		}
		from += n
	}
	return seg, keys
}
