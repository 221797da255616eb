package sparkshuffle

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// TestWriterIOErrorLeavesNothing: a partition's temporary file failing
// in the middle of writing aborts the writer, and nothing is left in the
// folder; so does one failing at Close.
func TestWriterIOErrorLeavesNothing(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec := testgen.RandomBatch(mem, rand.New(rand.NewSource(4)), schema, 5000, testgen.WithMaxLength(5, 60))
	defer rec.Release()
	parts := make([]int32, rec.NumRows())
	for i := range parts {
		parts[i] = int32(i % 2)
	}
	for _, atClose := range []bool{false, true} {
		dir := t.TempDir()
		w, err := NewMapOutputWriter(dir, 0, 0, 2, schema, WithWriteCodec(framing.None), WithWriteMemory(0))
		require.NoError(t, err)
		require.NoError(t, w.Write(rec, parts))
		// The file fails as a full disk would: writes return an error.
		w.parts[1].sink.f.Close()
		if atClose {
			err = w.Close()
		} else {
			for err == nil {
				err = w.Write(rec, parts)
			}
			require.Equal(t, err, w.Close())
		}
		require.ErrorContains(t, err, "writing a partition's temporary file")
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.Empty(t, entries)
	}
}

// TestWriterMemoryBudget: partitions stay in memory within the budget and
// move to temporary files, partway, past it; the files are the same
// either way, and nothing stays counted in memory after Close.
func TestWriterMemoryBudget(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec := testgen.RandomBatch(mem, rand.New(rand.NewSource(5)), schema, 3000, testgen.WithMaxLength(5, 60))
	defer rec.Release()
	parts := make([]int32, rec.NumRows())
	for i := range parts {
		parts[i] = int32(i % 3)
	}
	files := map[int64]map[string][]byte{}
	for _, budget := range []int64{DefaultWriteMemory, 0, 100 << 10} {
		dir := t.TempDir()
		w, err := NewMapOutputWriter(dir, 0, 0, 3, schema, WithWriteCodec(framing.None), WithWriteMemory(budget))
		require.NoError(t, err)
		for range 3 {
			require.NoError(t, w.Write(rec, parts))
		}
		inFile := 0
		for i := range w.parts {
			require.NoError(t, w.wait(&w.parts[i]))
			if w.parts[i].sink.f != nil {
				inFile++
			}
		}
		switch budget {
		case DefaultWriteMemory:
			require.Zero(t, inFile, "all in memory")
			require.Positive(t, w.memUsed.Load())
		case 0:
			require.Equal(t, 3, inFile, "all in files")
			require.Zero(t, w.memUsed.Load())
		default:
			require.Positive(t, inFile, "some moved to files")
			require.LessOrEqual(t, w.memUsed.Load(), budget)
		}
		require.NoError(t, w.Close())
		require.Zero(t, w.memUsed.Load())
		got := map[string][]byte{}
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			b, err := os.ReadFile(dir + "/" + e.Name())
			require.NoError(t, err)
			got[e.Name()] = b
		}
		require.Len(t, got, 3)
		files[budget] = got
	}
	require.Equal(t, files[DefaultWriteMemory], files[0])
	require.Equal(t, files[DefaultWriteMemory], files[100<<10])
}

// TestWriterOverwriteFailureKeepsOld: a commit over an older map output
// (WithOverwrite) that fails at any of its renames leaves the older
// output's files byte for byte as they were, and nothing else; one that
// does not fail replaces them all, a checksum file of another algorithm
// included.
func TestWriterOverwriteFailureKeepsOld(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec := testgen.RandomBatch(mem, rand.New(rand.NewSource(6)), schema, 500)
	defer rec.Release()
	parts := make([]int32, rec.NumRows())
	for i := range parts {
		parts[i] = int32(i % 3)
	}
	write := func(dir string, opts ...WriterOption) error {
		w, err := NewMapOutputWriter(dir, 0, 0, 3, schema, opts...)
		require.NoError(t, err)
		defer w.Abort()
		require.NoError(t, w.Write(rec, parts))
		return w.Close()
	}
	readDir := func(dir string) map[string][]byte {
		files := map[string][]byte{}
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			require.NoError(t, err)
			files[e.Name()] = b
		}
		return files
	}
	defer func() { renameFile = os.Rename }()
	// The older output: snappy and CRC32, 3 files to set aside (index,
	// data, checksum); the new one: lz4 and ADLER32, 3 files to rename in.
	for failAt := 1; ; failAt++ {
		dir := t.TempDir()
		renameFile = os.Rename
		require.NoError(t, write(dir, WithWriteChecksum(CRC32), WithWriteCodec(framing.Snappy)))
		old := readDir(dir)
		require.Len(t, old, 3)
		n := 0
		renameFile = func(from, to string) error {
			if n++; n == failAt {
				return &os.LinkError{Op: "rename", Old: from, New: to, Err: os.ErrPermission}
			}
			return os.Rename(from, to)
		}
		err := write(dir, WithOverwrite(true))
		if err == nil {
			// Past the last rename: the new output alone.
			require.Equal(t, 7, failAt, "3 set aside, 3 renamed in, then none fails")
			got := readDir(dir)
			require.Len(t, got, 3)
			require.Contains(t, got, ChecksumName(0, 0, Adler32))
			require.NotEqual(t, old[DataName(0, 0)], got[DataName(0, 0)], "lz4, not snappy")
			break
		}
		require.ErrorIs(t, err, os.ErrPermission, "failing at rename %d", failAt)
		require.Equal(t, old, readDir(dir), "failing at rename %d: the older output as it was, nothing else", failAt)
	}
}
