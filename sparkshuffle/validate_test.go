package sparkshuffle_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

var small = map[int][]mapSpec{
	4: {
		{id: 7, alg: sparkshuffle.Adler32, parts: [][]int{{3}, nil, {2, 2}}},
		{id: 12, alg: sparkshuffle.CRC32, parts: [][]int{{1}, {4}, nil}},
	},
}

// requireFileError asserts err is a *FileError about path wrapping cause.
func requireFileError(t *testing.T, err error, path string, cause error, text string) {
	t.Helper()
	require.Error(t, err)
	var fe *sparkshuffle.FileError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, path, fe.Path)
	require.ErrorIs(t, err, cause)
	require.Contains(t, err.Error(), text)
	require.NotContains(t, err.Error(), "\n")
}

func TestOpenRejectsBadFiles(t *testing.T) {
	for _, c := range []struct {
		name    string
		breakIt func(t *testing.T, fx *fixture) string // returns the path the error must name
		cause   error
		text    string
	}{
		{"truncated index", func(t *testing.T, fx *fixture) string {
			p := fx.paths[[2]int64{4, 12}].Index
			truncate(t, p, -3)
			return p
		}, sparkshuffle.ErrIndex, "29 bytes is not (partitions+1) x 8"},
		{"empty index", func(t *testing.T, fx *fixture) string {
			p := fx.paths[[2]int64{4, 12}].Index
			truncate(t, p, -32)
			return p
		}, sparkshuffle.ErrIndex, "0 bytes"},
		{"first offset not 0", func(t *testing.T, fx *fixture) string {
			p := fx.paths[[2]int64{4, 7}].Index
			patch(t, p, 0, 8)
			return p
		}, sparkshuffle.ErrIndex, "first offset is 8"},
		{"decreasing offsets", func(t *testing.T, fx *fixture) string {
			p := fx.paths[[2]int64{4, 7}].Index
			patch(t, p, 8, 1<<40)
			return p
		}, sparkshuffle.ErrIndex, "offset 2 (start of partition 2, index byte 16)"},
		{"data file shorter", func(t *testing.T, fx *fixture) string {
			p := fx.paths[[2]int64{4, 7}].Data
			truncate(t, p, -1)
			return p
		}, sparkshuffle.ErrDataSize, "index says"},
		{"data file longer", func(t *testing.T, fx *fixture) string {
			p := fx.paths[[2]int64{4, 12}].Data
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			f.Write([]byte{0})
			f.Close()
			return p
		}, sparkshuffle.ErrDataSize, "bytes,"},
		{"data file missing", func(t *testing.T, fx *fixture) string {
			require.NoError(t, os.Remove(fx.paths[[2]int64{4, 12}].Data))
			return fx.paths[[2]int64{4, 12}].Index
		}, sparkshuffle.ErrDataSize, "there is no shuffle_4_12_0.data"},
		{"partition counts disagree", func(t *testing.T, fx *fixture) string {
			p := fx.paths[[2]int64{4, 12}].Index
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			b = binary.BigEndian.AppendUint64(b, binary.BigEndian.Uint64(b[len(b)-8:]))
			require.NoError(t, os.WriteFile(p, b, 0o644))
			require.NoError(t, os.Remove(fx.paths[[2]int64{4, 12}].Checksum)) // it had 3 partitions
			return p
		}, sparkshuffle.ErrPartitions, "4 partitions, "},
		{"checksum file size", func(t *testing.T, fx *fixture) string {
			p := fx.paths[[2]int64{4, 7}].Checksum
			truncate(t, p, -8)
			return p
		}, sparkshuffle.ErrChecksumFile, "16 bytes, want 3 partitions x 8 = 24"},
		{"orphan data file", func(t *testing.T, fx *fixture) string {
			require.NoError(t, os.Remove(fx.paths[[2]int64{4, 7}].Index))
			return fx.paths[[2]int64{4, 7}].Data
		}, sparkshuffle.ErrOrphan, "no shuffle_4_7_0.index"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fx := build(t, framing.None, 2, small)
			path := c.breakIt(t, fx)
			_, err := sparkshuffle.Open(fx.folder.LocalDirs...)
			requireFileError(t, err, path, c.cause, c.text)
			require.Contains(t, err.Error(), filepath.Base(path))
		})
	}
}

func truncate(t *testing.T, path string, delta int64) {
	t.Helper()
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(path, st.Size()+delta))
}

// patch overwrites the big-endian int64 at byte off of path.
func patch(t *testing.T, path string, off int, v int64) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	binary.BigEndian.PutUint64(b[off:], uint64(v))
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// flip inverts the bits of byte off of path.
func flip(t *testing.T, path string, off int64) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	b[off] ^= 0xFF
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

var _ = shuffletest.Schema
