package trycast

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestParseFloatDialects(t *testing.T) {
	inf, ninf, nan := math.Inf(1), math.Inf(-1), math.NaN()
	null := any(nil)
	all := func(v any) [3]any { return [3]any{v, v, v} }
	spark := func(v any) [3]any { return [3]any{nil, v, v} }
	cases := []struct {
		in   string
		bits int
		want [3]any
	}{
		{"1.5", 64, all(1.5)},
		{"  1.5  ", 64, all(1.5)},
		{"\t-2.25e1\n", 64, all(-22.5)},
		{"+.5", 64, all(0.5)},
		{"5.", 64, all(5.0)},
		{"1.e2", 64, all(100.0)},
		{".", 64, all(null)},
		{"", 64, all(null)},
		{"   ", 64, all(null)},
		{"1e", 64, all(null)},
		{"1e+", 64, all(null)},
		{"1.2.3", 64, all(null)},
		{"1_000", 64, all(null)},
		{"NaN", 64, all(nan)},
		{"-NaN", 64, all(nan)},
		{"+Infinity", 32, all(inf)},
		{" Infinity ", 32, all(inf)},
		{"-Infinity", 64, all(ninf)},
		{"nan", 64, spark(nan)},
		{"nAn", 64, spark(nan)},
		{"inf", 64, spark(inf)},
		{"+inf", 64, spark(inf)},
		{"-INF", 64, spark(ninf)},
		{"infinity", 32, spark(inf)},
		{"+infiNity", 32, spark(inf)},
		{"  -infinity  ", 64, spark(ninf)},
		{"+nan", 64, all(null)},
		{"-nan", 64, all(null)},
		{"NaN  .", 32, all(null)},
		{"- NaN", 32, all(null)},
		{"Infinityf", 64, all(null)},
		{"1.2d", 64, spark(1.2)},
		{"1.2f", 32, spark(float64(float32(1.2)))},
		{"1e5D", 64, spark(1e5)},
		{"f", 64, all(null)},
		{"0x1p3", 64, spark(8.0)},
		{"-0x1.8p1", 64, spark(-3.0)},
		{"0x.8p1", 64, spark(1.0)},
		{"0x1p3f", 32, spark(8.0)},
		{"0x1", 64, all(null)},
		{"0x1p", 64, all(null)},
		{"0x1p2000", 64, spark(inf)},
		{"1.7E308", 32, all(inf)},
		{"1e39", 32, all(inf)},
		{"-1e39", 32, all(ninf)},
		{"1e309", 64, all(inf)},
		{"1e-400", 64, all(0.0)},
		{"2012-12-11", 64, all(null)},
		{"12\x00", 64, spark(12.0)}, // Java's trim removes NUL
		{"\v12", 64, [3]any{12.0, 12.0, 12.0}},
	}
	for _, c := range cases {
		for d := Presto; d <= SparkANSI; d++ {
			got, ok := ParseFloat([]byte(c.in), c.bits, d)
			want := c.want[d]
			if want == nil {
				if ok {
					t.Errorf("%v ParseFloat(%q, %d) = %v, want NULL", d, c.in, c.bits, got)
				}
				continue
			}
			w := want.(float64)
			if !ok || !(got == w || math.IsNaN(got) && math.IsNaN(w)) {
				t.Errorf("%v ParseFloat(%q, %d) = %v, %v; want %v", d, c.in, c.bits, got, ok, w)
			}
		}
	}
}

// TestParseFloatRounding checks correct rounding on hard and boundary
// inputs against strconv, for both widths.
func TestParseFloatRounding(t *testing.T) {
	inputs := []string{
		"0.1", "0.3", "2.2250738585072011e-308", "2.2250738585072012e-308",
		"4.9e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
		"1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
		"179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999",
		"179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792",
		"3.4028235e38", "3.4028236e38", "340282356779733661637539395458142568447.99", "340282356779733661637539395458142568448",
		"1.00000005960464477550", "1.0000000596046447753906250", "9007199254740993",
		"123456789012345678901234567890e-20", "0.000000000000000000000000000001e30",
		"7.038531e-26", "1e23", "8.589973e9", "1.5e-45", "1e-46",
	}
	for _, s := range inputs {
		for _, bits := range []int{32, 64} {
			want, _ := strconv.ParseFloat(s, bits)
			got, ok := ParseFloat([]byte(s), bits, Presto)
			if !ok || got != want {
				t.Errorf("ParseFloat(%q, %d) = %v, %v; want %v", s, bits, got, ok, want)
			}
		}
	}
}

