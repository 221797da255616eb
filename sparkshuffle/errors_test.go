package sparkshuffle_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// TestErrorsWrapArrowSentinels: every sentinel, every bad argument or
// option of a constructor and every file that is not what Spark writes
// wraps arrow.ErrInvalid, as arrow-go's own errors do; an error of the
// operating system keeps its own cause and is no arrow.ErrInvalid.
// (Checksum mismatches and bad segments: TestChecksumMismatch,
// TestCorruptSegments.)
func TestErrorsWrapArrowSentinels(t *testing.T) {
	for _, s := range []error{sparkshuffle.ErrIndex, sparkshuffle.ErrChecksumFile, sparkshuffle.ErrDataSize,
		sparkshuffle.ErrPartitions, sparkshuffle.ErrDuplicate, sparkshuffle.ErrOrphan, sparkshuffle.ErrChecksum,
		sparkshuffle.ErrNoShuffle, sparkshuffle.ErrExists, sparkshuffle.ErrAborted} {
		require.ErrorIs(t, s, arrow.ErrInvalid, "%v", s)
		require.NotContains(t, s.Error(), "invalid:", "the message stays the sentinel's own")
	}

	fx := build(t, framing.None, 1, standard)
	set := openSet(t, fx)
	sh := set.Shuffles()[0]
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	badIndex := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(badIndex, sparkshuffle.IndexName(0, 0)), []byte{1, 2, 3}, 0o644))
	open := func(opts ...sparkshuffle.Option) error {
		r, err := sh.NewReader(shuffletest.Schema, opts...)
		if err == nil {
			r.Release()
		}
		return err
	}
	newWriter := func(dir string, shuffle int, mapID int64, parts int, opts ...sparkshuffle.WriterOption) error {
		w, err := sparkshuffle.NewMapOutputWriter(dir, shuffle, mapID, parts, shuffletest.Schema, opts...)
		if err == nil {
			w.Abort()
		}
		return err
	}
	closed := func() error {
		w, err := sparkshuffle.NewMapOutputWriter(t.TempDir(), 0, 0, 2, shuffletest.Schema)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		return w.Write(nil, nil)
	}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"ParseAlgorithm", second(sparkshuffle.ParseAlgorithm("md5"))},
		{"ParseChecksumPolicy", second(sparkshuffle.ParseChecksumPolicy("maybe"))},
		{"ParseChecksums", second(sparkshuffle.ParseChecksums([]byte{1, 2, 3}, 2))},
		{"Open of nothing", second(sparkshuffle.Open())},
		{"Open of a file", second(sparkshuffle.Open(file))},
		{"Open of a bad index", second(sparkshuffle.Open(badIndex))},
		{"Shuffle of no such id", second(set.Shuffle(1 << 30))},
		{"Segments out of range", second(sh.Segments(0, sh.Partitions))},
		{"WithPartitions", open(sparkshuffle.WithPartitions(2, 1))},
		{"WithPartitions out of range", open(sparkshuffle.WithPartitions(0, sh.Partitions))},
		{"WithAllocator(nil)", open(sparkshuffle.WithAllocator(nil))},
		{"WithBatchRows(0)", open(sparkshuffle.WithBatchRows(0))},
		{"WithWorkers(0)", open(sparkshuffle.WithWorkers(0))},
		{"WithChecksum", open(sparkshuffle.WithChecksum(sparkshuffle.ChecksumPolicy(9)))},
		{"shuffle id", newWriter(t.TempDir(), -1, 0, 2)},
		{"map id", newWriter(t.TempDir(), 0, -1, 2)},
		{"partitions", newWriter(t.TempDir(), 0, 0, 0)},
		{"writer in a file", newWriter(file, 0, 0, 2)},
		{"WithWriteCodec(Auto)", newWriter(t.TempDir(), 0, 0, 2, sparkshuffle.WithWriteCodec(framing.Auto))},
		{"WithWriteChecksum(9)", newWriter(t.TempDir(), 0, 0, 2, sparkshuffle.WithWriteChecksum(9))},
		{"WithSpillRows(-1)", newWriter(t.TempDir(), 0, 0, 2, sparkshuffle.WithSpillRows(-1))},
		{"write after close", closed()},
	} {
		require.Error(t, tc.err, tc.name)
		require.ErrorIs(t, tc.err, arrow.ErrInvalid, "%s: %v", tc.name, tc.err)
	}

	missing := filepath.Join(dir, "missing")
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"Open of a missing directory", second(sparkshuffle.Open(missing))},
		{"writer in a missing directory", newWriter(missing, 0, 0, 2)},
	} {
		require.ErrorIs(t, tc.err, fs.ErrNotExist, tc.name)
		require.False(t, errors.Is(tc.err, arrow.ErrInvalid), "%s: %v is the system's error, not bad data", tc.name, tc.err)
	}
}

func second[T any](_ T, err error) error { return err }
