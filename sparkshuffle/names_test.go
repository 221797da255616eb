package sparkshuffle_test

import (
	"testing"

	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

func TestParseFileName(t *testing.T) {
	for _, c := range []struct {
		name string
		want sparkshuffle.FileName
	}{
		{"shuffle_0_0_0.index", sparkshuffle.FileName{Shuffle: 0, Map: 0, Kind: sparkshuffle.IndexFile}},
		{"shuffle_3_12_0.data", sparkshuffle.FileName{Shuffle: 3, Map: 12, Kind: sparkshuffle.DataFile}},
		{"shuffle_0_0_0.checksum.ADLER32", sparkshuffle.FileName{Kind: sparkshuffle.ChecksumFile, Algorithm: sparkshuffle.Adler32}},
		{"shuffle_1_9223372036854775807_0.checksum.CRC32", sparkshuffle.FileName{Shuffle: 1, Map: 9223372036854775807, Kind: sparkshuffle.ChecksumFile, Algorithm: sparkshuffle.CRC32}},
		{"shuffle_2147483647_5_0.checksum.CRC32C", sparkshuffle.FileName{Shuffle: 2147483647, Map: 5, Kind: sparkshuffle.ChecksumFile, Algorithm: sparkshuffle.CRC32C}},
	} {
		got, ok := sparkshuffle.ParseFileName(c.name)
		require.True(t, ok, c.name)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.name, got.String())
	}
	for _, bad := range []string{
		"shuffle_0_0_0.index.3f2a-uuid", // Spark's temporary index
		"shuffle_0_0_0.data.tmp",
		"temp_shuffle_0d0e",
		"shuffle_0_0_1.index", // reduce id other than 0
		"shuffle_0_0.index",
		"shuffle_01_0_0.index", // not canonical
		"shuffle_-1_0_0.index",
		"shuffle_+1_0_0.index",
		"shuffle_2147483648_0_0.index", // shuffle ids are Java ints
		"shuffle_0_9223372036854775808_0.index",
		"shuffle_0_0_0.checksum.adler32", // Spark writes the name upper case
		"shuffle_0_0_0.checksum.MD5",
		"shuffle_0_0_0.checksum.",
		"rdd_0_0", "broadcast_0", "shuffle__0_0.index", "shuffle_0_0_0.",
	} {
		_, ok := sparkshuffle.ParseFileName(bad)
		require.False(t, ok, bad)
	}
}

// The expected values were printed by Java 17: String.hashCode, then
// Spark's Utils.nonNegativeHash and DiskBlockManager.getFile placement
// over 3 local dirs and 64 sub-folders.
func TestPlacementMatchesJava(t *testing.T) {
	for _, c := range []struct {
		name     string
		hash     int32
		dir, sub int
	}{
		{"", 0, 0, 0x00},
		{"a", 97, 1, 0x20},
		{"hello", 99162322, 1, 0x1b},
		{"polygenelubricants", -2147483648, 0, 0x00}, // Integer.MIN_VALUE maps to 0
		{"shuffle_0_12_0.index", 853771371, 0, 0x39},
		{"shuffle_3_7_0.data", -692958398, 2, 0x14},
		{"\U0001F600x", 54959989, 1, 0x3c}, // a surrogate pair: two UTF-16 units
	} {
		require.Equal(t, c.hash, sparkshuffle.JavaStringHash(c.name), c.name)
		dir, sub := sparkshuffle.Placement(c.name, 3, 64)
		require.Equal(t, [2]int{c.dir, c.sub}, [2]int{dir, sub}, c.name)
	}
	require.Equal(t, "0a", sparkshuffle.SubDirName(10))
}
