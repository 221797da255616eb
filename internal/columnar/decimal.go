package columnar

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// DecimalLimit is the range of a decimal column's unscaled values,
// ±(10^Precision - 1), computed once per column (Node.Limit): both row
// formats' encoders refuse to write, and their decoders to read, a value
// of more digits than its precision.
type DecimalLimit struct {
	Precision int32
	on        bool  // Precision is one Arrow defines (1..38); otherwise nothing is checked
	short     int64 // Precision <= 18: the limit as an int64
	hi, nhi   int64 // the int128 limit and its negation
	lo, nlo   uint64
}

// NewDecimalLimit is the limit of decimals of precision p.
func NewDecimalLimit(p int32) DecimalLimit {
	if p < 1 || p > 38 {
		return DecimalLimit{Precision: p}
	}
	m := decimal128.GetMaxValue(p)
	neg := m.Negate()
	d := DecimalLimit{Precision: p, on: true, hi: m.HighBits(), lo: m.LowBits(), nhi: neg.HighBits(), nlo: neg.LowBits()}
	if p <= MaxShortDecimalPrecision {
		d.short = int64(m.LowBits())
	}
	return d
}

// ShortOK reports whether the int64 unscaled value v of a short decimal
// (Precision <= 18) fits.
func (d *DecimalLimit) ShortOK(v int64) bool { return !d.on || (v <= d.short && v >= -d.short) }

// ShortMax is the largest magnitude ShortOK accepts, for loops that test
// -m <= v <= m themselves (math.MaxInt64 when nothing is checked).
func (d *DecimalLimit) ShortMax() int64 {
	if !d.on {
		return 1<<63 - 1
	}
	return d.short
}

// LongOK reports whether the int128 unscaled value (hi, lo) fits.
func (d *DecimalLimit) LongOK(hi int64, lo uint64) bool {
	if !d.on {
		return true
	}
	above := hi > d.hi || (hi == d.hi && lo > d.lo)
	below := hi < d.nhi || (hi == d.nhi && lo < d.nlo)
	return !above && !below
}

// Int128String formats the two's complement int128 (hi, lo) in decimal.
// arrow-go's decimal128.Num.BigInt is not used: it takes big.Word to be
// 64 bits, which is wrong on 32-bit machines.
func Int128String(hi int64, lo uint64) string {
	b := new(big.Int).SetInt64(hi)
	b.Lsh(b, 64)
	return b.Add(b, new(big.Int).SetUint64(lo)).String()
}

// Int256String formats the two's complement int256 whose 64-bit words,
// least significant first, are w, in decimal. arrow-go's decimal256.Num
// BigInt (and so its ToString and an array's ValueStr) is not used: like
// decimal128's, it takes big.Word to be 64 bits, and on 32-bit machines
// keeps only the low half of each word.
func Int256String(w [4]uint64) string {
	b := new(big.Int).SetInt64(int64(w[3]))
	for i := 2; i >= 0; i-- {
		b.Lsh(b, 64)
		b.Add(b, new(big.Int).SetUint64(w[i]))
	}
	return b.String()
}

// AppendPlainDecimal appends an unscaled value, given as its decimal
// digits (no sign, no leading zeros, "0" for zero) and whether it is
// negative, in plain notation with exactly scale fraction digits: "-1.50",
// "0.05", "123"; a negative scale appends that many zeros to a value that
// is not zero. It is what Java's BigDecimal.toPlainString writes.
func AppendPlainDecimal(dst []byte, neg bool, digits []byte, scale int32) []byte {
	if neg {
		dst = append(dst, '-')
	}
	if scale <= 0 {
		dst = append(dst, digits...)
		if len(digits) != 1 || digits[0] != '0' {
			for k := int32(0); k < -scale; k++ {
				dst = append(dst, '0')
			}
		}
		return dst
	}
	n := int32(len(digits))
	if n <= scale {
		dst = append(dst, "0."...)
		for k := n; k < scale; k++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[:n-scale]...)
	dst = append(dst, '.')
	return append(dst, digits[n-scale:]...)
}

// AppendDecimal256 appends the decimal256 value whose words, least
// significant first, are w, at the given scale, in plain notation
// (AppendPlainDecimal), exactly, on every GOARCH.
func AppendDecimal256(dst []byte, w [4]uint64, scale int32) []byte {
	s := Int256String(w)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	return AppendPlainDecimal(dst, neg, []byte(s), scale)
}

// AppendDecimalText appends row i of a decimal128 or decimal256 array at
// its type's scale, in plain notation, exactly on every GOARCH: what to
// print for a decimal where arrow-go's ValueStr would be used, as its
// ToString is wrong on 32-bit machines. ok is false for other arrays.
func AppendDecimalText(dst []byte, arr arrow.Array, i int) (out []byte, ok bool) {
	switch a := arr.(type) {
	case *array.Decimal128:
		v := a.Value(i)
		ext := uint64(v.HighBits() >> 63) // the sign, extended to 256 bits
		w := [4]uint64{v.LowBits(), uint64(v.HighBits()), ext, ext}
		return AppendDecimal256(dst, w, a.DataType().(*arrow.Decimal128Type).Scale), true
	case *array.Decimal256:
		return AppendDecimal256(dst, a.Value(i).Array(), a.DataType().(*arrow.Decimal256Type).Scale), true
	}
	return dst, false
}
