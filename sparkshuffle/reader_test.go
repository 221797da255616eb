package sparkshuffle_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

type key = shuffletest.Key

// mapSpec is one map output of a fixture: the spills of each partition
// (rows per spill, one codec stream each; none for an empty partition).
type mapSpec struct {
	id    int64
	alg   sparkshuffle.Algorithm
	parts [][]int
}

// fixture is a shuffle folder written as Spark lays it out, and the rows
// of every segment.
type fixture struct {
	folder *shuffletest.Folder
	paths  map[[2]int64]shuffletest.Paths  // (shuffle, map) -> files
	rows   map[int]map[int]map[int64][]key // shuffle -> partition -> map -> rows
	maps   map[int][]int64                 // shuffle -> map ids, ascending
}

// shuffles of the standard fixture: several shuffles in the same dirs,
// map ids that sort differently as text and as numbers, empty partitions,
// a map output without a data file, segments of several spills, a long
// segment, and a checksum file of each algorithm next to a map without.
var standard = map[int][]mapSpec{
	0: {
		{id: 12, alg: sparkshuffle.Adler32, parts: [][]int{{5, 3}, nil, {20}, {1, 1, 1}, nil}},
		{id: 7, alg: sparkshuffle.CRC32, parts: [][]int{{4}, {2, 9}, nil, {6}, {3}}},
		{id: 100, alg: sparkshuffle.CRC32C, parts: [][]int{nil, nil, nil, nil, nil}}, // no data file
		{id: 3, alg: sparkshuffle.CRC32C, parts: [][]int{nil, {1}, {100, 150, 50}, nil, {8}}},
		{id: 40, parts: [][]int{{2}, nil, {5}, {7, 1}, nil}}, // no checksum file
	},
	1: {
		{id: 12, alg: sparkshuffle.Adler32, parts: [][]int{{11}, {3, 4}, nil}},
		{id: 5, alg: sparkshuffle.Adler32, parts: [][]int{nil, {2}, {9}}},
	},
	2: {
		{id: 1, alg: sparkshuffle.Adler32, parts: [][]int{nil}}, // a shuffle with no rows at all
	},
}

func build(t testing.TB, codec framing.Codec, localDirs int, spec map[int][]mapSpec) *fixture {
	t.Helper()
	mem := memory.NewGoAllocator()
	fx := &fixture{
		folder: shuffletest.New(t, localDirs),
		paths:  map[[2]int64]shuffletest.Paths{},
		rows:   map[int]map[int]map[int64][]key{},
		maps:   map[int][]int64{},
	}
	for sh, maps := range spec {
		fx.rows[sh] = map[int]map[int64][]key{}
		for _, m := range maps {
			out := shuffletest.MapOutput{Shuffle: sh, Map: m.id, Checksum: m.alg}
			for p, spills := range m.parts {
				seg, keys := shuffletest.Spills(t, mem, codec, p, m.id, spills...)
				out.Segments = append(out.Segments, seg)
				if fx.rows[sh][p] == nil {
					fx.rows[sh][p] = map[int64][]key{}
				}
				fx.rows[sh][p][m.id] = keys
			}
			fx.paths[[2]int64{int64(sh), m.id}] = fx.folder.Write(t, out)
			fx.maps[sh] = append(fx.maps[sh], m.id)
		}
		slices.Sort(fx.maps[sh])
	}
	return fx
}

// want is the rows of partitions first..last of a shuffle in read order.
func (fx *fixture) want(sh, first, last int) []key {
	var keys []key
	for p := first; p <= last; p++ {
		for _, m := range fx.maps[sh] {
			keys = append(keys, fx.rows[sh][p][m]...)
		}
	}
	return keys
}

