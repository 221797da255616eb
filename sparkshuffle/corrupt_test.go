package sparkshuffle_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// recordStarts walks the Spark-framed records of an uncompressed segment
// and returns the offset of each record's size prefix.
func recordStarts(t *testing.T, seg []byte) []int64 {
	t.Helper()
	var starts []int64
	for off := 0; off < len(seg); {
		starts = append(starts, int64(off))
		off += 4 + int(binary.BigEndian.Uint32(seg[off:]))
	}
	return starts
}

func openSet(t *testing.T, fx *fixture) *sparkshuffle.Set {
	t.Helper()
	set, err := sparkshuffle.Open(fx.folder.LocalDirs...)
	require.NoError(t, err)
	return set
}

func mapOf(t *testing.T, set *sparkshuffle.Set, sh int, id int64) *sparkshuffle.MapOutput {
	t.Helper()
	s, err := set.Shuffle(sh)
	require.NoError(t, err)
	for _, m := range s.Maps {
		if m.Map == id {
			return m
		}
	}
	t.Fatalf("no map %d", id)
	return nil
}

func segmentBytes(t *testing.T, m *sparkshuffle.MapOutput, p int) []byte {
	t.Helper()
	b, err := os.ReadFile(m.DataPath)
	require.NoError(t, err)
	return b[m.Offsets[p]:m.Offsets[p+1]]
}

func TestChecksumMismatch(t *testing.T) {
	for _, workers := range workerCounts {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			fx := build(t, framing.None, 2, small)
			set := openSet(t, fx)
			m7 := mapOf(t, set, 4, 7)
			// Byte 12 of a row is the unused upper half of the INT slot of
			// "part": the rows still decode the same, only the checksum differs.
			flip(t, m7.DataPath, m7.Offsets[2]+4+12)

			r := newReader(t, set, 4, sparkshuffle.WithWorkers(workers), sparkshuffle.WithBatchRows(2), sparkshuffle.WithAllocator(checkedAllocator(t)))
			keys, err := readAll(t, r)
			r.Release()
			require.Equal(t, fx.want(4, 0, 1), keys, "the rows before the bad segment, none of it")
			var ce *sparkshuffle.ChecksumError
			require.ErrorAs(t, err, &ce)
			require.ErrorIs(t, err, sparkshuffle.ErrChecksum)
			require.ErrorIs(t, err, arrow.ErrInvalid)
			require.Equal(t, sparkshuffle.ChecksumError{Shuffle: 4, Map: 7, Partition: 2, Path: m7.DataPath, Checksum: m7.ChecksumPath,
				Algorithm: sparkshuffle.Adler32, Want: m7.Checksums[2], Got: ce.Got}, *ce)
			require.NotEqual(t, ce.Want, ce.Got)
			for _, s := range []string{m7.DataPath, "shuffle 4", "map 7", "partition 2", m7.ChecksumPath, "ADLER32"} {
				require.Contains(t, err.Error(), s)
			}
			require.Error(t, m7.Segment(2).VerifyChecksum())
			require.NoError(t, m7.Segment(0).VerifyChecksum())
			s4, _ := set.Shuffle(4)
			verr := s4.VerifyChecksums()
			require.ErrorAs(t, verr, &ce)
			require.Equal(t, [2]int64{7, 2}, [2]int64{ce.Map, int64(ce.Partition)})
			require.Len(t, verr.(interface{ Unwrap() []error }).Unwrap(), 1, "one bad segment")

			// Ignored, the checksum lets every row through.
			r = newReader(t, set, 4, sparkshuffle.WithWorkers(workers), sparkshuffle.WithChecksum(sparkshuffle.Ignore), sparkshuffle.WithAllocator(checkedAllocator(t)))
			keys, err = readAll(t, r)
			r.Release()
			require.NoError(t, err)
			require.Equal(t, fx.want(4, 0, 2), keys)

			// An empty segment must have the algorithm's empty value.
			fx = build(t, framing.None, 2, small)
			m12 := fx.paths[[2]int64{4, 12}]
			patch(t, m12.Checksum, 2*8, 5) // partition 2 of map 12 is empty: CRC32 0
			set = openSet(t, fx)
			r = newReader(t, set, 4, sparkshuffle.WithWorkers(workers), sparkshuffle.WithAllocator(checkedAllocator(t)))
			keys, err = readAll(t, r)
			r.Release()
			require.Equal(t, fx.want(4, 0, 2)[:len(fx.want(4, 0, 2))], append(keys, fx.rows[4][2][12]...))
			require.ErrorAs(t, err, &ce)
			require.Equal(t, [4]int64{4, 12, 2, 5}, [4]int64{int64(ce.Shuffle), ce.Map, int64(ce.Partition), ce.Want})
			require.Equal(t, int64(0), ce.Got)
			s4, _ = set.Shuffle(4)
			require.ErrorIs(t, s4.VerifyChecksums(), sparkshuffle.ErrChecksum)
		})
	}
}

