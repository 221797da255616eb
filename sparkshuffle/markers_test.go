package sparkshuffle_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// TestDecodeErrorAfterEndMarkers: a bad row in a segment whose streams
// end with the -1 size of old Spark (and which starts with one) is placed
// at its own byte, whether the markers come before the batch's first row
// or between its rows, with every batch size and worker count.
func TestDecodeErrorAfterEndMarkers(t *testing.T) {
	const spill = 3
	marker := []byte{0xff, 0xff, 0xff, 0xff}
	var seg []byte
	var keys []shuffletest.Key
	for s := range 2 {
		rec := shuffletest.Rows(memory.NewGoAllocator(), 0, 5, s*spill, spill)
		seg = append(seg, marker...)
		seg = append(seg, shuffletest.Stream(t, framing.None, rec)...)
		rec.Release()
		for i := range spill {
			keys = append(keys, shuffletest.Key{Part: 0, Map: 5, Seq: int64(s*spill + i)})
		}
	}
	seg = append(seg, marker...)
	// The records' starts, markers skipped.
	var starts []int
	for off := 0; off < len(seg); {
		u := binary.BigEndian.Uint32(seg[off:])
		if u == 0xffffffff {
			off += 4
			continue
		}
		starts = append(starts, off)
		off += 4 + int(u)
	}
	require.Len(t, starts, 2*spill)

	for _, bad := range []int{1, 2, 3, 4} { // rows 0 and 5 have a null name
		for _, batch := range []int{1, 2, 3, 4, 100} {
			for _, workers := range workerCounts {
				t.Run(fmt.Sprintf("row%d/batch%d/workers%d", bad, batch, workers), func(t *testing.T) {
					b := append([]byte(nil), seg...)
					// The row's "name" slot (field 3, row byte 32): a size far beyond the row.
					at := starts[bad] + 4 + 32
					b[at+3] = 0x7f
					folder := shuffletest.New(t, 1)
					paths := folder.Write(t, shuffletest.MapOutput{Shuffle: 2, Map: 5, Segments: [][]byte{b}})
					set, err := sparkshuffle.Open(folder.LocalDirs...)
					require.NoError(t, err)
					r := newReader(t, set, 2, sparkshuffle.WithWorkers(workers), sparkshuffle.WithBatchRows(batch),
						sparkshuffle.WithAllocator(checkedAllocator(t)))
					got, err := readAll(t, r)
					r.Release()
					require.Equal(t, keys[:bad/batch*batch], append([]shuffletest.Key{}, got...), "the batches before the bad one")
					var se *sparkshuffle.SegmentError
					require.ErrorAs(t, err, &se, "%v", err)
					require.Equal(t, paths.Data, se.Path)
					require.Equal(t, int64(at), se.FileOffset)
					require.Equal(t, int64(bad), se.Row)
					var de *rowbridge.DecodeError
					require.ErrorAs(t, err, &de)
					require.Equal(t, "name", de.Field)
					require.Contains(t, err.Error(), fmt.Sprintf("file byte %d: row %d, field name, byte 32", at, bad))
				})
			}
		}
	}
}
