package trycast

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// String kernels other than the integer one settle rows 8 at a time too
// (see parseIntRows for why a call per row costs as much as a short
// parse): a call-free loop (settleFloats, settleDecimals, settleDates)
// decides the plain forms every dialect reads the same way, and the rows
// it leaves go one by one to the full parser, whose answer is the only
// definition; the tests hold every row of random and edge-case columns
// to it. A row settled as a failure is one no dialect accepts.

// settleRows runs settle on each 8 rows of s, then parse on the rows it
// left (settleGroups); groups of only nulls or empty strings fail without
// either.
func settleRows[O offset, T any](s stringCol[O], vals []T, bits []byte,
	settle func(rows []T, offs []O, data []byte) (ok, slow byte), parse func(v []byte) (T, bool)) {
	offs, data := s.offs[:len(vals)+1], s.data
	settleGroups(vals, bits, s.valid, s.bit0,
		func(base, m int) bool { return offs[base] == offs[base+m] },
		func(base int, rows []T) (ok, slow byte) { return settle(rows, offs[base:base+len(rows)+1], data) },
		func(i int) (T, bool) { return parse(data[offs[i]:offs[i+1]]) })
}

// numberEnd reports whether v, a row whose plain number stops at byte
// stop (0 < stop < len(v)), is one no dialect reads as a float: the byte
// is printable ASCII and not a digit, '.', a sign or an exponent, nor
// Java's type suffix as the last byte (f, d) or hex's 'x' after a lone 0.
// Whitespace, control bytes and non-ASCII bytes may be trimmed, so they
// leave the row to the parser.
func numberEnd(v []byte, stop int) bool {
	switch c := v[stop]; c {
	case '.', '+', '-', 'e', 'E':
		return false
	case 'f', 'F', 'd', 'D':
		return stop+1 < len(v) && v[stop+1] > ' ' && v[stop+1] < 0x7f
	case 'x', 'X':
		return !(v[stop-1] == '0' && (stop == 1 || stop == 2 && v[0] == '-'))
	default:
		return c > ' ' && c < 0x7f && !isDigit(c)
	}
}

// decimalEnd is numberEnd for decimals, which have no type suffix or hex.
func decimalEnd(c byte) bool {
	switch c {
	case '.', '+', '-', 'e', 'E':
		return false
	}
	return c > ' ' && c < 0x7f && !isDigit(c)
}

// settleEmpty settles only empty rows (failures) and leaves the rest.
func settleEmpty[O offset, T any](rows []T, offs []O, _ []byte) (ok, slow byte) {
	var zero T
	for j := range rows {
		rows[j] = zero
		if offs[j+1] != offs[j] {
			slow |= 1 << (j & 7)
		}
	}
	return 0, slow
}

// plainNumber scans [-]digits[.digits] from the start of v, in one loop
// small enough to inline: the digits as one integer (exact when there are
// at most 19), the count of all digits and of those after the point, and
// the index where the scan stopped. v is exactly a plain number when stop
// is len(v) (v is not empty), and the scan stopped neither at the start, after a sign, nor
// right after the point (plainOK).
func plainNumber(v []byte) (mant uint64, digits, dot, stop int) {
	dot = len(v)
	i := 0
	if v[0] == '-' { // v is not empty
		i = 1
	}
	for ; i < len(v); i++ {
		if c := v[i] - '0'; c <= 9 {
			mant = mant*10 + uint64(c)
			digits++
		} else if v[i] != '.' || dot != len(v) {
			break
		} else {
			dot = i
		}
	}
	return mant, digits, dot, i
}

// fracDigits is the count of digits after the point found by plainNumber.
func fracDigits(dot, stop int) int { return max(stop-dot-1, 0) }

// plainOK reports whether a scan by plainNumber read a whole plain number:
// digits before the point, and after it if there is one.
func plainOK(v []byte, digits, frac, stop int) bool {
	return stop == len(v) && digits > frac && (frac > 0 || v[stop-1] != '.')
}

// strayByte reports whether a scan that read digits digits stopped at
// byte stop of v, inside it, after a digit and not right after the point:
// the byte there (numberEnd, decimalEnd) then decides whether the row
// fails in every dialect.
func strayByte(v []byte, digits, stop int) bool {
	return stop > 0 && stop < len(v) && digits > 0 && v[stop-1] != '.'
}

// settleFloats: a plain number of at most 15 digits (2^53 > 10^15) with at
// most 22 fraction digits is m / 10^frac, both exact doubles, so the one
// division rounds correctly; for a real, m < 2^24 and frac <= 10 in
// float32 arithmetic. -0 keeps its sign, as strconv's does.
func settleFloats[O offset, T float32 | float64](rows []T, offs []O, data []byte) (ok, slow byte) {
	lo := offs[0]
	ends := offs[1:]
	ends = ends[:len(rows)]
	var zero T
	real := unsafe.Sizeof(zero) == 4
	for j := range rows {
		hi := ends[j]
		v := data[lo:hi]
		lo = hi
		bit := byte(1) << (j & 7)
		rows[j] = 0
		if len(v) == 0 {
			continue // empty: no dialect reads a number
		}
		mant, digits, dot, stop := plainNumber(v)
		frac := fracDigits(dot, stop)
		if !plainOK(v, digits, frac, stop) || digits > 18 {
			if strayByte(v, digits, stop) && numberEnd(v, stop) {
				continue
			}
			slow |= bit
			continue
		}
		// The sign multiplies (exactly) rather than branches: a random sign
		// would be mispredicted half the time.
		neg := 0
		if v[0] == '-' {
			neg = 1
		}
		var f T
		switch {
		case real && mant < 1<<24 && frac <= 10:
			f = T(float32(mant) / pow10f32[frac] * float32(signs[neg]))
		case !real && mant < 1e15:
			f = T(float64(mant) / pow10f64[frac] * signs[neg])
		default:
			slow |= bit
			continue
		}
		rows[j] = f
		ok |= bit
	}
	return ok, slow
}

