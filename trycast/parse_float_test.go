package trycast

import (
	"math"
	"strconv"
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
