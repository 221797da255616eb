package trycast

import (
	"encoding/binary"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// String kernels other than the integer one settle rows 64 at a time too
// (see parseIntRows for why a call per row costs as much as a short
// parse): a call-free loop (settleFloats, settleDecimals, settleDates)
// decides the plain forms every dialect reads the same way, and the rows
// it leaves go one by one to the full parser, whose answer is the only
// definition; the tests hold every row of random and edge-case columns
// to it. A row settled as a failure is one no dialect accepts.

// settleRows runs settle on each 64 rows of s (one word of validity
// bits, so that the loop's exit and the call are paid once per 64 rows),
// then parse on the rows it left; groups of only nulls or empty strings
// fail without either. A failing or null row gets the zero value.
func settleRows[O offset, T any](s stringCol[O], vals []T, bits []byte,
	settle func(rows []T, offs []O, data []byte) (ok, slow uint64), parse func(v []byte) (T, bool)) {
	offs, data := s.offs[:len(vals)+1], s.data
	settleGroups(vals, bits, s.valid, s.bit0,
		func(base, m int) bool { return offs[base] == offs[base+m] },
		func(base int, rows []T) (ok, slow uint64) { return settle(rows, offs[base:base+len(rows)+1], data) },
		func(i int) (T, bool) { return parse(data[offs[i]:offs[i+1]]) })
}

// window is the 16 bytes of data ending at byte hi (16 <= hi <=
// len(data), which the caller has checked): one load each for its two
// words, where data[hi-16:] would also cost a masked pointer and a
// second check.
func window(data []byte, hi int) *[16]byte {
	if hi < 16 || hi > len(data) {
		panic("trycast: window outside the data buffer")
	}
	return (*[16]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(data)), hi-16))
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
func settleEmpty[O offset, T any](rows []T, offs []O, _ []byte) (ok, slow uint64) {
	var zero T
	for j := range rows {
		rows[j] = zero
		if offs[j+1] != offs[j] {
			slow |= 1 << (j & 63)
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
// float32 arithmetic. -0 keeps its sign, as strconv's does. A row of at
// most 16 bytes is read as a window (number_word.go); a row of that
// window whose first byte that is not a digit (past a sign and one
// point) no dialect reads in a float after a digit (floatEnd) fails
// there, for less than a valid row's conversion.
func settleFloats[O offset, T float32 | float64](rows []T, offs []O, data []byte) (ok, slow uint64) {
	lo := offs[0]
	ends := offs[1:]
	ends = ends[:len(rows)]
	var zero T
	real := unsafe.Sizeof(zero) == 4
	guess := uint(16)
	for j := range rows {
		hi := ends[j]
		start := lo
		lo = hi
		k := int(hi - start)
		bit := uint64(1) << (j & 63)
		rows[j] = 0
		if uint(k-1) < 16 && hi >= 16 && uint64(hi) <= uint64(len(data)) {
			win := window(data, int(hi))
			w0, w1 := binary.LittleEndian.Uint64(win[:8]), binary.LittleEndian.Uint64(win[8:])
			first := uint(16-k) & 15
			neg := isMinus(win[first])
			p := guess // where an earlier row had its point: no search when it is there again
			if p >= 16 || p < first || win[p] != '.' {
				p = pointAt(w0, w1, &windowFrom[first])
				if guess >= 16 { // kept once set: a row that differs costs one miss, not two
					guess = p
				}
			}
			dot := p>>4 ^ 1 // 1 when there is a point
			nd := uint(k) - uint(neg) - dot
			frac := (15 - p) & -dot
			x0, x1 := squeezePoint(w0, w1, p)
			x0, x1 = padDigits(x0, x1, nd)
			m0, m1 := notDigits(x0), notDigits(x1)
			if m0|m1 == 0 && nd > frac {
				mant := windowValue(x0, x1)
				// The sign multiplies (exactly) rather than branches: a
				// random sign would be mispredicted half the time.
				switch {
				case real && mant < 1<<24 && frac <= 10:
					rows[j] = T(float32(mant) / pow10f32[frac] * float32(signs[neg&1]))
					ok |= bit
					continue
				case !real && mant < 1e15:
					rows[j] = T(float64(mant) / pow10f64[frac&15] * signs[neg&1])
					ok |= bit
					continue
				}
			} else if m0|m1 != 0 && nd > 0 {
				if q, c := firstBad(x0, x1, m0, m1); floatEnd(c, int(q)-int(16-nd)) {
					continue
				}
			}
			slow |= bit
			continue
		}
		if k <= 0 {
			continue // empty: no dialect reads a number
		}
		v := data[start:hi]
		mant, digits, dot, stop := plainNumber(v)
		frac := fracDigits(dot, stop)
		if !plainOK(v, digits, frac, stop) || digits > 18 {
			if strayByte(v, digits, stop) && numberEnd(v, stop) {
				continue
			}
			slow |= bit
			continue
		}
		neg := isMinus(v[0])
		var f T
		switch {
		case real && mant < 1<<24 && frac <= 10:
			f = T(float32(mant) / pow10f32[frac] * float32(signs[neg&1]))
		case !real && mant < 1e15:
			f = T(float64(mant) / pow10f64[frac] * signs[neg&1])
		default:
			slow |= bit
			continue
		}
		rows[j] = f
		ok |= bit
	}
	return ok, slow
}

// floatEnd reports whether a row fails in every dialect when its first
// byte that is not a digit (past a leading '-' and one point) is c, after
// lead digits: c is printable ASCII and no part of a number (a point, a
// sign, an exponent, Java's f/d type suffix), and is not the 'x' of a hex
// float after a lone 0. With a digit before it, the row is not one of
// the NaN and Infinity texts either.
func floatEnd(c byte, lead int) bool {
	if c|0x20 == 'x' {
		return lead >= 2
	}
	return lead >= 1 && byteClass[c]&clsNotFloat != 0
}

// signs[1] negates a float (and keeps -0's sign) by a multiplication.
var signs = [2]float64{1, -1}

// settleDecimals settles plain numbers for decimal(precision, scale) with
// precision <= 18: at most scale fraction digits (no rounding) and at most
// intDigits = precision-scale integer digits give the unscaled value as an
// int64. A row of at most 16 bytes is read as a window (number_word.go),
// with the sign applied and the result's high word set without a branch;
// one whose first byte that is not a digit (past a leading '-' and one
// point) is one no dialect reads or trims in a decimal (decimalEnd, like
// the 'x' of "1234.5x") fails there, so that invalid rows cost no more
// than valid ones.
func settleDecimals[O offset](rows []decimal128.Num, offs []O, data []byte, scale, intDigits int) (ok, slow uint64) {
	lo := offs[0]
	ends := offs[1:]
	ends = ends[:len(rows)]
	guess := uint(15 - scale) // the point of a row written with the column's scale
	for j := range rows {
		hi := ends[j]
		start := lo
		lo = hi
		k := int(hi - start)
		bit := uint64(1) << (j & 63)
		rows[j] = decimal128.Num{}
		if uint(k-1) < 16 && hi >= 16 && uint64(hi) <= uint64(len(data)) {
			win := window(data, int(hi))
			w0, w1 := binary.LittleEndian.Uint64(win[:8]), binary.LittleEndian.Uint64(win[8:])
			first := uint(16-k) & 15
			neg := isMinus(win[first])
			p := guess // where an earlier row had its point: no search when it is there again
			if p >= 16 || p < first || win[p] != '.' {
				p = pointAt(w0, w1, &windowFrom[first])
				if guess >= 16 { // kept once set: a row that differs costs one miss, not two
					guess = p
				}
			}
			dot := p>>4 ^ 1 // 1 when there is a point
			nd := uint(k) - uint(neg) - dot
			frac := (15 - p) & -dot
			x0, x1 := squeezePoint(w0, w1, p)
			x0, x1 = padDigits(x0, x1, nd)
			m0, m1 := notDigits(x0), notDigits(x1)
			if m0|m1 == 0 && nd > frac && frac <= uint(scale) && nd-frac <= uint(intDigits) {
				x := windowValue(x0, x1) * pow10u64[uint(scale)-frac]
				x = (x ^ -neg) + neg // negated when neg is 1
				rows[j] = decimal128.New(int64(x)>>63, x)
				ok |= bit
				continue
			}
			if m0|m1 != 0 && nd > 0 {
				if _, c := firstBad(x0, x1, m0, m1); decimalEnd(c) {
					continue
				}
			}
			slow |= bit
			continue
		}
		if k <= 0 {
			continue
		}
		v := data[start:hi]
		mant, digits, dot, stop := plainNumber(v)
		frac := fracDigits(dot, stop)
		if !plainOK(v, digits, frac, stop) || frac > scale || digits-frac > intDigits {
			if strayByte(v, digits, stop) && decimalEnd(v[stop]) {
				continue
			}
			slow |= bit
			continue
		}
		x := mant * pow10u64[scale-frac]
		neg := isMinus(v[0])
		x = (x ^ -neg) + neg
		rows[j] = decimal128.New(int64(x)>>63, x)
		ok |= bit
	}
	return ok, slow
}

// settleDates: exactly YYYY-MM-DD (dateWord), which every dialect reads the
// same way; an invalid calendar date of that shape fails everywhere.
func settleDates[O offset](rows []int32, offs []O, data []byte) (ok, slow uint64) {
	lo := offs[0]
	ends := offs[1:]
	ends = ends[:len(rows)]
	for j := range rows {
		hi := ends[j]
		v := data[lo:hi]
		lo = hi
		bit := uint64(1) << (j & 63)
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
func settleWideDecimals[O offset](rows []decimal128.Num, offs []O, data []byte, scale, intDigits int) (ok, slow uint64) {
	lo := offs[0]
	ends := offs[1:]
	ends = ends[:len(rows)]
	for j := range rows {
		hi := ends[j]
		v := data[lo:hi]
		lo = hi
		bit := uint64(1) << (j & 63)
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
