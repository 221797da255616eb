package trycast

import "math"

// AppendFloat's common case, a double in the plain range 1e-3 <= |v| < 1e7
// whose shortest round-trip digits number at most 15, is found without
// strconv's shortest-digit search and its 'e' text. Let k be the most
// fraction digits that keep |v| * 10^k under 10^15. Any decimal of at most
// 15 digits that rounds to v has at most k fraction digits, so, written
// with k, it is an integer m < 10^15; m is the only such integer (two are
// 10^-k apart, more than v's precision), m = round(|v| * 10^k) (|v| * 10^k
// is within 0.12 of m and the product's own rounding adds at most 0.12),
// and it rounds to v exactly when m / 10^k == |v| (both exact doubles, one
// correctly rounded division: ParseFloat's own fast case). If it does not,
// v needs 16 or 17 digits and strconv finds them. If it does, m without
// its trailing zeros (down to k = 0) is strconv's shortest digits (the
// shortest decimal, written with k digits, is m), and the output is
// AppendFloat's plain notation of them. TestAppendPlainFloatMatchesStrconv
// and FuzzAppendPlainFloat hold it to the strconv path (appendFloatDigits)
// byte for byte.

// appendPlainFloat appends v as AppendFloat does for a double, false
// (dst unchanged) when v is outside the case above.
func appendPlainFloat(dst []byte, v float64) ([]byte, bool) {
	a := v
	if a < 0 {
		a = -a
	}
	if !(a >= 1e-3 && a < 1e7) { // false for NaN
		return dst, false
	}
	// k is 14 - floor(log10(a)): one binade holds at most one power of ten.
	b := &plainBinades[(math.Float64bits(a)>>52-1013)&63]
	k := int(b.k)
	if a >= b.ten {
		k--
	}
	// a*10^k + 0.5 is at least 0.38 away from an integer, far more than
	// the sum's rounding, so the conversion rounds half up to m.
	m := uint64(a*pow10f64[k&31] + 0.5)
	if m >= 1e15 || float64(m)/pow10f64[k&31] != a {
		return dst, false
	}
	for k >= 4 && m%10000 == 0 {
		m /= 10000
		k -= 4
	}
	for k > 0 && m%10 == 0 {
		m /= 10
		k--
	}
	// The integer part of a is that of m / 10^k: m / 10^k is an integer
	// (then a equals it) or at least 10^-k from one, far more than a's
	// distance to it.
	whole := uint64(a)
	if v < 0 {
		dst = append(dst, '-')
	}
	return appendFixed(dst, whole, m-whole*pow10u64[k], k), true
}

// plainBinades[e-1013], for the binade [2^(e-1023), 2^(e-1022)) of the
// plain range: k for its values below ten, the power of ten in it (+Inf
// when there is none), above which k is one less.
var plainBinades = func() (t [64]struct {
	k   int8
	ten float64
}) {
	for i := range t {
		lo := math.Ldexp(1, i+1013-1023)
		t[i].k, t[i].ten = int8(14-math.Floor(math.Log10(lo))), math.Inf(1)
		for j := -3; j <= 7; j++ {
			if p := math.Pow10(j); p > lo && p < 2*lo {
				t[i].ten = p
			}
		}
	}
	return t
}()

// appendFixed appends whole, '.', and frac as k digits (k > 0), or whole
// and ".0" (k = 0), two digits at a time.
func appendFixed(dst []byte, whole, frac uint64, k int) []byte {
	var buf [24]byte // 7 integer digits, a point, up to 17 fraction digits
	i := len(buf)
	if k == 0 {
		i -= 2
		buf[i], buf[i+1] = '.', '0'
	}
	for ; k >= 2; k -= 2 {
		q := frac / 100
		i -= 2
		buf[i], buf[i+1] = digitPairs[2*(frac-q*100)], digitPairs[2*(frac-q*100)+1]
		frac = q
	}
	if k == 1 {
		i--
		buf[i] = byte('0' + frac)
	}
	if buf[i] != '.' {
		i--
		buf[i] = '.'
	}
	for whole >= 10 {
		q := whole / 100
		i -= 2
		buf[i], buf[i+1] = digitPairs[2*(whole-q*100)], digitPairs[2*(whole-q*100)+1]
		whole = q
	}
	if whole > 0 || buf[i] == '.' {
		i--
		buf[i] = byte('0' + whole)
	}
	return append(dst, buf[i:]...)
}

// digitPairs holds "00" to "99".
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"
