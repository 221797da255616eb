package trycast

import (
	"encoding/binary"
	"math"
	mathbits "math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Fixed-width sources on the hot pairs (integer narrowing, integer to
// decimal, float to integer, decimal to double) settle 64 rows at a time,
// as the string kernels do (see settleRows): a
// call-free loop answers the rows inside the range where every dialect
// agrees, and only the rest go through the scalar conversion (IntToInt,
// IntToDecimal, FloatToInt, DecimalToFloat), which defines the answer.

// settleFixed runs settle on each 64 rows of in, then conv on the rows it
// left (settleGroups).
func settleFixed[S, T any](c *caster, in arrow.ArrayData, to arrow.DataType,
	settle func(dst []T, src []S) (ok, slow uint64), conv func(S) (T, bool)) arrow.ArrayData {
	n := in.Len()
	src := columnar.FixedValues[S](in)
	o := newFixedOut[T](c.mem, n)
	settleGroups(o.vals[:n], o.validity, validity(in), in.Offset(), nil,
		func(base int, rows []T) (ok, slow uint64) { return settle(rows, src[base:base+len(rows)]) },
		func(i int) (T, bool) { return conv(src[i]) })
	return o.finish(to, n)
}

// settleGroups writes vals and their validity bits 64 rows at a time
// (one word of bits, so that the loop's exit and the calls are paid once
// per 64 rows): a group whose rows are all null in the input (valid, from
// bit bit0) or for which fails reports true is cleared; otherwise settle
// decides what it can for rows base.. (one call per group), rows null in
// the input get the zero value, and each row settle left goes through
// slowRow(i). A failing row gets the zero value and a 0 bit. It drives
// both the string kernels (settleRows) and the fixed-width ones
// (settleFixed).
func settleGroups[T any](vals []T, bits, valid []byte, bit0 int, fails func(base, m int) bool,
	settle func(base int, rows []T) (ok, slow uint64), slowRow func(i int) (T, bool)) {
	n := len(vals)
	var zero T
	for base := 0; base < n; base += 64 {
		m := min(64, n-base)
		rows := vals[base : base+m]
		out := bits[base>>3 : base>>3+(m+7)>>3]
		all := ^uint64(0) >> (64 - m)
		mask := all
		if valid != nil {
			var v uint64
			for b := range out {
				v |= uint64(bitsAt(valid, bit0+base+8*b)) << (8 * b)
			}
			mask &= v
		}
		if mask == 0 || (fails != nil && fails(base, m)) {
			if m == 64 {
				*(*[64]T)(rows) = [64]T{} // stores in line, not a memclr call
				binary.LittleEndian.PutUint64(out, 0)
			} else {
				clear(rows)
				clear(out)
			}
			continue
		}
		ok, slow := settle(base, rows)
		for null := ^mask & all; null != 0; null &= null - 1 {
			rows[mathbits.TrailingZeros64(null)] = zero
		}
		ok &= mask
		for slow &= mask; slow != 0; slow &= slow - 1 {
			j := mathbits.TrailingZeros64(slow)
			v, good := slowRow(base + j)
			if good {
				ok |= 1 << j
			} else {
				v = zero
			}
			rows[j] = v
		}
		if len(out) == 8 {
			binary.LittleEndian.PutUint64(out, ok)
		} else {
			for b := range out {
				out[b] = byte(ok >> (8 * b))
			}
		}
	}
}

// clearRows zeroes up to 8 rows: a few stores for 8, not a memclr call.
func clearRows[T any](rows []T) {
	if len(rows) == 8 {
		*(*[8]T)(rows) = [8]T{}
	} else {
		clear(rows)
	}
}

type integer interface{ int8 | int16 | int32 | int64 }

// narrowInts casts integers to integers of type T: legacy Spark wraps,
// the other dialects fail out of range (IntToInt), with no call per row.
func narrowInts[S, T integer](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	lo, hi := intRange(intWidth(to))
	if c.d == Spark {
		lo, hi = math.MinInt64, math.MaxInt64 // T(v) keeps the low bits
	}
	return settleFixed(c, in, to, func(dst []T, src []S) (ok, slow uint64) {
		dst = dst[:len(src)]
		for j, v := range src {
			x := int64(v)
			var good uint64
			if x >= lo && x <= hi {
				good = 1
			} else {
				x = 0
			}
			dst[j] = T(x)
			ok |= good << (j & 63)
		}
		return ok, 0
	}, func(S) (T, bool) { return 0, false })
}

// intsToDecimals: |v| < 10^(min(p,18)-s) times 10^s fits an int64 and p
// digits; other rows go through IntToDecimal.
func intsToDecimals[S integer](c *caster, in arrow.ArrayData, to *arrow.Decimal128Type) arrow.ArrayData {
	p, s, d := to.Precision, to.Scale, c.d
	var lim int64 // 0: settle nothing
	var mul int64 = 1
	if q := min(p, 18); s >= 0 && s <= q {
		lim, mul = int64(pow10u64[q-s]), int64(pow10u64[s])
	}
	// Up to 18 digits, lim is the exact bound: |v| >= 10^(p-s) fails.
	var beyond uint64
	if p <= 18 && lim > 0 {
		beyond = ^uint64(0)
	}
	return settleFixed(c, in, to, func(dst []decimal128.Num, src []S) (ok, slow uint64) {
		dst = dst[:len(src)]
		for j, v := range src {
			x := int64(v)
			if x > -lim && x < lim {
				dst[j] = decimal128.FromI64(x * mul)
				ok |= 1 << (j & 63)
			} else {
				dst[j] = decimal128.Num{}
				slow |= 1 << (j & 63) &^ beyond
			}
		}
		return ok, slow
	}, func(v S) (decimal128.Num, bool) { return IntToDecimal(int64(v), p, s, d) })
}

// floatsToInts: inside the target range with a margin of one, Presto
// rounds half away from zero and both Spark modes truncate, with no
// failure; NaN, infinities and the edges go through FloatToInt.
func floatsToInts[S float32 | float64, T integer](c *caster, in arrow.ArrayData, to arrow.DataType, real bool) arrow.ArrayData {
	w, d := intWidth(to), c.d
	lo, hi := intRange(w)
	flo, fhi := float64(lo)+1, float64(hi)-1
	if w == 64 {
		flo, fhi = -9.2e18, 9.2e18
	}
	round := d == Presto
	// Presto and Spark ANSI fail NaN, infinities and values more than 3
	// past the range (Spark ANSI maps some values just past it to a bound);
	// legacy Spark saturates, so its rows there go through FloatToInt.
	glo, ghi := float64(lo)-3, float64(hi)+3
	if w == 64 {
		glo, ghi = -9.3e18, 9.3e18
	}
	if d == Spark {
		glo, ghi = math.Inf(-1), math.Inf(1)
	}
	// Presto's rounding half away from zero is the truncation plus one
	// step when the fraction f-trunc(f), which is exact, reaches 0.5 in
	// magnitude: a few instructions without a branch where math.Round
	// takes apart the double's bits.
	var roundMask int64
	if round {
		roundMask = -1
	}
	return settleFixed(c, in, to, func(dst []T, src []S) (ok, slow uint64) {
		dst = dst[:len(src)]
		for j, v := range src {
			f := float64(v)
			if f > flo && f < fhi { // false for NaN
				x := int64(f)
				frac := f - float64(x)
				var up, down int64
				if frac >= 0.5 {
					up = 1
				}
				if frac <= -0.5 {
					down = 1
				}
				dst[j] = T(x + (up-down)&roundMask)
				ok |= 1 << (j & 63)
			} else {
				dst[j] = 0
				if f >= glo && f <= ghi || d == Spark {
					slow |= 1 << (j & 63)
				}
			}
		}
		return ok, slow
	}, func(v S) (T, bool) {
		var x int64
		var good bool
		if real {
			x, good = Float32ToInt(float32(v), w, d)
		} else {
			x, good = FloatToInt(float64(v), w, d)
		}
		return T(x), good
	})
}

// decimalsToDoubles: a magnitude up to 2^53 with scale 0..22 is one exact
// division (DecimalToFloat's own first case); the rest call it. The sign
// is taken without a branch (signs are random in real data): such a value
// has its sign in the low word's top bit and the high word all copies of
// it, and its double is the magnitude's quotient with that sign bit set.
func decimalsToDoubles(c *caster, in arrow.ArrayData, to arrow.DataType, scale int32) arrow.ArrayData {
	fast := scale >= 0 && scale <= 22
	var div float64 = 1
	if fast {
		div = pow10f64[scale]
	}
	return settleFixed(c, in, to, func(dst []float64, src []decimal128.Num) (ok, slow uint64) {
		dst = dst[:len(src)]
		for j, v := range src {
			hi, lo := v.HighBits(), v.LowBits()
			s := int64(lo) >> 63 // 0, or -1 for a negative value near 0
			mag := (lo ^ uint64(s)) - uint64(s)
			if fast && hi == s && mag <= 1<<53 {
				dst[j] = math.Float64frombits(math.Float64bits(float64(mag)/div) | uint64(s)<<63)
				ok |= 1 << (j & 63)
			} else {
				dst[j] = 0
				slow |= 1 << (j & 63)
			}
		}
		return ok, slow
	}, func(v decimal128.Num) (float64, bool) { return DecimalToFloat(v, scale), true })
}
