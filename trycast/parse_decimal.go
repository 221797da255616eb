package trycast

import "github.com/apache/arrow-go/v18/arrow/decimal128"

// ParseDecimal parses s as decimal(precision, scale) the way dialect d
// casts a string to a decimal: [+-](digits[.digits]|.digits)[(e|E)[+-]digits],
// rounded HALF_UP (first dropped digit >= 5 rounds away from zero) to
// scale, failing when the result needs more than precision digits.
//
// Presto allows no whitespace at all; Spark (Java BigDecimal after
// String.trim) trims 0x00..0x20. Spark also rejects a zero whose exponent
// puts more than 38 digits before the point ("0e50"), as its fast-fail
// check on integral digits does.
func ParseDecimal(s []byte, precision, scale int32, d Dialect) (decimal128.Num, bool) {
	if d != Presto {
		s = trimClass(s, clsJavaTrim)
	}
	x, ok := scanDecimal(s)
	if !ok {
		return decimal128.Num{}, false
	}
	if d != Presto && x.isZero() && 1-int64(len(x.frac))+x.exp > 38 {
		return decimal128.Num{}, false
	}
	return x.round(precision, scale)
}

// decText is a decimal number as it appears in text: value =
// (int digits ++ frac digits) * 10^(exp - len(frac)).
type decText struct {
	intp, frac []byte
	exp        int64
	neg        bool
}

const maxDecExp = 1<<31 - 1 // Java's int exponent; larger fails

// scanDecimal checks the decimal grammar and splits s into its parts.
func scanDecimal(s []byte) (decText, bool) {
	var x decText
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		x.neg = s[i] == '-'
		i++
	}
	st := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	x.intp = s[st:i]
	if i < len(s) && s[i] == '.' {
		i++
		st = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		x.frac = s[st:i]
	}
	if len(x.intp) == 0 && len(x.frac) == 0 {
		return x, false
	}
	if i < len(s) && (s[i]|0x20) == 'e' {
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return x, false
		}
		for ; i < len(s); i++ {
			c := s[i] - '0'
			if c > 9 {
				return x, false
			}
			x.exp = x.exp*10 + int64(c)
			if x.exp > maxDecExp {
				return x, false
			}
		}
		if eneg {
			x.exp = -x.exp
		}
	}
	return x, i == len(s)
}

func (x *decText) digit(k int) byte {
	if k < len(x.intp) {
		return x.intp[k] - '0'
	}
	return x.frac[k-len(x.intp)] - '0'
}

func (x *decText) isZero() bool {
	for _, c := range x.intp {
		if c != '0' {
			return false
		}
	}
	for _, c := range x.frac {
		if c != '0' {
			return false
		}
	}
	return true
}

// round returns the value rounded HALF_UP to scale as an unscaled
// decimal128, or false when it does not fit precision digits.
func (x *decText) round(precision, scale int32) (decimal128.Num, bool) {
	n := len(x.intp) + len(x.frac)
	// The unscaled result is digits * 10^shift.
	shift := x.exp - int64(len(x.frac)) + int64(scale)
	keep := n
	if shift < 0 {
		if int64(n)+shift < 0 {
			keep = -1 // even the rounding digit is an implied leading zero
		} else {
			keep = n + int(shift)
		}
	}
	limit := pow10u128[38]
	if precision >= 0 && precision < 38 {
		limit = pow10u128[precision]
	}
	var mag u128
	for k := 0; k < keep; k++ {
		var of bool
		mag, of = mag.mul64(10)
		if !of {
			mag, of = mag.add64(uint64(x.digit(k)))
		}
		if of || !mag.less(limit) {
			return decimal128.Num{}, false
		}
	}
	if shift < 0 {
		if keep >= 0 && x.digit(keep) >= 5 {
			mag, _ = mag.add64(1)
		}
	} else if shift > 0 && !mag.isZero() {
		if shift > 38 {
			return decimal128.Num{}, false
		}
		var of bool
		if mag, of = mag.mulPow10(int(shift)); of {
			return decimal128.Num{}, false
		}
	}
	if !mag.less(limit) {
		return decimal128.Num{}, false
	}
	return numFromMag(mag, x.neg && !mag.isZero()), true
}