// TestParseFloatLongMantissaExponent: an exponent beyond what strconv
// reads (five digits) that a long mantissa cancels still gives the exact
// rounding, and an exponent of any length saturates instead of wrapping.
func TestParseFloatLongMantissaExponent(t *testing.T) {
	zeros := func(n int) string { return strings.Repeat("0", n) }
	e := strconv.Itoa
	for _, c := range []struct {
		in     string
		bits   int
		want   float64
		sparkD bool // also try with a Java 'd' suffix in Spark
	}{
		{"1" + zeros(1_000_000) + "e-1000000", 64, 1, true},
		{"1" + zeros(1_000_000) + "e-1000000", 32, 1, false},
		{"-1" + zeros(200_000) + "e-200000", 64, -1, false},
		{"1" + zeros(99_999) + "e-99999", 64, 1, false},
		{"1" + zeros(100_000) + "e-100000", 64, 1, false},
		{"0." + zeros(300_000) + "1e300001", 64, 1, false},
		{"12345" + zeros(150_000) + "e-" + e(150_004), 64, 1.2345, false},
		{"12345" + zeros(150_000) + "e-" + e(150_004), 32, float64(float32(1.2345)), false},
		{"1" + zeros(200_000) + "e-" + e(200_309), 64, 1e-309, false},      // subnormal
		{"25" + zeros(200_000) + "e-" + e(200_000+325), 64, 5e-324, false}, // 2.5e-324 rounds up
		{"1" + zeros(200_000) + "e-" + e(200_000+330), 64, 0, false},
		{"17976931348623159" + zeros(200_000) + "e-" + e(200_000-292), 64, math.Inf(1), false},
		{"17976931348623157" + zeros(200_000) + "e-" + e(200_000-292), 64, math.MaxFloat64, false},
		{"34028236" + zeros(200_000) + "e-" + e(200_000-31), 32, math.Inf(1), false},
		// 2^53+1 and 2^24+1 lie halfway between two values; a 1 far past
		// the 800th digit breaks the tie upwards, its absence rounds to even.
		{"9007199254740993" + zeros(200_000) + "e-200000", 64, 9007199254740992, false},
		{"9007199254740993" + zeros(200_000) + "1e-200001", 64, 9007199254740994, false},
		{"16777217" + zeros(200_000) + "e-200000", 32, 16777216, false},
		{"16777217" + zeros(200_000) + "1e-200001", 32, 16777218, false},
		// Exponents longer than any int: saturated, not wrapped.
		{"1e" + strings.Repeat("9", 40), 64, math.Inf(1), false},
		{"-1e" + strings.Repeat("9", 40), 32, math.Inf(-1), false},
		{"1e-" + strings.Repeat("9", 40), 64, 0, false},
		{"0e" + strings.Repeat("9", 40), 64, 0, false},
		{"1" + zeros(1000) + "e-" + strings.Repeat("9", 40), 64, 0, false},
		{"1e18446744073709551617", 64, math.Inf(1), false}, // 2^64 + 1
	} {
		ins := []string{c.in}
		if c.sparkD {
			ins = append(ins, c.in+"d")
		}
		for d := Presto; d <= SparkANSI; d++ {
			for k, in := range ins {
				if k > 0 && d == Presto {
					continue
				}
				got, ok := ParseFloat([]byte(in), c.bits, d)
				if !ok || got != c.want || math.Signbit(got) != math.Signbit(c.want) {
					t.Errorf("%v ParseFloat(%.40s… (%d bytes), %d) = %v, %v; want %v", d, in, len(in), c.bits, got, ok, c.want)
				}
			}
		}
	}
}

// TestParseFloatManyDigitsMatchesBigRat: mantissas longer than the 800
// digits strconv reads correctly, with and without a point, at exact
// midpoints between neighbouring floats (with a tail that breaks the tie
// or not), against big.Rat's correctly rounded value.
func TestParseFloatManyDigitsMatchesBigRat(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	check := func(s string) {
		t.Helper()
		q, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("big.Rat cannot read %.40s", s)
		}
		w64, _ := q.Float64()
		w32, _ := q.Float32()
		for _, c := range []struct {
			bits int
			want float64
		}{{64, w64}, {32, float64(w32)}} {
			got, ok := ParseFloat([]byte(s), c.bits, Spark)
			if !ok || got != c.want {
				t.Errorf("ParseFloat(%.30s…%s (%d bytes), %d) = %v, %v; want %v", s, s[max(0, len(s)-12):], len(s), c.bits, got, ok, c.want)
			}
		}
	}
	for _, s := range []string{
		"1" + strings.Repeat("0", 800) + "e-800",
		"1" + strings.Repeat("0", 850) + ".0e-850",
		"9007199254740993" + strings.Repeat("0", 900) + "1e-901",
		"0." + strings.Repeat("0", 900) + "9007199254740993" + strings.Repeat("0", 900) + "1e916",
	} {
		check(s)
	}
	for range 300 {
		// Random digits, 700 to 1500 of them, a point somewhere or not.
		n := 700 + r.IntN(800)
		b := make([]byte, 0, n+8)
		b = append(b, byte('1'+r.IntN(9)))
		for range n - 1 {
			b = append(b, byte('0'+r.IntN(10)))
		}
		if r.IntN(2) == 0 {
			p := 1 + r.IntN(n-1)
			b = append(b[:p], append([]byte{'.'}, b[p:]...)...)
		}
		check(string(b) + "e" + strconv.Itoa(r.IntN(600)-n-300))
	}
	for range 300 {
		// The exact midpoint above a random double or float, then that
		// midpoint padded past 800 digits, with a final 1 or not.
		bits := []int{32, 64}[r.IntN(2)]
		var lo, hi *big.Float
		if bits == 64 {
			f := math.Float64frombits(r.Uint64N(0x7fe0000000000000))
			lo, hi = new(big.Float).SetFloat64(f), new(big.Float).SetFloat64(math.Nextafter(f, math.Inf(1)))
		} else {
			f := math.Float32frombits(r.Uint32N(0x7f000000))
			lo, hi = new(big.Float).SetFloat64(float64(f)), new(big.Float).SetFloat64(float64(math.Nextafter32(f, float32(math.Inf(1)))))
		}
		mid := new(big.Float).SetPrec(2000).Add(lo, hi)
		mid.Quo(mid, big.NewFloat(2))
		txt := mid.Text('e', -1) // exact: d.ddd…e±x
		mant, exp, _ := strings.Cut(txt, "e")
		pad := strings.Repeat("0", 820)
		for _, tail := range []string{"", "1"} {
			check(mant + pad + tail + "e" + exp)
		}
	}
}
