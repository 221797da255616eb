package sparkshuffle

import (
	"fmt"
	"github.com/apache/arrow-go/v18/arrow"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Set is the shuffle files found in a set of directories: every committed
// map output of every shuffle, its index and checksum file read and
// checked. A Set only reads files; it is safe for concurrent use once
// opened. The Shuffle and MapOutput values it hands out are shared and
// must not be modified.
type Set struct {
	shuffles []*Shuffle // by id
}

// Shuffle is one shuffle's map outputs.
type Shuffle struct {
	ID         int
	Partitions int          // reduce partitions, the same for every map
	Maps       []*MapOutput // by map id, ascending numerically
}

// MapOutput is one map task's output: an index file, a data file unless
// every partition is empty, and optionally a checksum file.
type MapOutput struct {
	Shuffle      int
	Map          int64  // the map id in the file names (a task attempt id since Spark 3.0)
	IndexPath    string // shuffle_S_M_0.index
	DataPath     string // shuffle_S_M_0.data; "" when there is none (every partition empty)
	ChecksumPath string // shuffle_S_M_0.checksum.ALGORITHM; "" when there is none
	Algorithm    Algorithm
	// Offsets are the index's Partitions()+1 offsets: partition p is bytes
	// Offsets[p]..Offsets[p+1] of the data file.
	Offsets []int64
	// Checksums holds one value per partition, nil without a checksum file.
	Checksums []int64
}

// Partitions is the number of reduce partitions.
func (m *MapOutput) Partitions() int { return len(m.Offsets) - 1 }

// Size is the data file's size (the index's last offset).
func (m *MapOutput) Size() int64 { return m.Offsets[len(m.Offsets)-1] }

// SegmentSize is the size of partition p's segment.
func (m *MapOutput) SegmentSize(p int) int64 { return m.Offsets[p+1] - m.Offsets[p] }

// Segment is partition p's segment.
func (m *MapOutput) Segment(p int) Segment { return Segment{Map: m, Partition: p} }

// Open finds the shuffle files in dirs and reads their indexes and
// checksum files. Each dir may be a Spark local dir (holding blockmgr-*
// folders), a blockmgr-* folder (holding two-hex-digit sub-folders), or a
// plain folder of copied shuffle files (possibly with hex sub-folders of
// its own); all dirs together form one set, which should hold the files
// of one application (shuffle ids restart in every application).
//
// Files that are not committed shuffle files are ignored (other blocks,
// Spark's temporary files). The same file reached twice (a dir given twice,
// or through a link) counts once; two distinct files of the same name are
// an ErrDuplicate naming both paths, since nothing tells which one Spark
// served. Every problem found is a *FileError naming the file: an index
// that ParseIndex refuses, a data file whose size is not the index's last
// offset (or missing while that offset is not 0), a checksum file that is
// not one int64 per partition, a data or checksum file without its index
// (ErrOrphan), maps of one shuffle that disagree on the partition count
// (ErrPartitions). A shuffle with no map output is not listed.
func Open(dirs ...string) (*Set, error) {
	if len(dirs) == 0 {
		return nil, fmt.Errorf("sparkshuffle: no directory to open: %w", arrow.ErrInvalid)
	}
	found := map[FileName]string{}
	for _, dir := range dirs {
		st, err := os.Stat(dir)
		if err != nil {
			return nil, fmt.Errorf("sparkshuffle: %w", err)
		}
		if !st.IsDir() {
			return nil, &FileError{Path: dir, Err: errNotDir}
		}
		if err := scan(dir, 0, found); err != nil {
			return nil, err
		}
	}
	return assemble(found)
}

// Scan levels: a given dir, a blockmgr-* folder in it, a hex sub-folder.
const (
	levelRoot = iota
	levelBlockMgr
	levelSubDir
)

// scan adds the shuffle files of dir to found and descends into the
// folders Spark's layout puts below it.
func scan(dir string, level int, found map[FileName]string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("sparkshuffle: %w", err)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			st, err := os.Stat(path)
			if err != nil {
				continue // a dangling link is no shuffle file
			}
			mode = st.Mode().Type()
		}
		switch {
		case mode.IsDir():
			next := -1
			switch {
			case level == levelRoot && strings.HasPrefix(e.Name(), "blockmgr-"):
				next = levelBlockMgr
			case level < levelSubDir && isSubDirName(e.Name()):
				next = levelSubDir
			}
			if next >= 0 {
				if err := scan(path, next, found); err != nil {
					return err
				}
			}
		case mode.IsRegular():
			name, ok := ParseFileName(e.Name())
			if !ok {
				continue
			}
			if prev, dup := found[name]; dup {
				same, err := sameFile(prev, path)
				if err != nil {
					return err
				}
				if !same {
					return &FileError{Path: path, Err: fmt.Errorf("%w: %s is also at %s", ErrDuplicate, e.Name(), prev)}
				}
				continue
			}
			found[name] = path
		}
	}
	return nil
}