// signs[1] negates a float (and keeps -0's sign) by a multiplication.
var signs = [2]float64{1, -1}

// settleDecimals settles plain numbers for decimal(precision, scale) with
// precision <= 18: at most scale fraction digits (no rounding) and at most
// intDigits = precision-scale integer digits give the unscaled value as an
// int64.
func settleDecimals[O offset](rows []decimal128.Num, offs []O, data []byte, scale, intDigits int) (ok, slow byte) {
	lo := offs[0]
	ends := offs[1:]
	ends = ends[:len(rows)]
	for j := range rows {
		hi := ends[j]
		v := data[lo:hi]
		lo = hi
		bit := byte(1) << (j & 7)
		rows[j] = decimal128.Num{}
		if len(v) == 0 {
			continue
		}
		if uint(len(v)-1) < 16 && hi >= 16 && uint(scale-1) < 14 {
			mag, whole, neg, good, fails := scaledWord(data[hi-16:hi], len(v), scale)
			if fails {
				continue
			}
			if good {
				if whole > intDigits {
					slow |= bit // too many digits: ParseDecimal says how it fails
					continue
				}
				x := int64(mag)
				if neg {
					x = -x
				}
				rows[j] = decimal128.FromI64(x)
				ok |= bit
				continue
			}
		}
		mant, digits, dot, stop := plainNumber(v)
		frac := fracDigits(dot, stop)
		if !plainOK(v, digits, frac, stop) || frac > scale || digits-frac > intDigits {
			if strayByte(v, digits, stop) && decimalEnd(v[stop]) {
				continue
			}
			slow |= bit
			continue
		}
		x := int64(mant * pow10u64[scale-frac])
		var neg int64 // -1 for '-': negated without a branch, as in settleFloats
		if v[0] == '-' {
			neg = -1
		}
		x = (x ^ neg) - neg
		rows[j] = decimal128.FromI64(x)
		ok |= bit
	}
	return ok, slow
}

// settleDates: exactly YYYY-MM-DD (dateWord), which every dialect reads the
// same way; an invalid calendar date of that shape fails everywhere.
func settleDates[O offset](rows []int32, offs []O, data []byte) (ok, slow byte) {
	lo := offs[0]
	ends := offs[1:]
	ends = ends[:len(rows)]
	for j := range rows {
		hi := ends[j]
		v := data[lo:hi]
		lo = hi
		bit := byte(1) << (j & 7)
		rows[j] = 0
		if len(v) != 10 {
			if len(v) != 0 {
				slow |= bit
			}
			continue
		}
		x, shape := dateWord(v)
		if !shape {
			slow |= bit
			continue
		}
		if y, m, d := dateParts(x); dateOK(y, m, d) {
			rows[j] = civilDays(y, m, d)
			ok |= bit
		}
	}
	return ok, slow
}

// settleWideDecimals is settleDecimals for precision 19 to 38: the digits
// are read as two words (the first 19 and the rest) and joined in 128 bits;
// intDigits+scale <= 38 digits always fit.
func settleWideDecimals[O offset](rows []decimal128.Num, offs []O, data []byte, scale, intDigits int) (ok, slow byte) {
	lo := offs[0]
	ends := offs[1:]
	ends = ends[:len(rows)]
	for j := range rows {
		hi := ends[j]
		v := data[lo:hi]
		lo = hi
		bit := byte(1) << (j & 7)
		rows[j] = decimal128.Num{}
		if len(v) == 0 {
			continue
		}
		var a, b uint64
		digits, kb, dot, i := 0, 0, len(v), 0
		if v[0] == '-' {
			i = 1
		}
		for ; i < len(v); i++ {
			if c := v[i] - '0'; c > 9 {
				if v[i] != '.' || dot != len(v) {
					break
				}
				dot = i
			} else if digits < 19 {
				a = a*10 + uint64(c)
				digits++
			} else {
				b = b*10 + uint64(c)
				digits++
				kb++
			}
		}
		frac := fracDigits(dot, i)
		if !plainOK(v, digits, frac, i) || digits > 38 || frac > scale || digits-frac > intDigits {
			if strayByte(v, digits, i) && decimalEnd(v[i]) {
				continue
			}
			slow |= bit
			continue
		}
		mag := u128{lo: a}
		if kb > 0 {
			mag, _ = mag.mul64(pow10u64[kb])
			mag, _ = mag.add64(b)
		}
		if scale > frac {
			mag, _ = mag.mulPow10(scale - frac)
		}
		rows[j] = numFromMag(mag, v[0] == '-')
		ok |= bit
	}
	return ok, slow
}
