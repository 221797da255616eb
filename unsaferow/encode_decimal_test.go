package unsaferow

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// putBigInteger writes Java's BigInteger.toByteArray of every 128-bit
// value, of every length from 1 to 16 bytes and both signs, into exactly
// the padded room its owner reserves, leaving the padding zero.
func TestPutBigIntegerWritesMinimalTwosComplement(t *testing.T) {
	for bit := 0; bit < 128; bit++ {
		for _, neg := range []bool{false, true} {
			for _, delta := range []int64{-1, 0, 1} {
				v := new(big.Int).Lsh(big.NewInt(1), uint(bit))
				v.Add(v, big.NewInt(delta))
				if neg {
					v.Neg(v)
				}
				if v.BitLen() > 127 {
					continue
				}
				lo, hi := int128Halves(v)
				want := javaBytes(v)
				n := bigIntegerLen(lo, hi)
				require.Equal(t, len(want), n, "%v", v)
				dst := make([]byte, padTo8(n))
				require.Equal(t, n, putBigInteger(dst, lo, hi))
				require.Equal(t, want, dst[:n], "%v", v)
				require.True(t, bytes.Equal(dst[n:], make([]byte, len(dst)-n)), "%v: padding %x", v, dst[n:])
			}
		}
	}
}

// int128Halves is v as two's complement halves (v fits 128 bits).
func int128Halves(v *big.Int) (lo uint64, hi int64) {
	m := new(big.Int).Lsh(big.NewInt(1), 128)
	u := new(big.Int).Mod(v, m) // two's complement of a negative v
	b := make([]byte, 16)
	u.FillBytes(b)
	for i := 0; i < 8; i++ {
		hi = hi<<8 | int64(b[i])
		lo = lo<<8 | uint64(b[8+i])
	}
	return lo, hi
}

// javaBytes is BigInteger.toByteArray: the fewest big-endian two's
// complement bytes that keep the sign.
func javaBytes(v *big.Int) []byte {
	n := v.BitLen()/8 + 1
	if v.Sign() < 0 {
		// -2^k takes k bits plus the sign; other negatives as their complement.
		c := new(big.Int).Not(v) // -v-1 >= 0
		n = c.BitLen()/8 + 1
	}
	m := new(big.Int).Lsh(big.NewInt(1), uint(8*n))
	u := new(big.Int).Mod(v, m)
	b := make([]byte, n)
	u.FillBytes(b)
	return b
}