func sameFile(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, fmt.Errorf("sparkshuffle: %w", err)
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, fmt.Errorf("sparkshuffle: %w", err)
	}
	return os.SameFile(sa, sb), nil
}

type mapKey struct {
	shuffle int
	mapID   int64
}

// assemble reads and checks the files found and groups them by shuffle.
func assemble(found map[FileName]string) (*Set, error) {
	outputs := map[mapKey]*MapOutput{}
	// Indexes first, in a fixed order so that errors do not depend on map order.
	names := make([]FileName, 0, len(found))
	for n := range found {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := names[i], names[j]
		if a.Shuffle != b.Shuffle {
			return a.Shuffle < b.Shuffle
		}
		if a.Map != b.Map {
			return a.Map < b.Map
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Algorithm < b.Algorithm
	})
	for _, n := range names {
		path := found[n]
		key := mapKey{n.Shuffle, n.Map}
		switch n.Kind {
		case IndexFile:
			b, err := readSmallFile(path)
			if err != nil {
				return nil, err
			}
			offsets, err := ParseIndex(b)
			if err != nil {
				return nil, &FileError{Path: path, Err: err}
			}
			outputs[key] = &MapOutput{Shuffle: n.Shuffle, Map: n.Map, IndexPath: path, Offsets: offsets}
		case DataFile:
			m := outputs[key]
			if m == nil {
				return nil, &FileError{Path: path, Err: fmt.Errorf("%w: no %s", ErrOrphan, IndexName(n.Shuffle, n.Map))}
			}
			st, err := os.Stat(path)
			if err != nil {
				return nil, fmt.Errorf("sparkshuffle: %w", err)
			}
			if st.Size() != m.Size() {
				return nil, &FileError{Path: path, Err: fmt.Errorf("%w: %d bytes, %s says %d", ErrDataSize, st.Size(), m.IndexPath, m.Size())}
			}
			m.DataPath = path
		case ChecksumFile:
			m := outputs[key]
			if m == nil {
				return nil, &FileError{Path: path, Err: fmt.Errorf("%w: no %s", ErrOrphan, IndexName(n.Shuffle, n.Map))}
			}
			if m.ChecksumPath != "" {
				return nil, &FileError{Path: path, Err: fmt.Errorf("%w: a second checksum file, besides %s", ErrChecksumFile, m.ChecksumPath)}
			}
			b, err := readSmallFile(path)
			if err != nil {
				return nil, err
			}
			sums, err := ParseChecksums(b, m.Partitions())
			if err != nil {
				return nil, &FileError{Path: path, Err: err}
			}
			m.ChecksumPath, m.Algorithm, m.Checksums = path, n.Algorithm, sums
		}
	}

	byID := map[int]*Shuffle{}
	for _, n := range names {
		if n.Kind != IndexFile {
			continue
		}
		m := outputs[mapKey{n.Shuffle, n.Map}]
		if m.DataPath == "" && m.Size() != 0 {
			return nil, &FileError{Path: m.IndexPath, Err: fmt.Errorf("%w: the index gives %d data bytes but there is no %s", ErrDataSize, m.Size(), DataName(m.Shuffle, m.Map))}
		}
		s := byID[n.Shuffle]
		if s == nil {
			s = &Shuffle{ID: n.Shuffle, Partitions: m.Partitions()}
			byID[n.Shuffle] = s
		} else if m.Partitions() != s.Partitions {
			return nil, &FileError{Path: m.IndexPath, Err: fmt.Errorf("%w: %d partitions, %s has %d", ErrPartitions, m.Partitions(), s.Maps[0].IndexPath, s.Partitions)}
		}
		s.Maps = append(s.Maps, m) // names are sorted by map id
	}
	set := &Set{}
	for _, s := range byID {
		set.shuffles = append(set.shuffles, s)
	}
	slices.SortFunc(set.shuffles, func(a, b *Shuffle) int { return a.ID - b.ID })
	return set, nil
}

