package trycast

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/rowbridge/rowbridge/internal/casttest"
)

func TestIntToInt(t *testing.T) {
	cases := []struct {
		v    int64
		bits int
		want [3]any
	}{
		{1234, 8, [3]any{nil, int64(-46), nil}},
		{1234567, 16, [3]any{nil, int64(-10617), nil}},
		{456, 8, [3]any{nil, int64(-56), nil}},
		{2147483648, 32, [3]any{nil, int64(math.MinInt32), nil}},
		{127, 8, [3]any{int64(127), int64(127), int64(127)}},
		{-128, 8, [3]any{int64(-128), int64(-128), int64(-128)}},
		{-129, 8, [3]any{nil, int64(127), nil}},
		{math.MinInt64, 64, [3]any{int64(math.MinInt64), int64(math.MinInt64), int64(math.MinInt64)}},
	}
	for _, c := range cases {
		for d := Presto; d <= SparkANSI; d++ {
			checkInt(t, "IntToInt", c.v, d, c.want[d])(IntToInt(c.v, c.bits, d))
		}
	}
}

func checkInt(t *testing.T, fn string, in any, d Dialect, want any) func(int64, bool) {
	return func(got int64, ok bool) {
		t.Helper()
		if want == nil {
			if ok {
				t.Errorf("%v %s(%v) = %d, want NULL", d, fn, in, got)
			}
		} else if !ok || got != want.(int64) {
			t.Errorf("%v %s(%v) = %d, %v; want %d", d, fn, in, got, ok, want)
		}
	}
}

func TestFloatToInt(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	i := func(v int64) any { return v }
	cases := []struct {
		v    float64
		bits int
		want [3]any
	}{
		{2.5, 32, [3]any{i(3), i(2), i(2)}},
		{-2.5, 32, [3]any{i(-3), i(-2), i(-2)}},
		{1.888, 32, [3]any{i(2), i(1), i(1)}},
		{-100.101, 32, [3]any{i(-100), i(-100), i(-100)}},
		{12345.67, 32, [3]any{i(12346), i(12345), i(12345)}},
		{127.1, 8, [3]any{i(127), i(127), i(127)}},
		{127.8, 8, [3]any{nil, i(127), i(127)}},
		{128.0, 8, [3]any{nil, i(-128), nil}},
		{129.9, 8, [3]any{nil, i(-127), nil}},
		{12345.67, 8, [3]any{nil, i(57), nil}},
		{3.0e10, 32, [3]any{nil, i(math.MaxInt32), nil}},
		{2147483647.9, 32, [3]any{nil, i(math.MaxInt32), i(math.MaxInt32)}},
		{-2147483648.9, 32, [3]any{nil, i(math.MinInt32), i(math.MinInt32)}},
		{2147483648.0, 32, [3]any{nil, i(math.MaxInt32), nil}},
		{9.223372036854776e18, 64, [3]any{nil, i(math.MaxInt64), i(math.MaxInt64)}},
		{-9.223372036854776e18, 64, [3]any{i(math.MinInt64), i(math.MinInt64), i(math.MinInt64)}},
		{math.MaxFloat64, 64, [3]any{nil, i(math.MaxInt64), nil}},
		{1e20, 64, [3]any{nil, i(math.MaxInt64), nil}},
		{nan, 32, [3]any{nil, i(0), nil}},
		{nan, 8, [3]any{nil, i(0), nil}},
		{inf, 32, [3]any{nil, i(math.MaxInt32), nil}},
		{-inf, 64, [3]any{nil, i(math.MinInt64), nil}},
	}
	for _, c := range cases {
		for d := Presto; d <= SparkANSI; d++ {
			checkInt(t, "FloatToInt", c.v, d, c.want[d])(FloatToInt(c.v, c.bits, d))
		}
	}
	// Spark's float bounds differ from its double bounds at 2^31.
	checkInt(t, "Float32ToInt", 2147483648.0, SparkANSI, i(math.MaxInt32))(Float32ToInt(2147483648.0, 32, SparkANSI))
	checkInt(t, "Float32ToInt", 1e20, SparkANSI, nil)(Float32ToInt(1e20, 64, SparkANSI))
	checkInt(t, "Float32ToInt", 2.5, Presto, i(3))(Float32ToInt(2.5, 32, Presto))
}

