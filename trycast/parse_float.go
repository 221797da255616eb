package trycast

import (
	"math"
	"math/big"
	"strconv"
	"unsafe"
)

// ParseFloat parses s as a real (bits 32) or double (bits 64) the way
// dialect d casts a string to a floating-point type. A 32-bit result is
// rounded once, directly to float32 precision, and returned widened.
//
// Presto: leading/trailing C whitespace, [+-] decimal or exponent form,
// and exact-case [+-]NaN / [+-]Infinity only. Spark (both modes, Java
// Double.parseDouble): trims 0x00..0x20, also accepts an f/F/d/D suffix,
// hex floats (0x1.8p1) and the case-insensitive literals inf, +inf,
// infinity, +infinity, -inf, -infinity, nan. Overflow gives ±Infinity and
// underflow ±0 in every dialect.
func ParseFloat(s []byte, bits int, d Dialect) (float64, bool) {
	if d == Presto {
		s = trimClass(s, clsCSpace)
	} else {
		s = trimClass(s, clsJavaTrim)
	}
	if len(s) == 0 {
		return 0, false
	}
	neg := false
	i := 0
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		i = 1
	}
	if i < len(s) && (s[i] == 'N' || s[i] == 'I') {
		if v, ok := exactSpecial(s[i:], neg); ok {
			return v, true
		}
	}
	if d != Presto {
		if i+1 < len(s) && s[i] == '0' && (s[i+1]|0x20) == 'x' {
			return parseHexFloat(s, i+2, neg, bits)
		}
		// Java accepts a float/double type suffix after the number.
		if c := s[len(s)-1] | 0x20; c == 'f' || c == 'd' {
			if v, ok := parseDecFloat(s[:len(s)-1], i, neg, bits); ok {
				return v, true
			}
		} else if v, ok := parseDecFloat(s, i, neg, bits); ok {
			return v, true
		}
		return sparkSpecial(s)
	}
	return parseDecFloat(s, i, neg, bits)
}

