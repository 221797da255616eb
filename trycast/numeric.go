package trycast

import (
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// intRange returns the bounds of a signed integer of the given width.
func intRange(bits int) (lo, hi int64) {
	hi = int64(uint64(1)<<(uint(bits)-1) - 1)
	return -hi - 1, hi
}

// wrapInt keeps the low bits of v, sign-extended (Java's narrowing cast).
func wrapInt(v int64, bits int) int64 {
	sh := uint(64 - bits)
	return v << sh >> sh
}

// IntToInt narrows v to the given width: legacy Spark wraps (two's
// complement), Presto and Spark ANSI fail when v is out of range.
func IntToInt(v int64, bits int, d Dialect) (int64, bool) {
	if d == Spark {
		return wrapInt(v, bits), true
	}
	lo, hi := intRange(bits)
	if v < lo || v > hi {
		return 0, false
	}
	return v, true
}

// FloatToInt converts a double to an integer of the given width.
//
// Presto rounds half away from zero and fails on NaN, ±Inf and values out
// of range after rounding. Legacy Spark truncates, maps NaN to 0 and
// saturates at int (8..32 bits) or long (64 bits) bounds, then wraps to
// tinyint/smallint. Spark ANSI truncates and fails outside the range
// (Spark's DoubleExactNumeric bounds: for bigint, 2^63 itself maps to
// Long.MaxValue).
func FloatToInt(v float64, bits int, d Dialect) (int64, bool) {
	return floatToInt(v, bits, d, false)
}

// Float32ToInt is FloatToInt for a real input. It differs only in Spark
// ANSI, whose float bounds are Int.MaxValue.toFloat (= 2^31), so 2^31 maps
// to Int.MaxValue instead of failing.
func Float32ToInt(v float32, bits int, d Dialect) (int64, bool) {
	return floatToInt(float64(v), bits, d, true)
}

func floatToInt(v float64, bits int, d Dialect, real bool) (int64, bool) {
	lo, hi := intRange(bits)
	switch d {
	case Presto:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false
		}
		r := math.Round(v)
		// -2^(bits-1) and 2^(bits-1) are exact doubles.
		if r < float64(lo) || r >= -float64(lo) {
			return 0, false
		}
		return int64(r), true
	case Spark:
		if bits == 64 {
			return javaDoubleToLong(v), true
		}
		return wrapInt(javaDoubleToInt(v), bits), true
	}
	if math.IsNaN(v) {
		return 0, false
	}
	t := math.Trunc(v)
	if bits == 64 {
		// Long bounds as doubles are -2^63 and 2^63.
		if t < -9223372036854775808.0 || t > 9223372036854775808.0 {
			return 0, false
		}
		return javaDoubleToLong(t), true
	}
	upper := float64(math.MaxInt32)
	if real {
		upper = float64(float32(math.MaxInt32))
	}
	if t < float64(math.MinInt32) || t > upper {
		return 0, false
	}
	iv := javaDoubleToInt(t)
	if iv < lo || iv > hi {
		return 0, false
	}
	return iv, true
}

// javaDoubleToLong is Java's (long) cast: truncate, NaN -> 0, saturate.
func javaDoubleToLong(v float64) int64 {
	switch {
	case math.IsNaN(v):
		return 0
	case v >= 9223372036854775807.0:
		return math.MaxInt64
	case v <= -9223372036854775808.0:
		return math.MinInt64
	}
	return int64(v)
}

// javaDoubleToInt is Java's (int) cast: truncate, NaN -> 0, saturate.
func javaDoubleToInt(v float64) int64 {
	switch {
	case math.IsNaN(v):
		return 0
	case v >= math.MaxInt32:
		return math.MaxInt32
	case v <= math.MinInt32:
		return math.MinInt32
	}
	return int64(v)
}

// FloatToBool is the float/double -> boolean cast: non-zero and NaN are
// true in every dialect (Velox's Spark emulation differs on NaN; Spark
// itself uses != 0).
func FloatToBool(v float64, d Dialect) bool {
	return v != 0 || math.IsNaN(v)
}