func TestFloatToBoolAndReal(t *testing.T) {
	for d := Presto; d <= SparkANSI; d++ {
		for _, c := range []struct {
			v    float64
			want bool
		}{{0, false}, {math.Copysign(0, -1), false}, {-0.5, true}, {1e-13, true}, {math.NaN(), true}, {math.Inf(-1), true}} {
			if got := FloatToBool(c.v, d); got != c.want {
				t.Errorf("%v FloatToBool(%v) = %v", d, c.v, got)
			}
		}
	}
	if _, ok := DoubleToReal(1.7e308, Presto); ok {
		t.Error("Presto DoubleToReal(1.7e308) should fail")
	}
	if f, ok := DoubleToReal(1.7e308, Spark); !ok || !math.IsInf(float64(f), 1) {
		t.Errorf("Spark DoubleToReal(1.7e308) = %v, %v", f, ok)
	}
	if f, ok := DoubleToReal(math.Inf(-1), Presto); !ok || !math.IsInf(float64(f), -1) {
		t.Errorf("Presto DoubleToReal(-Inf) = %v, %v", f, ok)
	}
	if f, ok := DoubleToReal(0.1, Presto); !ok || f != float32(0.1) {
		t.Errorf("DoubleToReal(0.1) = %v, %v", f, ok)
	}
}

// decAt renders a conversion result at scale, or nil for NULL.
func decAt(scale int32) func(decimal128.Num, bool) any {
	return func(n decimal128.Num, ok bool) any {
		if !ok {
			return nil
		}
		return string(AppendDecimal(nil, n, scale, Presto))
	}
}

// point3 is 0.1+0.2 evaluated in float64 (a constant expression would be exact).
var point1, point2 = 0.1, 0.2
var point3 = point1 + point2

func TestToDecimal(t *testing.T) {
	type want = [3]any
	for _, c := range []struct {
		v    int64
		p, s int32
		want want
	}{
		{123, 6, 4, want{nil, nil, nil}},
		{123, 3, 1, want{nil, nil, nil}},
		{123, 4, 1, want{"123.0", "123.0", "123.0"}},
		{-5, 38, 37, want{"-5.0000000000000000000000000000000000000", "-5.0000000000000000000000000000000000000", "-5.0000000000000000000000000000000000000"}},
		{math.MinInt64, 19, 0, want{"-9223372036854775808", "-9223372036854775808", "-9223372036854775808"}},
		{1, 1, 1, want{nil, nil, nil}},
	} {
		for d := Presto; d <= SparkANSI; d++ {
			if got := decAt(c.s)(IntToDecimal(c.v, c.p, c.s, d)); got != c.want[d] {
				t.Errorf("%v IntToDecimal(%d, %d, %d) = %v, want %v", d, c.v, c.p, c.s, got, c.want[d])
			}
		}
	}
	for _, c := range []struct {
		v    float64
		p, s int32
		want want
	}{
		{10.03, 4, 2, want{"10.03", "10.03", "10.03"}},
		{10.03, 1, 0, want{nil, nil, nil}},
		{10.05, 3, 1, want{"10.1", "10.1", "10.1"}},
		{9.95, 2, 1, want{nil, nil, nil}},
		{9.95, 3, 1, want{"10.0", "10.0", "10.0"}},
		{-9.95, 3, 1, want{"-10.0", "-10.0", "-10.0"}},
		{point3, 38, 17, want{"0.30000000000000000", "0.30000000000000004", "0.30000000000000004"}},
		{10000000000000.25, 20, 1, want{"10000000000000.3", "10000000000000.3", "10000000000000.3"}},
		{1e20, 38, 0, want{"100000000000000000000", "100000000000000000000", "100000000000000000000"}},
		{1e38, 38, 0, want{"99999999999999997748809823456034029568", nil, nil}},
		{1e39, 38, 0, want{nil, nil, nil}},
		{math.NaN(), 38, 18, want{nil, nil, nil}},
		{math.Inf(1), 38, 18, want{nil, nil, nil}},
		{math.Copysign(0, -1), 5, 2, want{"0.00", "0.00", "0.00"}},
	} {
		for d := Presto; d <= SparkANSI; d++ {
			if got := decAt(c.s)(FloatToDecimal(c.v, c.p, c.s, d)); got != c.want[d] {
				t.Errorf("%v FloatToDecimal(%v, %d, %d) = %v, want %v", d, c.v, c.p, c.s, got, c.want[d])
			}
		}
	}
	if got := decAt(9)(Float32ToDecimal(0.1, 10, 9, Presto)); got != "0.100000000" {
		t.Errorf("Presto Float32ToDecimal(0.1) = %v", got)
	}
	if got := decAt(17)(Float32ToDecimal(0.1, 20, 17, Spark)); got != "0.10000000149011612" {
		t.Errorf("Spark Float32ToDecimal(0.1) = %v", got)
	}
}

