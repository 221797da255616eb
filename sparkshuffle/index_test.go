package sparkshuffle_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

func be(vs ...int64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.BigEndian.AppendUint64(b, uint64(v))
	}
	return b
}

func TestParseIndex(t *testing.T) {
	offsets, err := sparkshuffle.ParseIndex(be(0, 10, 10, 25))
	require.NoError(t, err)
	require.Equal(t, []int64{0, 10, 10, 25}, offsets)
	require.Equal(t, be(0, 10, 10, 25), sparkshuffle.AppendIndex(nil, []int64{10, 0, 15}))

	offsets, err = sparkshuffle.ParseIndex(be(0)) // a shuffle of 0 partitions
	require.NoError(t, err)
	require.Equal(t, []int64{0}, offsets)

	for _, c := range []struct {
		b    []byte
		want string
	}{
		{nil, "0 bytes is not (partitions+1) x 8"},
		{be(0, 5)[:12], "12 bytes is not"},
		{be(3, 5), "first offset is 3, want 0"},
		{be(0, 9, 4), "offset 2 (start of partition 2, index byte 16) is 4, below the previous 9"},
		{be(0, -1), "below the previous 0"},
	} {
		_, err := sparkshuffle.ParseIndex(c.b)
		require.Error(t, err)
		require.True(t, errors.Is(err, sparkshuffle.ErrIndex))
		require.Contains(t, err.Error(), c.want)
	}
}

func TestChecksumAlgorithms(t *testing.T) {
	// Values printed by Java 17's java.util.zip Adler32, CRC32 and CRC32C.
	in := []byte("123456789")
	require.Equal(t, int64(0x091e01de), sparkshuffle.Adler32.Checksum(in))
	require.Equal(t, int64(0xcbf43926), sparkshuffle.CRC32.Checksum(in))
	require.Equal(t, int64(0xe3069283), sparkshuffle.CRC32C.Checksum(in))
	require.Equal(t, int64(1), sparkshuffle.Adler32.Empty())
	require.Equal(t, int64(0), sparkshuffle.CRC32.Empty())
	require.Equal(t, int64(0), sparkshuffle.CRC32C.Empty())
	for _, a := range []sparkshuffle.Algorithm{sparkshuffle.Adler32, sparkshuffle.CRC32, sparkshuffle.CRC32C} {
		h := a.New()
		h.Write(in[:4])
		h.Write(in[4:])
		require.Equal(t, a.Checksum(in), int64(h.Sum32()), a.String())
		p, err := sparkshuffle.ParseAlgorithm(a.String())
		require.NoError(t, err)
		require.Equal(t, a, p)
	}
	_, err := sparkshuffle.ParseAlgorithm("md5")
	require.Error(t, err)

	sums, err := sparkshuffle.ParseChecksums(be(1, 0xcbf43926), 2)
	require.NoError(t, err)
	require.Equal(t, []int64{1, 0xcbf43926}, sums)
	require.Equal(t, be(1, 0xcbf43926), sparkshuffle.AppendChecksums(nil, sums))
	_, err = sparkshuffle.ParseChecksums(be(1, 2, 3), 2)
	require.ErrorIs(t, err, sparkshuffle.ErrChecksumFile)
	require.Contains(t, err.Error(), "24 bytes, want 2 partitions x 8 = 16")
}
