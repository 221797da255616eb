package framing

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestXXH32KnownAnswers(t *testing.T) {
	require.Equal(t, uint32(0x02CC5D05), xxh32(nil, 0), "empty, seed 0")
	require.Equal(t, uint32(0x550D7456), xxh32([]byte("a"), 0))
	require.Equal(t, uint32(0x32D153FF), xxh32([]byte("abc"), 0))
	// What lz4-java 1.8.0 computes for the 88-byte stream of the E1 rows
	// (seed 0x9747B28C); its block header stores the low 28 bits.
	e1 := unhex(t, javaE1Raw)
	require.Equal(t, uint32(0x40CFB545), xxh32(e1, lz4Seed))
	require.Equal(t, uint32(0x00CFB545), lz4Checksum(e1))
}

func BenchmarkXXH32(b *testing.B) {
	buf := make([]byte, SparkLZ4BlockSize)
	for i := range buf {
		buf[i] = byte(i * 13)
	}
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		xxh32(buf, lz4Seed)
	}
}