// DoubleToReal narrows a double. A finite value too large for float32
// fails in Presto (Velox) and becomes ±Infinity in Spark.
func DoubleToReal(v float64, d Dialect) (float32, bool) {
	f := float32(v)
	if d == Presto && math.IsInf(float64(f), 0) && !math.IsInf(v, 0) {
		return 0, false
	}
	return f, true
}

// IntToDecimal converts v to decimal(precision, scale); it fails when v
// needs more than precision-scale integer digits.
func IntToDecimal(v int64, precision, scale int32, d Dialect) (decimal128.Num, bool) {
	neg := v < 0
	mag := u128{lo: uint64(v)}
	if neg {
		mag.lo = -uint64(v)
	}
	var of bool
	if scale > 0 {
		if mag, of = mag.mulPow10(int(scale)); of {
			return decimal128.Num{}, false
		}
	} else if scale < 0 {
		mag = mag.divPow10HalfUp(int(-scale))
	}
	if !mag.fitsPrecision(precision) {
		return decimal128.Num{}, false
	}
	return numFromMag(mag, neg), true
}

// FloatToDecimal converts a double to decimal(precision, scale), rounding
// HALF_UP; NaN, ±Inf and overflow fail in every dialect.
//
// Spark rounds the shortest decimal string of v (Java's Double.toString,
// via BigDecimal(double)), so 9.95 -> decimal(2,1) is 10.0. Presto (Velox
// rescaleFloatingPoint) first rounds v to 15 - (integer digits) fraction
// digits, half away from zero, then HALF_UP to scale.
func FloatToDecimal(v float64, precision, scale int32, d Dialect) (decimal128.Num, bool) {
	return floatToDecimal(v, 15, precision, scale, d)
}

// Float32ToDecimal is FloatToDecimal for a real input: Presto keeps 7
// significant digits, Spark widens to double first (Float.toDouble).
func Float32ToDecimal(v float32, precision, scale int32, d Dialect) (decimal128.Num, bool) {
	return floatToDecimal(float64(v), 7, precision, scale, d)
}

func floatToDecimal(v float64, digits int, precision, scale int32, d Dialect) (decimal128.Num, bool) {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) >= 1e39 {
		return decimal128.Num{}, false
	}
	var buf [64]byte
	if d != Presto {
		x, ok := scanDecimal(strconv.AppendFloat(buf[:0], v, 'e', -1, 64))
		if !ok {
			return decimal128.Num{}, false
		}
		return x.round(precision, scale)
	}
	// Velox keeps `digits` significant digits of the integer part and
	// fills the rest with fraction digits.
	intDigits := 0
	for a := math.Abs(v); intDigits < len(pow10f64) && a >= pow10f64[intDigits]; {
		intDigits++
	}
	fd := digits - intDigits
	if fd < 0 {
		fd = 0
	}
	// Round half away from zero to fd digits. strconv rounds ties to even,
	// and a tie needs an expansion that ends at digit fd+1, so print that
	// many (exactly) and let the HALF_UP step decide.
	var txt []byte
	if exactWithin(v, fd+1) {
		txt = strconv.AppendFloat(buf[:0], v, 'f', fd+1, 64)
	} else {
		txt = strconv.AppendFloat(buf[:0], v, 'f', fd, 64)
	}
	x, ok := scanDecimal(txt)
	if !ok {
		return decimal128.Num{}, false
	}
	n, ok := x.round(38, int32(fd))
	if !ok {
		return decimal128.Num{}, false
	}
	return DecimalToDecimal(n, int32(fd), precision, scale, d)
}

// exactWithin reports whether v has at most n binary fraction bits, i.e.
// its decimal expansion ends within n fraction digits.
func exactWithin(v float64, n int) bool {
	b := math.Float64bits(v)
	exp := int(b>>52&0x7ff) - 1075
	mant := b & (1<<52 - 1)
	if b>>52&0x7ff == 0 {
		exp = -1074
	} else {
		mant |= 1 << 52
	}
	if mant == 0 {
		return true
	}
	for mant&1 == 0 {
		mant >>= 1
		exp++
	}
	return -exp <= n
}

