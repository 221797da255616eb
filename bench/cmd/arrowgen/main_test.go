package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/stretchr/testify/require"
)

// TestGenerateReadsBack writes a small file and reads it with arrow-go:
// the facts match the file, batches of batch-rows rows until the size is
// reached, valid data, ids counting up, one note in sixteen null, and the
// same bytes for the same seed.
func TestGenerateReadsBack(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.arrow")
	facts, err := generate(options{size: 1 << 20, batchRows: 1000, seed: 3, path: path})
	require.NoError(t, err)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, fi.Size(), facts.FileSize)
	require.GreaterOrEqual(t, facts.FileSize, int64(1<<20))
	require.Equal(t, facts.Batches*1000, facts.Rows)

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer r.Close()
	require.True(t, r.Schema().Equal(Schema))
	require.EqualValues(t, facts.Batches, r.NumRecords())
	var rows, nulls int64
	for i := range r.NumRecords() {
		rec, err := r.RecordBatchAt(i)
		require.NoError(t, err)
		for _, c := range rec.Columns() {
			require.NoError(t, array.ValidateFull(c))
		}
		ids := rec.Column(0).(*array.Int64)
		for j := range ids.Len() {
			require.Equal(t, rows+int64(j), ids.Value(j))
		}
		require.LessOrEqual(t, columnar.RecordBytes(rec), facts.BatchBytes)
		rows += rec.NumRows()
		nulls += int64(rec.Column(3).NullN())
		rec.Release()
	}
	require.Equal(t, facts.Rows, rows)
	require.InDelta(t, float64(rows)/16, float64(nulls), float64(rows)/50)

	again := filepath.Join(dir, "b.arrow")
	_, err = generate(options{size: 1 << 20, batchRows: 1000, seed: 3, path: again})
	require.NoError(t, err)
	a, err := os.ReadFile(path)
	require.NoError(t, err)
	b, err := os.ReadFile(again)
	require.NoError(t, err)
	require.Equal(t, a, b, "deterministic for a seed")
}