func TestCorruptSegments(t *testing.T) {
	for _, workers := range workerCounts {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			t.Run("row size beyond the segment", func(t *testing.T) {
				fx := build(t, framing.None, 2, small)
				set := openSet(t, fx)
				m7 := mapOf(t, set, 4, 7)
				starts := recordStarts(t, segmentBytes(t, m7, 0))
				at := m7.Offsets[0] + starts[1]
				b, _ := os.ReadFile(m7.DataPath)
				binary.BigEndian.PutUint32(b[at:], 1<<20)
				require.NoError(t, os.WriteFile(m7.DataPath, b, 0o644))

				r := newReader(t, set, 4, sparkshuffle.WithWorkers(workers), sparkshuffle.WithChecksum(sparkshuffle.Ignore), sparkshuffle.WithBatchRows(1), sparkshuffle.WithAllocator(checkedAllocator(t)))
				keys, err := readAll(t, r)
				r.Release()
				require.Equal(t, fx.rows[4][0][7][:1], keys)
				se := requireSegmentError(t, err, m7, 0)
				require.Equal(t, at, se.FileOffset)
				require.Equal(t, int64(1), se.Row)
				var fe *framing.Error
				require.ErrorAs(t, err, &fe)
				require.ErrorIs(t, err, rowbridge.ErrTruncated)
				require.Contains(t, err.Error(), fmt.Sprintf("file byte %d, segment row 1: row of 1048576 bytes", at))
			})
			t.Run("bad row", func(t *testing.T) {
				fx := build(t, framing.None, 2, small)
				set := openSet(t, fx)
				m7 := mapOf(t, set, 4, 7)
				starts := recordStarts(t, segmentBytes(t, m7, 0))
				// Row 2's "name" slot (field 3, row byte 32): a size far beyond the row.
				at := m7.Offsets[0] + starts[2] + 4 + 32
				b, _ := os.ReadFile(m7.DataPath)
				b[at+3] = 0x7f
				require.NoError(t, os.WriteFile(m7.DataPath, b, 0o644))

				r := newReader(t, set, 4, sparkshuffle.WithWorkers(workers), sparkshuffle.WithChecksum(sparkshuffle.Ignore), sparkshuffle.WithBatchRows(2), sparkshuffle.WithAllocator(checkedAllocator(t)))
				keys, err := readAll(t, r)
				r.Release()
				require.Equal(t, fx.rows[4][0][7][:2], keys, "the batch before the bad one")
				se := requireSegmentError(t, err, m7, 0)
				var de *rowbridge.DecodeError
				require.ErrorAs(t, err, &de)
				require.Equal(t, "name", de.Field)
				require.Equal(t, 2, de.Row, "the row within the segment")
				require.Equal(t, int64(2), se.Row)
				require.Equal(t, at, se.FileOffset)
				require.Equal(t, 32, de.Offset)
				require.ErrorIs(t, err, rowbridge.ErrOutOfBounds)
				require.Contains(t, err.Error(), fmt.Sprintf("file byte %d: row 2, field name, byte 32", at))
			})
			t.Run("partition boundary inside a row", func(t *testing.T) {
				fx := build(t, framing.None, 2, small)
				p := fx.paths[[2]int64{4, 12}]
				idx, _ := os.ReadFile(p.Index)
				end0 := int64(binary.BigEndian.Uint64(idx[8:]))
				patch(t, p.Index, 8, end0-3)
				set := openSet(t, fx)
				m12 := mapOf(t, set, 4, 12)
				r := newReader(t, set, 4, sparkshuffle.WithWorkers(workers), sparkshuffle.WithChecksum(sparkshuffle.Ignore), sparkshuffle.WithAllocator(checkedAllocator(t)))
				keys, err := readAll(t, r)
				r.Release()
				require.Equal(t, fx.rows[4][0][7], keys)
				se := requireSegmentError(t, err, m12, 0)
				require.Equal(t, int64(0), se.FileOffset)
				require.ErrorIs(t, err, rowbridge.ErrTruncated)
			})
			t.Run("partial size prefix at the end", func(t *testing.T) {
				fx := build(t, framing.None, 2, small)
				p := fx.paths[[2]int64{4, 12}]
				idx, _ := os.ReadFile(p.Index)
				// Grow partition 0 of map 12 by 2 bytes taken from partition 1.
				patch(t, p.Index, 8, int64(binary.BigEndian.Uint64(idx[8:]))+2)
				set := openSet(t, fx)
				m12 := mapOf(t, set, 4, 12)
				r := newReader(t, set, 4, sparkshuffle.WithWorkers(workers), sparkshuffle.WithChecksum(sparkshuffle.Ignore), sparkshuffle.WithAllocator(checkedAllocator(t)))
				keys, err := readAll(t, r)
				r.Release()
				require.Equal(t, append(fx.rows[4][0][7], fx.rows[4][0][12]...), keys)
				se := requireSegmentError(t, err, m12, 0)
				require.Equal(t, m12.Offsets[1]-2, se.FileOffset)
				require.Contains(t, err.Error(), "row size prefix has 2 of 4 bytes")
			})
		})
	}
}

