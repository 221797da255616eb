package columnar

import (
	"math/big"

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
