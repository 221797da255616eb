package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// TestWritesEveryRowInOrder: the command's words and flags are taken, and
// the Arrow stream holds every row of the shuffle in Spark's read order.
func TestWritesEveryRowInOrder(t *testing.T) {
	folder := shuffletest.New(t, 2)
	var want []shuffletest.Key
	segs := map[[2]int][]shuffletest.Key{}
	for m := range 3 {
		var segments [][]byte
		for p := range 2 {
			seg, keys := shuffletest.Spills(t, memory.NewGoAllocator(), framing.LZ4, p, int64(m), 40, 25)
			segments = append(segments, seg)
			segs[[2]int{p, m}] = keys
		}
		folder.Write(t, shuffletest.MapOutput{Shuffle: 3, Map: int64(m), Segments: segments, Checksum: sparkshuffle.Adler32})
	}
	for p := range 2 {
		for m := range 3 {
			want = append(want, segs[[2]int{p, m}]...)
		}
	}
	out := filepath.Join(t.TempDir(), "out.arrows")
	schema := "part INT NOT NULL, map BIGINT NOT NULL, seq BIGINT NOT NULL, name STRING, vals ARRAY<INT>"
	for _, workers := range []string{"1", "2"} {
		require.NoError(t, run(append([]string{"shuffle", "decode", "--schema", schema, "--shuffle", "3", "--workers", workers,
			"--to", "arrow-stream", "-o", out}, folder.LocalDirs...)))
		f, err := os.Open(out)
		require.NoError(t, err)
		r, err := ipc.NewReader(f)
		require.NoError(t, err)
		var got []shuffletest.Key
		for r.Next() {
			rec := r.RecordBatch()
			for i := range int(rec.NumRows()) {
				k := want[len(got)]
				shuffletest.Check(t, rec, i, k)
				got = append(got, k)
			}
		}
		require.NoError(t, r.Err())
		r.Release()
		f.Close()
		require.Len(t, got, len(want))
	}
	require.ErrorContains(t, run([]string{"shuffle", "decode", "--schema", schema, "--to", "jsonl", folder.LocalDirs[0]}), "only arrow-stream")

	// --to none reads every row (a bad row would still fail) and writes
	// a stream of no batches, however often it repeats.
	require.NoError(t, run(append([]string{"--schema", schema, "--shuffle", "3", "--workers", "2", "--to", "none",
		"--repeat", "2", "--times", "--prefault", "1", "-o", out}, folder.LocalDirs...)))
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	r, err := ipc.NewReader(f)
	require.NoError(t, err)
	defer r.Release()
	require.False(t, r.Next())
	require.NoError(t, r.Err())
}

func TestHelpIsNoError(t *testing.T) {
	require.NoError(t, run([]string{"shuffle", "decode", "--help"}))
}