// exactSpecial matches the case-sensitive NaN and Infinity literals.
func exactSpecial(s []byte, neg bool) (float64, bool) {
	switch string(s) {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	return 0, false
}

// sparkSpecial is Spark's fallback for literals Java rejects.
func sparkSpecial(s []byte) (float64, bool) {
	switch len(s) {
	case 3:
		if equalFold(s, "inf") {
			return math.Inf(1), true
		}
		if equalFold(s, "nan") {
			return math.NaN(), true
		}
	case 4:
		if equalFold(s, "+inf") {
			return math.Inf(1), true
		}
		if equalFold(s, "-inf") {
			return math.Inf(-1), true
		}
	case 8:
		if equalFold(s, "infinity") {
			return math.Inf(1), true
		}
	case 9:
		if equalFold(s, "+infinity") {
			return math.Inf(1), true
		}
		if equalFold(s, "-infinity") {
			return math.Inf(-1), true
		}
	}
	return 0, false
}

var pow10f64 = [23]float64{
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
}

var pow10f32 = [11]float32{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}

// Overflow thresholds: the smallest magnitudes that round to infinity,
// as significant digits of a number in [1e308, 1e309) resp. [1e38, 1e39).
// Values at or above them are answered here so strconv is never asked to
// report a range error (its error value allocates).
var (
	overflowDigits64 = thresholdDigits(1024, 970)
	overflowDigits32 = thresholdDigits(128, 103)
)

// thresholdDigits returns the decimal digits of 2^a - 2^b.
func thresholdDigits(a, b uint) string {
	x := new(big.Int).Lsh(big.NewInt(1), a)
	x.Sub(x, new(big.Int).Lsh(big.NewInt(1), b))
	return x.String()
}

// parseDecFloat parses s[i:] as [digits][.digits][(e|E)[+-]digits] with at
// least one mantissa digit; s[:i] is the optional sign.
func parseDecFloat(s []byte, i int, neg bool, bits int) (float64, bool) {
	var mant uint64
	nd := 0      // significant digits seen (after leading zeros)
	dropped := 0 // significant digits not kept in mant
	dotAdj := 0  // decimal exponent adjustment from digit positions
	sawDigit := false
	firstSig := -1 // index of the first significant digit
	for ; i < len(s) && isDigit(s[i]); i++ {
		sawDigit = true
		c := s[i] - '0'
		if nd == 0 && c == 0 {
			continue
		}
		if nd == 0 {
			firstSig = i
		}
		nd++
		if nd <= 19 {
			mant = mant*10 + uint64(c)
		} else {
			dropped++
		}
	}
	intSig := nd // significant integer digits
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && isDigit(s[i]); i++ {
			sawDigit = true
			c := s[i] - '0'
			if nd == 0 && c == 0 {
				dotAdj--
				continue
			}
			if nd == 0 {
				firstSig = i
			}
			nd++
			if nd <= 19 {
				mant = mant*10 + uint64(c)
				dotAdj--
			} else {
				dropped++
			}
		}
	}
	if !sawDigit {
		return 0, false
	}
	mantEnd := i
	// The exponent saturates at maxExpField: the digit counts it is
	// combined with are bounded by len(s), so a saturated exponent still
	// decides overflow and underflow, while any exponent that a long
	// mantissa can cancel is kept exactly.
	var exp int64
	if i < len(s) && (s[i]|0x20) == 'e' {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return 0, false
		}
		for ; i < len(s); i++ {
			c := s[i] - '0'
			if c > 9 {
				return 0, false
			}
			if exp < maxExpField {
				exp = exp*10 + int64(c)
			}
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(s) {
		return 0, false
	}
	if nd == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	// Fast path: the mantissa and the power of ten are exact, so one
	// multiplication or division rounds correctly.
	if dropped == 0 && exp > -100 && exp < 100 {
		e := int(exp) + dotAdj
		if bits == 32 {
			if mant <= 1<<24 && e >= -10 && e <= 10 {
				f := float32(mant)
				if e < 0 {
					f /= pow10f32[-e]
				} else {
					f *= pow10f32[e]
				}
				if neg {
					f = -f
				}
				return float64(f), true
			}
		} else if mant <= 1<<53 && e >= -22 && e <= 22 {
			f := float64(mant)
			if e < 0 {
				f /= pow10f64[-e]
			} else {
				f *= pow10f64[e]
			}
			if neg {
				f = -f
			}
			return f, true
		}
	}
	// sci is the decimal exponent of the first significant digit.
	sci := exp + int64(intSig) - 1
	if intSig == 0 {
		sci = exp + int64(dotAdj+(nd-dropped)) - 1
	}
	maxSci, minSci, thr := int64(308), int64(-400), overflowDigits64
	if bits == 32 {
		maxSci, minSci, thr = 38, -60, overflowDigits32
	}
	if sci > maxSci || (sci == maxSci && !digitsBelow(s[firstSig:mantEnd], thr)) {
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if sci < minSci {
		// Below 10^(minSci+1), far under half the smallest subnormal.
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	str := unsafe.String(&s[0], len(s))
	if nd > strconvMaxDigits || exp <= -strconvMaxExp || exp >= strconvMaxExp {
		// strconv misreads more than 800 significant digits (its slow path
		// then misplaces the decimal point: "1" + 800 zeros + "e-800" reads
		// as 0.1) and stops reading exponents at five digits (this one is
		// cancelled by the mantissa's length). Restate the number with its
		// leading digits and the exponent of the first one.
		var buf [strconvMaxDigits + 24]byte
		str = restateDecimal(buf[:0], s[firstSig:mantEnd], sci, neg)
	}
	// The grammar above accepted s, and strconv accepts a superset of it;
	// the value is below the overflow threshold so no error is built.
	f, err := strconv.ParseFloat(str, bitSize(bits))
	if err != nil {
		return 0, false
	}
	return f, true
}

const (
	// maxExpField is where parseDecFloat stops accumulating exponent
	// digits; far above any digit count a []byte can hold together with
	// it in an int64.
	maxExpField = 1 << 50
	// strconvMaxExp is the smallest exponent strconv.ParseFloat does not
	// read exactly (it stops accumulating at 10000 before a digit).
	strconvMaxExp = 100000
	// strconvMaxDigits is the most significant digits strconv.ParseFloat
	// reads correctly: its slow path's decimal holds 800.
	strconvMaxDigits = 800
)

// restateDecimal writes [-]D[1]e(E) into dst, where D is at most the first
// 799 significant digits of mant (digits and at most one '.', starting at
// the first significant digit), a trailing 1 stands for any non-zero
// digits cut off, and E places D's first digit at 10^sci. The rounding is
// unchanged: a point halfway between two floats has at most 767
// significant digits, so the digits kept decide on which side of it the
// value lies, and the sticky 1 keeps a cut-off tail from looking like a
// tie. The result has at most strconvMaxDigits digits.
func restateDecimal(dst []byte, mant []byte, sci int64, neg bool) string {
	if neg {
		dst = append(dst, '-')
	}
	start := len(dst)
	sticky := false
	for _, c := range mant {
		if c == '.' {
			continue
		}
		if len(dst)-start < strconvMaxDigits-1 {
			dst = append(dst, c)
		} else if c != '0' {
			sticky = true
			break
		}
	}
	if sticky {
		dst = append(dst, '1')
	}
	dst = append(dst, 'e')
	dst = strconv.AppendInt(dst, sci-int64(len(dst)-start-2), 10)
	return unsafe.String(&dst[0], len(dst))
}

func bitSize(bits int) int {
	if bits == 32 {
		return 32
	}
	return 64
}

// digitsBelow reports whether the significant digits in s (which may
// contain one '.' and stop before any exponent) compare below thr, both
// read as digit strings with the same decimal exponent.
func digitsBelow(s []byte, thr string) bool {
	k := 0
	for _, c := range s {
		if c == '.' {
			continue
		}
		if k < len(thr) {
			if c != thr[k] {
				return c < thr[k]
			}
			k++
			continue
		}
		if c != '0' {
			return false
		}
	}
	// Equal to the threshold prefix: below only if the threshold has more
	// non-zero digits left.
	for ; k < len(thr); k++ {
		if thr[k] != '0' {
			return true
		}
	}
	return false
}

// parseHexFloat parses a Java hex float literal after the "0x" prefix at
// s[i:]: hexdigits[.hexdigits] p[+-]digits, optional f/F/d/D suffix.
func parseHexFloat(s []byte, i int, neg bool, bits int) (float64, bool) {
	end := len(s)
	if c := s[end-1] | 0x20; c == 'f' || c == 'd' {
		end--
	}
	sawDigit := false
	topBit := 0 // bit length of the integer hex digits
	for ; i < end && isHex(s[i]); i++ {
		sawDigit = true
		if topBit == 0 {
			topBit = hexBitLen[hexVal(s[i])]
		} else {
			topBit += 4
		}
	}
	if i < end && s[i] == '.' {
		for i++; i < end && isHex(s[i]); i++ {
			sawDigit = true
		}
	}
	if !sawDigit || i == end || (s[i]|0x20) != 'p' {
		return 0, false
	}
	i++
	if i < end && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i == end {
		return 0, false
	}
	exp := 0
	expStart := i
	for ; i < end; i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		if exp < 100000 {
			exp = exp*10 + int(s[i]-'0')
		}
	}
	maxExp := 1024
	if bits == 32 {
		maxExp = 128
	}
	// Above 2^maxExp the value is infinite; answering here keeps strconv
	// from building a range error.
	if topBit > 0 && s[expStart-1] != '-' && topBit+exp > maxExp {
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	f, err := strconv.ParseFloat(unsafe.String(&s[0], end), bitSize(bits))
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	// A range error here (a hex literal just above the largest finite
	// value) is rare enough to pay strconv's error allocation.
	return f, true
}

var hexBitLen = [16]int{0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4}

func hexVal(c byte) byte {
	if isDigit(c) {
		return c - '0'
	}
	return (c | 0x20) - 'a' + 10
}

func isHex(c byte) bool {
	return isDigit(c) || (c|0x20)-'a' < 6
}