// DecimalToInt converts an unscaled decimal with the given scale to an
// integer of the given width. Presto rounds HALF_UP and fails out of
// range; Spark truncates, legacy Spark wraps (low 64 bits, then to the
// width), Spark ANSI fails out of range.
func DecimalToInt(v decimal128.Num, scale int32, bits int, d Dialect) (int64, bool) {
	mag, neg := magFromNum(v)
	if scale > 0 {
		if d == Presto {
			mag = mag.divPow10HalfUp(int(scale))
		} else {
			mag = mag.divPow10(int(scale))
		}
	} else if scale < 0 {
		var of bool
		if mag, of = mag.mulPow10(int(-scale)); of && d != Spark {
			return 0, false
		}
	}
	if d == Spark {
		r := int64(mag.lo)
		if neg {
			r = -r
		}
		return wrapInt(r, bits), true
	}
	lo, hi := intRange(bits)
	if mag.hi != 0 {
		return 0, false
	}
	if neg {
		if mag.lo > uint64(-lo) {
			return 0, false
		}
		return -int64(mag.lo), true
	}
	if mag.lo > uint64(hi) {
		return 0, false
	}
	return int64(mag.lo), true
}

// DecimalToFloat converts an unscaled decimal with the given scale to the
// nearest double (Java's BigDecimal.doubleValue).
func DecimalToFloat(v decimal128.Num, scale int32) float64 {
	mag, neg := magFromNum(v)
	var f float64
	if mag.hi == 0 && mag.lo <= 1<<53 && scale >= 0 && scale <= 22 {
		// Both operands are exact, so the division rounds once.
		f = float64(mag.lo) / pow10f64[scale]
	} else {
		f = decimalDigitsToFloat(mag, scale, 64)
	}
	if neg {
		f = -f
	}
	return f
}

// DecimalToFloat32 converts an unscaled decimal with the given scale to the
// nearest real (Java's BigDecimal.floatValue), rounding once: going through
// the nearest double first can round a second time.
func DecimalToFloat32(v decimal128.Num, scale int32) float32 {
	mag, neg := magFromNum(v)
	var f float32
	if mag.hi == 0 && mag.lo <= 1<<24 && scale >= 0 && scale <= 10 {
		// Both operands are exact in float32, so the division rounds once.
		f = float32(mag.lo) / pow10f32[scale]
	} else {
		f = float32(decimalDigitsToFloat(mag, scale, 32))
	}
	if neg {
		f = -f
	}
	return f
}

// decimalDigitsToFloat writes mag as "digitsE-scale" into a stack buffer
// and reads it back with the string parser, which rounds once to the given
// precision and answers overflow (a large negative scale) without building
// an error.
func decimalDigitsToFloat(mag u128, scale int32, bits int) float64 {
	var buf [56]byte
	b := appendU128(buf[:0], mag)
	b = append(b, 'e')
	b = strconv.AppendInt(b, -int64(scale), 10)
	f, _ := parseDecFloat(b, 0, false, bits)
	return f
}

// DecimalToDecimal rescales an unscaled decimal from fromScale to
// decimal(toPrecision, toScale), rounding HALF_UP, and fails when the
// result does not fit.
func DecimalToDecimal(v decimal128.Num, fromScale, toPrecision, toScale int32, d Dialect) (decimal128.Num, bool) {
	mag, neg := magFromNum(v)
	delta := int(toScale - fromScale)
	if delta > 0 {
		var of bool
		if mag, of = mag.mulPow10(delta); of {
			return decimal128.Num{}, false
		}
	} else if delta < 0 {
		if -delta > 38 {
			mag = u128{}
		} else {
			mag = mag.divPow10HalfUp(-delta)
		}
	}
	if !mag.fitsPrecision(toPrecision) {
		return decimal128.Num{}, false
	}
	return numFromMag(mag, neg && !mag.isZero()), true
}
