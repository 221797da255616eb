package sparkhash

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// The Murmur3_x86_32 primitives exactly as Spark's
// org.apache.spark.unsafe.hash.Murmur3_x86_32 implements them. All arithmetic
// is on uint32 so that it wraps as Java's int does; results are returned as
// int32, Spark's int.

const (
	c1 = 0xcc9e2d51
	c2 = 0x1b873593
)

func mixK1(k1 uint32) uint32 {
	k1 *= c1
	k1 = bits.RotateLeft32(k1, 15)
	return k1 * c2
}

func mixH1(h1, k1 uint32) uint32 {
	h1 ^= k1
	h1 = bits.RotateLeft32(h1, 13)
	return h1*5 + 0xe6546b64
}

func fmix(h1 uint32, length uint32) uint32 {
	h1 ^= length
	h1 ^= h1 >> 16
	h1 *= 0x85ebca6b
	h1 ^= h1 >> 13
	h1 *= 0xc2b2ae35
	h1 ^= h1 >> 16
	return h1
}

// HashInt is Spark's Murmur3_x86_32.hashInt: one 4-byte word.
func HashInt(v int32, seed int32) int32 {
	return int32(fmix(mixH1(uint32(seed), mixK1(uint32(v))), 4))
}

// HashLong is Spark's Murmur3_x86_32.hashLong: the low word, then the high
// word, then fmix with length 8.
func HashLong(v int64, seed int32) int32 {
	u := uint64(v)
	h1 := mixH1(uint32(seed), mixK1(uint32(u)))
	h1 = mixH1(h1, mixK1(uint32(u>>32)))
	return int32(fmix(h1, 8))
}

// HashBytes is Spark's Murmur3_x86_32.hashUnsafeBytes, the legacy variant
// that Spark's hash() uses for strings, binary and long decimals: the
// 4-byte-aligned prefix as little-endian words, then each trailing byte,
// sign-extended to an int, mixed as a word of its own, then fmix with the
// length. (Standard Murmur3 packs the tail into one word; the two agree only
// when the length is a multiple of 4.)
func HashBytes(b []byte, seed int32) int32 {
	h1 := uint32(seed)
	n := len(b)
	aligned := n &^ 3
	for i := 0; i < aligned; i += 4 {
		h1 = mixH1(h1, mixK1(binary.LittleEndian.Uint32(b[i:i+4])))
	}
	for _, c := range b[aligned:] {
		h1 = mixH1(h1, mixK1(uint32(int32(int8(c)))))
	}
	return int32(fmix(h1, uint32(n)))
}

// HashBool hashes a boolean as Spark does: the int 1 or 0.
func HashBool(v bool, seed int32) int32 {
	if v {
		return HashInt(1, seed)
	}
	return HashInt(0, seed)
}

// HashFloat32 hashes a float as Spark does: -0.0 as the int 0, every NaN as
// Java's canonical NaN (Float.floatToIntBits), otherwise the IEEE bits.
func HashFloat32(v float32, seed int32) int32 {
	return HashInt(int32(floatBits(v)), seed)
}

// HashFloat64 hashes a double as Spark does: -0.0 as the long 0, every NaN
// as Java's canonical NaN (Double.doubleToLongBits), otherwise the IEEE bits.
func HashFloat64(v float64, seed int32) int32 {
	return HashLong(int64(doubleBits(v)), seed)
}

func floatBits(v float32) uint32 {
	switch {
	case v == 0: // both zeros
		return 0
	case v != v:
		return 0x7fc00000
	}
	return math.Float32bits(v)
}

func doubleBits(v float64) uint64 {
	switch {
	case v == 0:
		return 0
	case v != v:
		return 0x7ff8000000000000
	}
	return math.Float64bits(v)
}
