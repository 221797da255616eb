package framing

import (
	"encoding/binary"
	"math/bits"
)

// xxh32 is XXH32 of b with a seed, the checksum of lz4-java's block
// streams. (pierrec/lz4 has one, internal and seed 0 only; no maintained
// module offers a seeded XXH32.)
func xxh32(b []byte, seed uint32) uint32 {
	if len(b) < 16 {
		return xxh32Finish(seed+xxhP5, b, len(b))
	}
	v := xxh32Start(seed)
	xxh32Lanes(&v, b)
	return xxh32Finish(xxh32Merge(v), b[len(b)&^15:], len(b))
}

// xxh32Pair is the XXH32s of a and of b, the lanes of both in one pass
// where the CPU can (two independent chains hide each other's latency).
func xxh32Pair(a, b []byte, seed uint32) (uint32, uint32) {
	if len(a) < 16 || len(b) < 16 {
		return xxh32(a, seed), xxh32(b, seed)
	}
	va, vb := xxh32Start(seed), xxh32Start(seed)
	m := min(len(a), len(b)) &^ 15
	xxh32Lanes2(&va, &vb, a[:m], b[:m])
	xxh32Lanes(&va, a[m:])
	xxh32Lanes(&vb, b[m:])
	return xxh32Finish(xxh32Merge(va), a[len(a)&^15:], len(a)), xxh32Finish(xxh32Merge(vb), b[len(b)&^15:], len(b))
}

func xxh32Start(seed uint32) [4]uint32 {
	return [4]uint32{seed + xxhP1 + xxhP2, seed + xxhP2, seed, seed - xxhP1}
}

func xxh32Merge(v [4]uint32) uint32 {
	return bits.RotateLeft32(v[0], 1) + bits.RotateLeft32(v[1], 7) + bits.RotateLeft32(v[2], 12) + bits.RotateLeft32(v[3], 18)
}

// xxh32Finish mixes in the length n of the whole input and its last bytes
// b (fewer than 16), then avalanches.
func xxh32Finish(h uint32, b []byte, n int) uint32 {
	h += uint32(n)
	for ; len(b) >= 4; b = b[4:] {
		h = bits.RotateLeft32(h+binary.LittleEndian.Uint32(b)*xxhP3, 17) * xxhP4
	}
	for _, c := range b {
		h = bits.RotateLeft32(h+uint32(c)*xxhP5, 11) * xxhP1
	}
	h ^= h >> 15
	h *= xxhP2
	h ^= h >> 13
	h *= xxhP3
	h ^= h >> 16
	return h
}

const (
	xxhP1 uint32 = 2654435761
	xxhP2 uint32 = 2246822519
	xxhP3 uint32 = 3266489917
	xxhP4 uint32 = 668265263
	xxhP5 uint32 = 374761393
)

// xxh32LanesGeneric is xxh32Lanes in plain Go.
func xxh32LanesGeneric(v *[4]uint32, b []byte) {
	v1, v2, v3, v4 := v[0], v[1], v[2], v[3]
	for ; len(b) >= 16; b = b[16:] {
		v1 = bits.RotateLeft32(v1+binary.LittleEndian.Uint32(b[0:])*xxhP2, 13) * xxhP1
		v2 = bits.RotateLeft32(v2+binary.LittleEndian.Uint32(b[4:])*xxhP2, 13) * xxhP1
		v3 = bits.RotateLeft32(v3+binary.LittleEndian.Uint32(b[8:])*xxhP2, 13) * xxhP1
		v4 = bits.RotateLeft32(v4+binary.LittleEndian.Uint32(b[12:])*xxhP2, 13) * xxhP1
	}
	*v = [4]uint32{v1, v2, v3, v4}
}
