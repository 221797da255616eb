package sparkshuffle

import (
	"encoding"
	"encoding/binary"
	"hash/adler32"
	"math/rand/v2"
	"testing"
)

// adlerImpls are the Adler-32s to check: the one used (AVX2 on an amd64
// that has it) and the plain Go one.
var adlerImpls = []struct {
	name string
	fn   func(uint32, []byte) uint32
}{{"used", adler32Update}, {"generic", adler32Generic}}

// TestAdler32MatchesStdlib compares the Adler-32s with hash/adler32 over
// every length up to a few runs, bytes of 0xff (the largest sums the lanes
// must hold) and random bytes, whole and in pieces, and over buffers of
// several chunks of the AVX2 one with every tail length past them.
func TestAdler32MatchesStdlib(t *testing.T) {
	for _, impl := range adlerImpls {
		t.Run(impl.name, func(t *testing.T) { testAdler32(t, impl.fn) })
	}
}

func testAdler32(t *testing.T, adler32Update func(uint32, []byte) uint32) {
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
	large := make([]byte, 3<<16+100)
	for i := range large {
		large[i] = byte(rng.Uint32())
	}
	for _, n := range []int{1 << 16, 1<<16 + 31, 1<<16 + 32, 1<<16 + 63, 2 << 16, 3<<16 - 1, len(large)} {
		for _, seed := range []uint32{1, adler32.Checksum(large[:7])} {
			want := adler32Continue(seed, large[:n])
			if got := adler32Update(seed, large[:n]); got != want {
				t.Fatalf("%d random bytes after 0x%08x: 0x%08x, want 0x%08x", n, seed, got, want)
			}
		}
	}
}

// adler32Continue is hash/adler32's Adler-32 of the bytes whose checksum
// is sum followed by p, through its binary state.
func adler32Continue(sum uint32, p []byte) uint32 {
	h := adler32.New()
	state, _ := h.(encoding.BinaryMarshaler).MarshalBinary()
	binary.BigEndian.PutUint32(state[len(state)-4:], sum)
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(state); err != nil {
		panic(err)
	}
	h.Write(p)
	return h.Sum32()
}

func BenchmarkAdler32(b *testing.B) {
	buf := make([]byte, 256<<10)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	for _, impl := range adlerImpls {
		b.Run(impl.name, func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				impl.fn(1, buf)
			}
		})
	}
	b.Run("stdlib", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			adler32.Checksum(buf)
		}
	})
}