// readSmallFile reads an index or checksum file whole. Its size comes from
// the file system, not from bytes inside a file.
func readSmallFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sparkshuffle: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	return b, nil
}

// Shuffles lists the shuffles of the set by id.
func (s *Set) Shuffles() []*Shuffle { return slices.Clone(s.shuffles) }

// Shuffle returns the shuffle of the given id, or an error wrapping
// ErrNoShuffle that lists the ids present.
func (s *Set) Shuffle(id int) (*Shuffle, error) {
	for _, sh := range s.shuffles {
		if sh.ID == id {
			return sh, nil
		}
	}
	ids := make([]string, len(s.shuffles))
	for i, sh := range s.shuffles {
		ids[i] = fmt.Sprint(sh.ID)
	}
	have := "none"
	if len(ids) > 0 {
		have = strings.Join(ids, ", ")
	}
	return nil, fmt.Errorf("sparkshuffle: %w %d (shuffles found: %s)", ErrNoShuffle, id, have)
}

// Size is the total size of the shuffle's data files.
func (s *Shuffle) Size() int64 {
	var n int64
	for _, m := range s.Maps {
		n += m.Size()
	}
	return n
}

// PartitionSizes is the bytes of each reduce partition summed over the maps.
func (s *Shuffle) PartitionSizes() []int64 {
	sizes := make([]int64, s.Partitions)
	for _, m := range s.Maps {
		for p := range sizes {
			sizes[p] += m.SegmentSize(p)
		}
	}
	return sizes
}

// Skew is the largest partition's size over the median partition size
// (the mean of the two middle ones for an even count); 0 when the median
// is 0 bytes (most partitions empty), as no ratio says anything then.
func (s *Shuffle) Skew() float64 {
	sizes := s.PartitionSizes()
	if len(sizes) == 0 {
		return 0
	}
	slices.Sort(sizes)
	n := len(sizes)
	median := float64(sizes[n/2])
	if n%2 == 0 {
		median = (float64(sizes[n/2-1]) + float64(sizes[n/2])) / 2
	}
	if median == 0 {
		return 0
	}
	return float64(sizes[n-1]) / median
}

// Algorithms lists the checksum algorithms of the shuffle's checksum
// files (one, normally; none when no map has a checksum file).
func (s *Shuffle) Algorithms() []Algorithm {
	var algs []Algorithm
	for _, m := range s.Maps {
		if m.Algorithm != NoChecksum && !slices.Contains(algs, m.Algorithm) {
			algs = append(algs, m.Algorithm)
		}
	}
	slices.Sort(algs)
	return algs
}

// Segments lists the segments of partitions first..last (inclusive) in
// the order a Reader reads them: by partition, then by map id. Empty
// segments are included.
func (s *Shuffle) Segments(first, last int) ([]Segment, error) {
	if err := s.checkRange(first, last); err != nil {
		return nil, err
	}
	var segs []Segment
	for p := first; p <= last; p++ {
		for _, m := range s.Maps {
			segs = append(segs, Segment{Map: m, Partition: p})
		}
	}
	return segs, nil
}

func (s *Shuffle) checkRange(first, last int) error {
	if first < 0 || last < first || last >= s.Partitions {
		return fmt.Errorf("sparkshuffle: partitions %d-%d out of range: shuffle %d has partitions 0-%d: %w", first, last, s.ID, s.Partitions-1, arrow.ErrInvalid)
	}
	return nil
}
