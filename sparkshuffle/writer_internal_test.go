package sparkshuffle

import (
	"math/rand"
	"os"
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
		w, err := NewMapOutputWriter(dir, 0, 0, 2, schema, WithWriteCodec(framing.None))
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