func mustDec(t *testing.T, s string, p, sc int32) decimal128.Num {
	t.Helper()
	n, ok := ParseDecimal([]byte(s), p, sc, Presto)
	if !ok {
		t.Fatalf("bad decimal %q", s)
	}
	return n
}

func TestFromDecimal(t *testing.T) {
	i := func(v int64) any { return v }
	for _, c := range []struct {
		in   string
		p, s int32
		bits int
		want [3]any
	}{
		{"2.56", 6, 2, 32, [3]any{i(3), i(2), i(2)}},
		{"3.46", 6, 2, 32, [3]any{i(3), i(3), i(3)}},
		{"-2.60", 6, 2, 64, [3]any{i(-3), i(-2), i(-2)}},
		{"57.55", 6, 2, 32, [3]any{i(58), i(57), i(57)}},
		{"2147483648.90", 12, 2, 32, [3]any{nil, i(math.MinInt32), nil}},
		{"2147483648.90", 12, 2, 8, [3]any{nil, i(0), nil}},
		{"5500.0", 5, 1, 8, [3]any{nil, i(124), nil}},
		{"2147483647.49", 12, 2, 32, [3]any{i(math.MaxInt32), i(math.MaxInt32), i(math.MaxInt32)}},
		{"2147483647.50", 12, 2, 32, [3]any{nil, i(math.MaxInt32), i(math.MaxInt32)}},
		{"-99999999999999999999999999999999999999", 38, 0, 64, [3]any{nil, i(0), nil}},
	} {
		v := mustDec(t, c.in, c.p, c.s)
		want := c.want
		if c.p == 38 {
			// legacy Spark keeps the low 64 bits of the two's complement value
			want[Spark] = int64(v.LowBits())
		}
		for d := Presto; d <= SparkANSI; d++ {
			checkInt(t, "DecimalToInt", c.in, d, want[d])(DecimalToInt(v, c.s, c.bits, d))
		}
	}
	for _, c := range []struct {
		in   string
		p, s int32
		want float64
	}{
		{"1.25", 3, 2, 1.25},
		{"-0.1", 2, 1, -0.1},
		{"12345678901234567890.123456789", 38, 9, 12345678901234567890.123456789},
		{"99999999999999999999999999999999999999", 38, 0, 99999999999999999999999999999999999999},
		{"0.00000000000000000000000000000000000001", 38, 38, 1e-38},
	} {
		if got := DecimalToFloat(mustDec(t, c.in, c.p, c.s), c.s); got != c.want {
			t.Errorf("DecimalToFloat(%s) = %v, want %v", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in           string
		p, s, tp, ts int32
		want         any
	}{
		{"1.555", 10, 3, 10, 2, "1.56"},
		{"-1.555", 10, 3, 10, 2, "-1.56"},
		{"-0.004", 10, 3, 10, 2, "0.00"},
		{"99.5", 3, 1, 2, 0, nil},
		{"99.4", 3, 1, 2, 0, "99"},
		{"1.5", 2, 1, 38, 37, "1.5000000000000000000000000000000000000"},
		{"12.5", 3, 1, 38, 37, nil},
	} {
		for d := Presto; d <= SparkANSI; d++ {
			if got := decAt(c.ts)(DecimalToDecimal(mustDec(t, c.in, c.p, c.s), c.s, c.tp, c.ts, d)); got != c.want {
				t.Errorf("%v DecimalToDecimal(%s -> (%d,%d)) = %v, want %v", d, c.in, c.tp, c.ts, got, c.want)
			}
		}
	}
}

// TestDecimalToFloatMatchesBigRat holds DecimalToFloat32 and DecimalToFloat
// to the correctly rounded value of unscaled/10^scale (big.Rat rounds half
// to even, as Java's BigDecimal.floatValue/doubleValue do), on random
// decimals of every length and on integers at, just below and just above
// the midpoint of two neighbouring reals, where rounding through float64
// first goes wrong.
func TestDecimalToFloatMatchesBigRat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	check := func(u *big.Int, scale int32) {
		t.Helper()
		n := casttest.DecimalFromBig(u) // decimal128.FromString is wrong on 386 (arrow-go v18.8.0)
		q := new(big.Rat).SetInt(u)
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs32(scale))), nil)
		if scale >= 0 {
			q.Quo(q, new(big.Rat).SetInt(p))
		} else {
			q.Mul(q, new(big.Rat).SetInt(p))
		}
		want32, _ := q.Float32()
		want64, _ := q.Float64()
		if got := DecimalToFloat32(n, scale); got != want32 {
			t.Errorf("DecimalToFloat32(%v, scale %d) = %v, want %v", u, scale, got, want32)
		}
		if got := DecimalToFloat(n, scale); got != want64 {
			t.Errorf("DecimalToFloat(%v, scale %d) = %v, want %v", u, scale, got, want64)
		}
	}
	for range 20000 {
		digits := 1 + r.IntN(38)
		u := new(big.Int)
		for range digits {
			u.Mul(u, big.NewInt(10))
			u.Add(u, big.NewInt(r.Int64N(10)))
		}
		if r.IntN(2) == 0 {
			u.Neg(u)
		}
		check(u, int32(r.IntN(50))-6)
	}
	// Midpoints between neighbouring float32 values, as exact integers
	// (up to 2^126), with neighbours one unit away and the same value with
	// trailing zeros at a positive scale.
	for range 20000 {
		e := 25 + r.IntN(100)                                  // value in [2^e, 2^(e+1))
		m := int64(1<<23 + r.Int64N(1<<23))                    // 24-bit significand
		mid := new(big.Int).Lsh(big.NewInt(2*m+1), uint(e-24)) // (m + 1/2) * 2^(e-23)
		for _, delta := range []int64{-1, 0, 1} {
			u := new(big.Int).Add(mid, big.NewInt(delta))
			check(u, 0)
			if len(u.String()) < 38 {
				check(new(big.Int).Mul(u, big.NewInt(10)), 1)
			}
		}
	}
	check(big.NewInt(1152921573326323713), 0)
	if got := DecimalToFloat32(decimal128.FromI64(1152921573326323713), 0); got != 1152921642045800448 {
		t.Errorf("DecimalToFloat32(1152921573326323713) = %v", got)
	}
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
