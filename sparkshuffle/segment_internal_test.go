package sparkshuffle

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// TestChecksumVerifiedBeforeRows: a segment whose bytes do not match its
// checksum gives a *ChecksumError and none of its rows, whether it is read
// whole into memory and verified there (small segments) or verified by a
// read of its own before it is decoded (segments above wholeSegmentSize).
func TestChecksumVerifiedBeforeRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec := testgen.RandomBatch(mem, rand.New(rand.NewSource(9)), schema, 3000, testgen.WithMaxLength(5, 60))
	defer rec.Release()
	parts := make([]int32, rec.NumRows())
	for i := range parts {
		parts[i] = int32(i % 3)
	}
	dir := t.TempDir()
	w, err := NewMapOutputWriter(dir, 0, 0, 3, schema)
	require.NoError(t, err)
	require.NoError(t, w.Write(rec, parts))
	require.NoError(t, w.Close())
	out := w.Output()
	b, err := os.ReadFile(out.DataPath)
	require.NoError(t, err)
	b[out.Offsets[1]+lz4Payload] ^= 0x40 // inside partition 1's first lz4 block
	require.NoError(t, os.WriteFile(out.DataPath, b, 0o600))

	defer func(n int64) { wholeSegmentSize = n }(wholeSegmentSize)
	for _, whole := range []int64{wholeSegmentSize, 0} {
		wholeSegmentSize = whole
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("whole=%d/workers=%d", whole, workers), func(t *testing.T) {
				set, err := Open(dir)
				require.NoError(t, err)
				r, err := set.NewReader(0, schema, WithWorkers(workers), WithAllocator(mem), WithBatchRows(100))
				require.NoError(t, err)
				defer r.Release()
				rows := 0
				for r.Next() {
					rows += int(r.RecordBatch().NumRows())
				}
				require.Equal(t, 1000, rows, "partition 0's rows, none of partition 1's")
				var ce *ChecksumError
				require.True(t, errors.As(r.Err(), &ce), "%v", r.Err())
				require.Equal(t, [2]int64{0, 1}, [2]int64{ce.Map, int64(ce.Partition)})
				require.Equal(t, out.Checksums[1], ce.Want)
				require.NotEqual(t, ce.Want, ce.Got)
			})
		}
	}
}

// lz4Payload is where the payload of a segment's first lz4 block starts.
const lz4Payload = 21 + 10
