package compactrow

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/rowbridge/rowbridge/arrowvec"
)

// Decimals must fit their declared precision: the encoder refuses to
// write, and the decoder to read, an unscaled value of more digits.

// decimalLimit is the largest unscaled magnitude of a decimal column,
// 10^precision - 1, as an int64 (short decimals) or int128 bounds.
type decimalLimit struct {
	on        bool  // precision is one Arrow defines (1..38)
	short     int64 // precision <= 18
	hi, nhi   int64 // int128 limit and its negation
	lo, nlo   uint64
	precision int32
}

func newDecimalLimit(n *arrowvec.Node) decimalLimit {
	p := n.Precision
	if p < 1 || p > 38 {
		return decimalLimit{}
	}
	m := decimal128.GetMaxValue(p)
	neg := m.Negate()
	d := decimalLimit{on: true, hi: m.HighBits(), lo: m.LowBits(), nhi: neg.HighBits(), nlo: neg.LowBits(), precision: p}
	if !n.IsLongDecimal() {
		d.short = int64(m.LowBits())
	}
	return d
}

// shortOK reports whether an int64 unscaled value fits.
func (d *decimalLimit) shortOK(v int64) bool { return !d.on || (v <= d.short && v >= -d.short) }

// longOK reports whether an int128 unscaled value (hi, lo) fits.
func (d *decimalLimit) longOK(hi int64, lo uint64) bool {
	if !d.on {
		return true
	}
	above := hi > d.hi || (hi == d.hi && lo > d.lo)
	below := hi < d.nhi || (hi == d.nhi && lo < d.nlo)
	return !above && !below
}

// int128String formats the two's complement int128 (hi, lo) in decimal.
// arrow-go's decimal128.Num.BigInt is not used: it takes big.Word to be
// 64 bits, which is wrong on 32-bit machines.
func int128String(hi int64, lo uint64) string {
	b := new(big.Int).SetInt64(hi)
	b.Lsh(b, 64)
	return b.Add(b, new(big.Int).SetUint64(lo)).String()
}
