package trycast

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// u128 is an unsigned 128-bit magnitude. decimal128.Num's division and
// rescaling go through math/big and allocate, so the scalar conversions do
// their own arithmetic on magnitudes.
type u128 struct{ hi, lo uint64 }

var pow10u64 = [20]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// pow10u128[i] = 10^i for i in 0..38.
var pow10u128 = func() (t [39]u128) {
	t[0] = u128{lo: 1}
	for i := 1; i < 39; i++ {
		t[i], _ = t[i-1].mul64(10)
	}
	return t
}()

func (a u128) isZero() bool { return a.hi == 0 && a.lo == 0 }

func (a u128) less(b u128) bool { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) }

// mul64 returns a*m and whether it overflowed 128 bits.
func (a u128) mul64(m uint64) (u128, bool) {
	h1, l := bits.Mul64(a.lo, m)
	h2, l2 := bits.Mul64(a.hi, m)
	h, c := bits.Add64(h1, l2, 0)
	return u128{h, l}, h2 != 0 || c != 0
}

// add64 returns a+v and whether it overflowed.
func (a u128) add64(v uint64) (u128, bool) {
	l, c := bits.Add64(a.lo, v, 0)
	h, c2 := bits.Add64(a.hi, 0, c)
	return u128{h, l}, c2 != 0
}

// divmod64 returns a/d and a%d for d != 0.
func (a u128) divmod64(d uint64) (u128, uint64) {
	qh, r := a.hi/d, a.hi%d
	ql, r := bits.Div64(r, a.lo, d)
	return u128{qh, ql}, r
}

// divPow10 returns floor(a / 10^k) for k in 0..38.
func (a u128) divPow10(k int) u128 {
	for k > 19 {
		a, _ = a.divmod64(pow10u64[19])
		k -= 19
	}
	if k > 0 {
		a, _ = a.divmod64(pow10u64[k])
	}
	return a
}

// divPow10HalfUp returns a / 10^k rounded half away from zero (on the
// magnitude), for k in 1..38.
func (a u128) divPow10HalfUp(k int) u128 {
	q := a.divPow10(k - 1)
	q, r := q.divmod64(10)
	if r >= 5 {
		q, _ = q.add64(1)
	}
	return q
}

// mulPow10 returns a*10^k and whether the result is >= 10^38 (or overflowed).
func (a u128) mulPow10(k int) (u128, bool) {
	if a.isZero() {
		return a, false
	}
	if k > 38 {
		return a, true
	}
	for k > 0 {
		n := k
		if n > 19 {
			n = 19
		}
		var of bool
		a, of = a.mul64(pow10u64[n])
		if of {
			return a, true
		}
		k -= n
	}
	return a, !a.less(pow10u128[38])
}

// fitsPrecision reports whether a < 10^p.
func (a u128) fitsPrecision(p int32) bool {
	if p < 0 || p > 38 {
		return p > 38
	}
	return a.less(pow10u128[p])
}

// numFromMag builds a decimal128 from a magnitude below 2^127 and a sign.
func numFromMag(a u128, neg bool) decimal128.Num {
	n := decimal128.New(int64(a.hi), a.lo)
	if neg {
		n = n.Negate()
	}
	return n
}

// magFromNum splits a decimal128 into magnitude and sign.
func magFromNum(n decimal128.Num) (u128, bool) {
	if n.Sign() < 0 {
		n = n.Negate()
		return u128{uint64(n.HighBits()), n.LowBits()}, true
	}
	return u128{uint64(n.HighBits()), n.LowBits()}, false
}

// appendU128 appends the decimal digits of a.
func appendU128(dst []byte, a u128) []byte {
	var buf [40]byte
	i := len(buf)
	for a.hi != 0 {
		var r uint64
		a, r = a.divmod64(pow10u64[19])
		for k := 0; k < 19; k++ {
			i--
			buf[i] = byte('0' + r%10)
			r /= 10
		}
	}
	v := a.lo
	for v >= 10 {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
	}
	i--
	buf[i] = byte('0' + v)
	return append(dst, buf[i:]...)
}
