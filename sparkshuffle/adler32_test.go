package sparkshuffle

import (
	"hash/adler32"
	"math/rand/v2"
	"testing"
)

// TestAdler32MatchesStdlib compares the 16-byte-step Adler-32 with
// hash/adler32 over every length up to a few runs, bytes of 0xff (the
// largest sums the lanes must hold) and random bytes, whole and in pieces.
func TestAdler32MatchesStdlib(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ones := make([]byte, 3*adlerRun+40)
	for i := range ones {
		ones[i] = 0xff
	}
	random := make([]byte, len(ones))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	for _, buf := range [][]byte{ones, random} {
		for n := 0; n <= len(buf); n += 1 + n/64 {
			want := adler32.Checksum(buf[:n])
			if got := adler32Update(1, buf[:n]); got != want {
				t.Fatalf("%d bytes starting % x: 0x%08x, want 0x%08x", n, buf[:min(n, 4)], got, want)
			}
			h := newAdler32()
			cut := rng.IntN(n + 1)
			h.Write(buf[:cut])
			h.Write(buf[cut:n])
			if got := h.Sum32(); got != want {
				t.Fatalf("%d bytes written as %d + %d: 0x%08x, want 0x%08x", n, cut, n-cut, got, want)
			}
		}
	}
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = 0xff
	}
	if got, want := adler32Update(1, big), adler32.Checksum(big); got != want {
		t.Fatalf("1 MiB of 0xff: 0x%08x, want 0x%08x", got, want)
	}
}

func BenchmarkAdler32(b *testing.B) {
	buf := make([]byte, 256<<10)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	b.Run("rowbridge", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			adler32Update(1, buf)
		}
	})
	b.Run("stdlib", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			adler32.Checksum(buf)
		}
	})
}
