package trycast

import (
	"math/big"
	"testing"

	"github.com/rowbridge/rowbridge/internal/casttest"
)

func TestParseDecimalDialects(t *testing.T) {
	null := any(nil)
	all := func(v any) [3]any { return [3]any{v, v, v} }
	spark := func(v any) [3]any { return [3]any{nil, v, v} }
	cases := []struct {
		in   string
		p, s int32
		want [3]any // decimal text at scale s, or nil for NULL
	}{
		{"-1.5", 12, 2, all("-1.50")},
		{"0000.123", 12, 2, all("0.12")},
		{"+09", 12, 2, all("9.00")},
		{"9.", 12, 2, all("9.00")},
		{".9", 12, 2, all("0.90")},
		{"3e-2", 12, 2, all("0.03")},
		{"3.5E-2", 12, 2, all("0.04")},
		{"3E+00002", 12, 2, all("300.00")},
		{"1.556", 12, 2, all("1.56")},
		{"1.554", 12, 2, all("1.55")},
		{"-1.555", 12, 2, all("-1.56")},
		{"-0.001", 12, 2, all("0.00")},
		{"0.005", 3, 2, all("0.01")},
		{"9.995", 3, 2, all(null)}, // rounds up to 10.00
		{"9.994", 3, 2, all("9.99")},
		{"134.12", 3, 2, all(null)},
		{"23e-5d", 9, 1, all(null)},
		{"3E+", 12, 2, all(null)},
		{"9e", 12, 2, all(null)},
		{".", 12, 2, all(null)},
		{"", 12, 2, all(null)},
		{"1.2.3", 12, 2, all(null)},
		{"abcd", 38, 1, all(null)},
		{"0.0444a", 38, 0, all(null)},
		{" -3E+2", 12, 2, spark("-300.00")},
		{" 1.23", 38, 0, spark("1")},
		{"1.23 ", 12, 2, spark("1.23")},
		{"6E+37", 38, 0, all("60000000000000000000000000000000000000")},
		{"6E-120", 38, 0, all("0")},
		{"5E-1", 38, 0, all("1")},
		{"4E-1", 38, 0, all("0")},
		{"12345678901234567890123456789012345678", 38, 0, all("12345678901234567890123456789012345678")},
		{"12345678901234567890123456789012345678", 38, 1, all(null)},
		{"123456789012345678901234567890123456789", 38, 0, all(null)},
		{"111111111111111111.23", 38, 38, all(null)},
		{"1.23e67", 38, 0, all(null)},
		{"0.12345678901234567890123456789012345678901234", 38, 38, all("0.12345678901234567890123456789012345679")},
		{"0e50", 10, 2, [3]any{"0.00", nil, nil}},
		{"0e10", 10, 2, all("0.00")},
		{"1e2147483648", 38, 0, all(null)},
		{"1e-2147483647", 38, 0, all("0")},
	}
	for _, c := range cases {
		for d := Presto; d <= SparkANSI; d++ {
			got, ok := ParseDecimal([]byte(c.in), c.p, c.s, d)
			txt := string(AppendDecimal(nil, got, c.s, d))
			if c.want[d] == nil {
				if ok {
					t.Errorf("%v ParseDecimal(%q, %d, %d) = %s, want NULL", d, c.in, c.p, c.s, txt)
				}
			} else if !ok || txt != c.want[d].(string) {
				t.Errorf("%v ParseDecimal(%q, %d, %d) = %s, %v; want %s", d, c.in, c.p, c.s, txt, ok, c.want[d])
			}
		}
	}
}

// ratHalfUp returns the unscaled value of r rounded HALF_UP to scale, as
// a big.Int, computed exactly with math/big.
func ratHalfUp(r *big.Rat, scale int32) *big.Int {
	x := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)))
	neg := x.Sign() < 0
	x.Abs(x)
	x.Add(x, big.NewRat(1, 2))
	q := new(big.Int).Quo(x.Num(), x.Denom())
	if neg {
		q.Neg(q)
	}
	return q
}

// checkDecimalAgainstRat verifies an accepted ParseDecimal result against
// exact big.Rat rounding; it returns false when the string is outside the
// range this check can evaluate cheaply.
func checkDecimalAgainstRat(t *testing.T, s string, p, sc int32) {
	t.Helper()
	got, ok := ParseDecimal([]byte(s), p, sc, Presto)
	x, grammar := scanDecimal([]byte(s))
	if !grammar {
		if ok {
			t.Fatalf("ParseDecimal(%q) accepted a string the grammar rejects", s)
		}
		return
	}
	if x.exp > 200 || x.exp < -200 {
		return // big.Rat.SetString would build huge numbers
	}
	r, rok := new(big.Rat).SetString(s)
	if !rok {
		t.Fatalf("big.Rat rejects %q that the decimal grammar accepts", s)
	}
	want := ratHalfUp(r, sc)
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
	fits := new(big.Int).Abs(want).Cmp(limit) < 0
	if ok != fits {
		t.Fatalf("ParseDecimal(%q, %d, %d) ok=%v, exact result %s fits=%v", s, p, sc, ok, want, fits)
	}
	if ok && casttest.DecimalToBig(got).Cmp(want) != 0 {
		t.Fatalf("ParseDecimal(%q, %d, %d) = %s, want %s", s, p, sc, casttest.DecimalToBig(got), want)
	}
}

func TestParseDecimalMatchesBigRat(t *testing.T) {
	for _, s := range []string{"1.005", "-1.005", "0.5", "-0.5", "99.95", "123456789.123456789",
		"-0.000000000000000000000000000000000000005", "9999999999999999999999999999999999999.95",
		"1e-38", "5e-39", "4.9e-39", "314159e-5", "0.000", "-0"} {
		for _, ps := range [][2]int32{{38, 0}, {38, 2}, {10, 5}, {38, 38}, {5, 0}, {19, 18}} {
			checkDecimalAgainstRat(t, s, ps[0], ps[1])
		}
	}
}