func requireSegmentError(t *testing.T, err error, m *sparkshuffle.MapOutput, p int) *sparkshuffle.SegmentError {
	t.Helper()
	var se *sparkshuffle.SegmentError
	require.ErrorAs(t, err, &se, "%v", err)
	require.Equal(t, [3]int64{int64(m.Shuffle), m.Map, int64(p)}, [3]int64{int64(se.Shuffle), se.Map, int64(se.Partition)})
	require.Equal(t, m.DataPath, se.Path)
	require.Equal(t, [2]int64{m.Offsets[p], m.Offsets[p+1]}, [2]int64{se.Start, se.End})
	msg := err.Error()
	require.NotContains(t, msg, "\n")
	for _, s := range []string{m.DataPath, fmt.Sprintf("shuffle %d, map %d, partition %d", m.Shuffle, m.Map, p)} {
		require.Contains(t, msg, s)
	}
	require.False(t, errors.Is(err, sparkshuffle.ErrChecksum))
	require.ErrorIs(t, err, arrow.ErrInvalid, "a bad segment is bad data")
	return se
}

// TestDataFileShrunkAfterOpen: a data file cut short after Open (the index
// was checked against its old size) fails the segment it cut with
// ErrTruncated, whether the segment's checksum is verified or not (when
// not, the codec sniffing meets the end first: it said "EOF" before).
func TestDataFileShrunkAfterOpen(t *testing.T) {
	for _, policy := range []sparkshuffle.ChecksumPolicy{sparkshuffle.Verify, sparkshuffle.Ignore} {
		t.Run(policy.String(), func(t *testing.T) {
			fx := build(t, framing.None, 2, small)
			set := openSet(t, fx)
			m7 := mapOf(t, set, 4, 7)
			require.Positive(t, m7.SegmentSize(2))
			require.NoError(t, os.Truncate(m7.DataPath, m7.Offsets[2]+5))
			r := newReader(t, set, 4, sparkshuffle.WithChecksum(policy), sparkshuffle.WithWorkers(1), sparkshuffle.WithAllocator(checkedAllocator(t)))
			keys, err := readAll(t, r)
			r.Release()
			require.Equal(t, fx.want(4, 0, 1), keys[:len(fx.want(4, 0, 1))])
			require.ErrorIs(t, err, rowbridge.ErrTruncated)
			var se *sparkshuffle.SegmentError
			require.ErrorAs(t, err, &se)
			require.Equal(t, [3]int64{4, 7, 2}, [3]int64{int64(se.Shuffle), se.Map, int64(se.Partition)})
			require.Contains(t, err.Error(), m7.DataPath)
		})
	}
}