// readAll reads r to the end, checking every row's values and every
// batch's validity, and returns the rows' keys and r's error.
func readAll(t testing.TB, r *sparkshuffle.Reader) ([]key, error) {
	t.Helper()
	var keys []key
	for r.Next() {
		rec := r.RecordBatch()
		require.True(t, testgen.ValidateBatch(t, rec))
		require.NoError(t, array.ValidateRecordFull(rec))
		require.True(t, rec.Schema().Equal(shuffletest.Schema))
		require.Positive(t, rec.NumRows())
		for i := range int(rec.NumRows()) {
			k := key{
				Part: int(rec.Column(0).(*array.Int32).Value(i)),
				Map:  rec.Column(1).(*array.Int64).Value(i),
				Seq:  rec.Column(2).(*array.Int64).Value(i),
			}
			shuffletest.Check(t, rec, i, k)
			keys = append(keys, k)
		}
	}
	return keys, r.Err()
}

func newReader(t testing.TB, set *sparkshuffle.Set, sh int, opts ...sparkshuffle.Option) *sparkshuffle.Reader {
	t.Helper()
	r, err := set.NewReader(sh, shuffletest.Schema, opts...)
	require.NoError(t, err)
	return r
}

func checkedAllocator(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

var workerCounts = []int{1, 2, 4}

func TestListing(t *testing.T) {
	fx := build(t, framing.None, 3, standard)
	set, err := sparkshuffle.Open(fx.folder.LocalDirs...)
	require.NoError(t, err)
	shuffles := set.Shuffles()
	require.Len(t, shuffles, 3)
	for i, s := range shuffles {
		require.Equal(t, i, s.ID)
		require.Equal(t, len(standard[i][0].parts), s.Partitions)
		var ids []int64
		for _, m := range s.Maps {
			ids = append(ids, m.Map)
			p := fx.paths[[2]int64{int64(i), m.Map}]
			require.Equal(t, p.Index, m.IndexPath)
			require.Equal(t, p.Data, m.DataPath)
			require.Equal(t, p.Checksum, m.ChecksumPath)
		}
		require.Equal(t, fx.maps[i], ids, "maps ordered by id numerically")
	}
	s0 := shuffles[0]
	require.Equal(t, []int64{3, 7, 12, 40, 100}, []int64{s0.Maps[0].Map, s0.Maps[1].Map, s0.Maps[2].Map, s0.Maps[3].Map, s0.Maps[4].Map})
	m100 := s0.Maps[4]
	require.Empty(t, m100.DataPath, "a map output whose partitions are all empty has no data file")
	require.Equal(t, sparkshuffle.CRC32C, m100.Algorithm)
	require.Equal(t, []int64{0, 0, 0, 0, 0}, m100.Checksums)
	require.Equal(t, sparkshuffle.NoChecksum, s0.Maps[3].Algorithm)
	require.Nil(t, s0.Maps[3].Checksums)
	require.Equal(t, []sparkshuffle.Algorithm{sparkshuffle.Adler32, sparkshuffle.CRC32, sparkshuffle.CRC32C}, s0.Algorithms())
	require.Equal(t, int64(1), s0.Maps[2].Checksums[1], "map 12's empty partition 1 has Adler32's empty value")

	// Per-partition sizes are the segments' bytes summed over the maps.
	sizes := s0.PartitionSizes()
	require.Len(t, sizes, 5)
	var total int64
	for p, n := range sizes {
		var want int64
		for _, m := range s0.Maps {
			want += m.SegmentSize(p)
			require.Equal(t, m.Offsets[p+1]-m.Offsets[p], m.SegmentSize(p))
		}
		require.Equal(t, want, n)
		require.Positive(t, n)
		total += n
	}
	require.Equal(t, total, s0.Size())
	sorted := slices.Clone(sizes)
	slices.Sort(sorted)
	require.InDelta(t, float64(sorted[4])/float64(sorted[2]), s0.Skew(), 1e-9)
	require.Equal(t, 0.0, shuffles[2].Skew())

	// The files are spread over the local dirs and their hex sub-folders
	// exactly as Spark's hash places them.
	used := map[string]bool{}
	for _, p := range fx.paths {
		for _, path := range []string{p.Index, p.Data, p.Checksum} {
			if path == "" {
				continue
			}
			name := filepath.Base(path)
			dir, sub := sparkshuffle.Placement(name, 3, 64)
			require.Equal(t, filepath.Join(fx.folder.BlockMgrs[dir], sparkshuffle.SubDirName(sub), name), path)
			used[fx.folder.LocalDirs[dir]] = true
		}
	}
	require.Len(t, used, 3, "every local dir holds some files")

	for _, s := range shuffles {
		require.NoError(t, s.VerifyChecksums(), "shuffle %d", s.ID)
	}
	_, err = set.Shuffle(9)
	require.ErrorIs(t, err, sparkshuffle.ErrNoShuffle)
	require.Contains(t, err.Error(), "shuffles found: 0, 1, 2")
}

func TestReadOrder(t *testing.T) {
	fx := build(t, framing.None, 3, standard)
	set, err := sparkshuffle.Open(fx.folder.LocalDirs...)
	require.NoError(t, err)
	for _, workers := range workerCounts {
		for _, batchRows := range []int{1, 7, sparkshuffle.DefaultBatchRows} {
			for _, sel := range []struct {
				sh, first, last int
				opt             sparkshuffle.Option
			}{
				{0, 0, 4, nil},
				{0, 2, 2, sparkshuffle.WithPartition(2)},
				{0, 1, 3, sparkshuffle.WithPartitions(1, 3)},
				{0, 4, 4, sparkshuffle.WithPartitions(4, 4)},
				{1, 0, 2, nil},
				{2, 0, 0, nil},
			} {
				t.Run(fmt.Sprintf("w%d/b%d/s%d/%d-%d", workers, batchRows, sel.sh, sel.first, sel.last), func(t *testing.T) {
					mem := checkedAllocator(t)
					opts := []sparkshuffle.Option{sparkshuffle.WithWorkers(workers), sparkshuffle.WithBatchRows(batchRows), sparkshuffle.WithAllocator(mem)}
					if sel.opt != nil {
						opts = append(opts, sel.opt)
					}
					r := newReader(t, set, sel.sh, opts...)
					defer r.Release()
					keys, err := readAll(t, r)
					require.NoError(t, err)
					want := fx.want(sel.sh, sel.first, sel.last)
					require.Equal(t, len(want), len(keys))
					require.Equal(t, want, keys)
				})
			}
		}
	}
	// The order is partition, then numeric map id: 7 before 12 before 100.
	want := fx.want(0, 0, 0)
	require.Equal(t, int64(7), want[0].Map)
	require.Equal(t, int64(12), want[4].Map)
}

// Every way of naming the dirs finds the same set: the local dirs, the
// blockmgr folders, a plain folder of copied files, a dir given twice.
func TestDiscoveryForms(t *testing.T) {
	fx := build(t, framing.None, 2, standard)
	plain := t.TempDir()
	for _, p := range fx.paths {
		for _, path := range []string{p.Index, p.Data, p.Checksum} {
			if path != "" {
				b, err := os.ReadFile(path)
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(plain, filepath.Base(path)), b, 0o644))
			}
		}
	}
	// Files that are no committed shuffle output are ignored.
	require.NoError(t, os.WriteFile(filepath.Join(plain, "shuffle_0_7_0.index.5e1c2a"), []byte("partial"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(fx.folder.BlockMgrs[0], "temp_shuffle_1b2c"), []byte("spill"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(fx.folder.LocalDirs[0], "spark-0a1b", "userFiles"), 0o755))

	for name, dirs := range map[string][]string{
		"local dirs":     fx.folder.LocalDirs,
		"blockmgr dirs":  fx.folder.BlockMgrs,
		"plain folder":   {plain},
		"mixed, repeats": {fx.folder.LocalDirs[0], fx.folder.BlockMgrs[1], fx.folder.LocalDirs[0], fx.folder.BlockMgrs[0]},
	} {
		t.Run(name, func(t *testing.T) {
			set, err := sparkshuffle.Open(dirs...)
			require.NoError(t, err)
			require.Len(t, set.Shuffles(), 3)
			r := newReader(t, set, 0, sparkshuffle.WithAllocator(checkedAllocator(t)))
			defer r.Release()
			keys, err := readAll(t, r)
			require.NoError(t, err)
			require.Equal(t, fx.want(0, 0, 4), keys)
		})
	}

	// The same map output in two distinct files is an error naming both.
	_, err := sparkshuffle.Open(append(slices.Clone(fx.folder.LocalDirs), plain)...)
	require.ErrorIs(t, err, sparkshuffle.ErrDuplicate)
	var fe *sparkshuffle.FileError
	require.ErrorAs(t, err, &fe)
	name := filepath.Base(fe.Path)
	require.Equal(t, filepath.Join(plain, name), fe.Path)
	parsed, ok := sparkshuffle.ParseFileName(name)
	require.True(t, ok)
	orig := fx.paths[[2]int64{int64(parsed.Shuffle), parsed.Map}]
	require.NotEmpty(t, firstPath(err.Error(), orig), "the error names the first copy too: %v", err)

	_, err = sparkshuffle.Open(filepath.Join(plain, "missing"))
	require.Error(t, err)
	_, err = sparkshuffle.Open()
	require.Error(t, err)
}

// firstPath returns whichever of p's files msg names.
func firstPath(msg string, p shuffletest.Paths) string {
	for _, path := range []string{p.Index, p.Data, p.Checksum} {
		if path != "" && strings.Contains(msg, path) {
			return path
		}
	}
	return ""
}

func TestNewReaderRefusesBadOptions(t *testing.T) {
	fx := build(t, framing.None, 1, small)
	set := openSet(t, fx)
	for _, c := range []struct {
		opt  sparkshuffle.Option
		want string
	}{
		{sparkshuffle.WithPartitions(1, 3), "partitions 1-3 out of range: shuffle 4 has partitions 0-2"},
		{sparkshuffle.WithPartition(3), "partitions 3-3 out of range"},
		{sparkshuffle.WithPartitions(2, 1), "want 0 <= first <= last"},
		{sparkshuffle.WithPartition(-1), "want 0 <= first <= last"},
		{sparkshuffle.WithWorkers(0), "0 workers"},
		{sparkshuffle.WithBatchRows(0), "batch rows 0"},
		{sparkshuffle.WithAllocator(nil), "nil allocator"},
		{sparkshuffle.WithChecksum(7), "unknown checksum policy"},
	} {
		_, err := set.NewReader(4, shuffletest.Schema, c.opt)
		require.ErrorContains(t, err, c.want)
	}
	_, err := set.NewReader(5, shuffletest.Schema)
	require.ErrorIs(t, err, sparkshuffle.ErrNoShuffle)
	_, err = set.NewReader(4, arrow.NewSchema([]arrow.Field{{Name: "d", Type: arrow.FixedWidthTypes.Duration_s}}, nil))
	require.Error(t, err)
}

// WithProgress counts every on-disk byte of the selected segments once.
func TestProgress(t *testing.T) {
	fx := build(t, framing.LZ4, 2, standard)
	set := openSet(t, fx)
	s0, _ := set.Shuffle(0)
	sizes := s0.PartitionSizes()
	for _, workers := range workerCounts {
		var n atomic.Int64
		r := newReader(t, set, 0, sparkshuffle.WithWorkers(workers), sparkshuffle.WithPartitions(1, 3),
			sparkshuffle.WithProgress(func(b int64) { n.Add(b) }), sparkshuffle.WithAllocator(checkedAllocator(t)))
		_, err := readAll(t, r)
		r.Release()
		require.NoError(t, err)
		require.Equal(t, sizes[1]+sizes[2]+sizes[3], n.Load())
	}
}
