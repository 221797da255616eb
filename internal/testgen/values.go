package testgen

import (
	"math"
	"math/big"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Extreme values a codec must carry exactly.
var (
	int8Extremes    = []int64{math.MinInt8, math.MaxInt8, 0, -1, 1}
	int16Extremes   = []int64{math.MinInt16, math.MaxInt16, 0, -1, 1}
	int32Extremes   = []int64{math.MinInt32, math.MaxInt32, 0, -1, 1}
	int64Extremes   = []int64{math.MinInt64, math.MaxInt64, 0, -1, 1}
	float64Extremes = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1),
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 2.2250738585072014e-308}
	float32Extremes = []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 1.1754944e-38}
	// Micros: the int64 ends, then 0001-01-01 and 9999-12-31T23:59:59.999999.
	timestampExtremes = []int64{math.MinInt64, math.MaxInt64, 0, -1, 1, -62135596800000000, 253402300799999999}
)

// stringPieces mix ASCII with 2-, 3- and 4-byte UTF-8, a combining mark and
// NUL, so string codecs see every byte length.
var stringPieces = []string{"a", "Z", "0", " ", "_", "é", "ß", "中", "文", "😀", "🦀", "e\u0301", "ש", "\x00", "\t", "'", "\"", "\\"}

func (g *gen) chance(p float64) bool { return p > 0 && g.r.Float64() < p }

// scalar returns a random value for a primitive type as a Go value:
// bool, int64 (all integer-like types), float32, float64, string (utf8 and
// binary), or decimal128.Num. keys excludes NaN.
func (g *gen) scalar(t arrow.DataType, key bool) any {
	r := g.r
	extreme := g.chance(g.c.extremes)
	switch t.ID() {
	case arrow.BOOL:
		return r.Intn(2) == 1
	case arrow.INT8:
		return g.intIn(extreme, int8Extremes, math.MinInt8, math.MaxInt8)
	case arrow.INT16:
		return g.intIn(extreme, int16Extremes, math.MinInt16, math.MaxInt16)
	case arrow.INT32, arrow.DATE32:
		return g.intIn(extreme, int32Extremes, math.MinInt32, math.MaxInt32)
	case arrow.INT64:
		return g.intIn(extreme, int64Extremes, math.MinInt64, math.MaxInt64)
	case arrow.TIMESTAMP:
		if extreme {
			return timestampExtremes[r.Intn(len(timestampExtremes))]
		}
		if r.Intn(2) == 0 {
			return r.Int63n(2*32503680000000000) - 32503680000000000 // about year -1000..3000
		}
		return int64(r.Uint64())
	case arrow.FLOAT32:
		if !key && g.c.nan && r.Intn(10) == 0 {
			return float32(math.NaN())
		}
		if extreme {
			return float32Extremes[r.Intn(len(float32Extremes))]
		}
		return float32(g.ordinaryFloat(15))
	case arrow.FLOAT64:
		if !key && g.c.nan && r.Intn(10) == 0 {
			return math.NaN()
		}
		if extreme {
			return float64Extremes[r.Intn(len(float64Extremes))]
		}
		return g.ordinaryFloat(100)
	case arrow.DECIMAL128:
		return g.decimal(t.(*arrow.Decimal128Type).Precision, extreme)
	case arrow.STRING:
		return g.text()
	case arrow.BINARY:
		n := 0
		if r.Intn(8) != 0 {
			n = 1 + r.Intn(g.c.maxString)
		}
		b := make([]byte, n)
		r.Read(b)
		return string(b)
	}
	panic("testgen: no scalar generator for " + t.String())
}

func (g *gen) intIn(extreme bool, extremes []int64, lo, hi int64) int64 {
	if extreme {
		return extremes[g.r.Intn(len(extremes))]
	}
	if lo == math.MinInt64 {
		return int64(g.r.Uint64())
	}
	return lo + g.r.Int63n(hi-lo+1)
}

// ordinaryFloat spreads values over many magnitudes, either sign.
func (g *gen) ordinaryFloat(maxExp int) float64 {
	return g.r.NormFloat64() * math.Pow(10, float64(g.r.Intn(2*maxExp+1)-maxExp))
}

// decimal returns an unscaled value with at most p digits, either sign;
// extremes are ±(10^p-1), 0 and ±1.
func (g *gen) decimal(p int32, extreme bool) decimal128.Num {
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
	v := new(big.Int)
	if extreme {
		switch g.r.Intn(3) {
		case 0:
			v.Sub(limit, big.NewInt(1))
		case 1:
			v.SetInt64(0)
		default:
			v.SetInt64(1)
		}
	} else {
		digits := g.r.Intn(int(p) + 1)
		v.Rand(g.r, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil))
	}
	if g.r.Intn(2) == 0 {
		v.Neg(v)
	}
	return Decimal128(v)
}

// Decimal128 converts v, |v| < 2^127, to a decimal128.Num on every GOARCH.
// arrow-go's decimal128.FromBigInt (and Num.BigInt) take a big.Word to be 64
// bits, so on 386 they drop or mix up the high words.
func Decimal128(v *big.Int) decimal128.Num {
	abs := new(big.Int).Abs(v)
	lo := new(big.Int).And(abs, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	hi := new(big.Int).Rsh(abs, 64).Uint64()
	n := decimal128.New(int64(hi), lo)
	if v.Sign() < 0 {
		n = n.Negate()
	}
	return n
}

func (g *gen) text() string {
	if g.r.Intn(8) == 0 {
		return ""
	}
	var b strings.Builder
	n := 1 + g.r.Intn(g.c.maxString)
	for range n {
		if g.r.Intn(2) == 0 {
			b.WriteByte(byte('a' + g.r.Intn(26)))
		} else {
			b.WriteString(stringPieces[g.r.Intn(len(stringPieces))])
		}
	}
	return b.String()
}
