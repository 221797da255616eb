package framing

import (
	"math/rand/v2"
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

// TestXXH32LanesAgree checks the lanes in use (a vector register on amd64
// with AVX) against the plain Go ones at every length to a few hundred
// bytes and at block sizes, from random accumulators.
func TestXXH32LanesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, SparkLZ4BlockSize+40)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	lengths := []int{SparkLZ4BlockSize - 1, SparkLZ4BlockSize, len(buf)}
	for n := range 400 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		start := [4]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
		got, want := start, start
		xxh32Lanes(&got, buf[:n])
		xxh32LanesGeneric(&want, buf[:n])
		require.Equal(t, want, got, "%d bytes", n)
	}
	// Pairs: each hash as xxh32 gives it alone, at lengths short and long,
	// equal and not.
	for range 300 {
		na, nb := rng.IntN(len(buf)+1), rng.IntN(len(buf)+1)
		if rng.IntN(3) == 0 {
			na, nb = rng.IntN(70), rng.IntN(70)
		}
		a, b := buf[:na], buf[len(buf)-nb:]
		seed := rng.Uint32()
		ha, hb := xxh32Pair(a, b, seed)
		require.Equal(t, xxh32(a, seed), ha, "first of %d and %d bytes", na, nb)
		require.Equal(t, xxh32(b, seed), hb, "second of %d and %d bytes", na, nb)
		va, vb := [4]uint32{1, 2, 3, 4}, [4]uint32{5, 6, 7, 8}
		wa, wb := va, vb
		m := min(na, nb)
		xxh32Lanes2(&va, &vb, a[:m], b[:m])
		xxh32LanesGeneric(&wa, a[:m])
		xxh32LanesGeneric(&wb, b[:m])
		require.Equal(t, wa, va)
		require.Equal(t, wb, vb)
	}
	// A published value (the xxhash project's Python binding documents it).
	require.Equal(t, uint32(0xe2293b2f), xxh32([]byte("Nobody inspects the spammish repetition"), 0))
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

func BenchmarkXXH32Lanes(b *testing.B) {
	buf := make([]byte, SparkLZ4BlockSize)
	for i := range buf {
		buf[i] = byte(i * 13)
	}
	for _, impl := range []struct {
		name string
		fn   func(*[4]uint32, []byte)
	}{{"used", xxh32Lanes}, {"generic", xxh32LanesGeneric}} {
		b.Run(impl.name, func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			var v [4]uint32
			for b.Loop() {
				impl.fn(&v, buf)
			}
		})
	}
}
