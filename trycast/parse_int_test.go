package trycast

import (
	"math"
	"testing"
)

type intCase struct {
	in   string
	bits int
	want [3]any // Presto, Spark, SparkANSI: int64 value or nil for NULL
}

func TestParseIntDialects(t *testing.T) {
	null := any(nil)
	i := func(v int64) any { return v }
	all := func(v any) [3]any { return [3]any{v, v, v} }
	cases := []intCase{
		{"  12  ", 32, all(i(12))},
		{"+12", 32, all(i(12))},
		{"007", 32, all(i(7))},
		{"010", 32, all(i(10))}, // decimal, never octal
		{"", 32, all(null)},
		{"   ", 32, all(null)},
		{"-", 32, all(null)},
		{"+", 32, all(null)},
		{"12.5", 32, [3]any{null, i(12), null}},
		{"12.", 32, [3]any{null, i(12), null}},
		{".5", 32, [3]any{null, i(0), null}},
		{".", 32, [3]any{null, i(0), null}},
		{"-.", 32, [3]any{null, i(0), null}},
		{"-12.9", 32, [3]any{null, i(-12), null}},
		{"1.abc", 32, all(null)},
		{"1..", 32, all(null)},
		{"1e3", 32, all(null)},
		{"2147483647", 32, all(i(math.MaxInt32))},
		{"2147483648", 32, all(null)},
		{"-2147483648", 32, all(i(math.MinInt32))},
		{"-2147483649", 32, all(null)},
		{"127", 8, all(i(127))},
		{"128", 8, all(null)},
		{"-128", 8, all(i(-128))},
		{"-129", 8, all(null)},
		{"32767", 16, all(i(32767))},
		{"-32769", 16, all(null)},
		{"9223372036854775807", 64, all(i(math.MaxInt64))},
		{"9223372036854775808", 64, all(null)},
		{"-9223372036854775808", 64, all(i(math.MinInt64))},
		{"-9223372036854775809", 64, all(null)},
		{"12345678901234567890", 64, all(null)},
		{"19000000000000000000", 64, all(null)},
		{"18446744073709551617", 64, all(null)},
		{"00000000000000000000000042", 8, all(i(42))},
		{"\u0663", 32, all(null)},
		{"12\x00", 32, [3]any{null, i(12), i(12)}},
		{"\x0012", 32, [3]any{null, i(12), i(12)}},
		{"1\x002", 32, all(null)},
		{"\x7f12", 32, [3]any{null, i(12), i(12)}},
		{"\x0f100", 16, all(i(100))},
		{" \x1f-102\x0f ", 16, all(i(-102))},
		{"\u00a012\u3000", 32, [3]any{i(12), null, null}}, // Unicode whitespace: Presto only
		{"\u200012", 32, [3]any{i(12), null, null}},
		{"1,234", 32, all(null)},
		{"1'234", 32, all(null)},
		{"0x1F", 32, all(null)},
		{"1_000", 32, all(null)},
		{"+-1", 32, all(null)},
		{"1 2", 32, all(null)},
		{"99999999999.5", 32, all(null)},
	}
	for _, c := range cases {
		for d := Presto; d <= SparkANSI; d++ {
			got, ok := ParseInt([]byte(c.in), c.bits, d)
			want := c.want[d]
			if want == nil {
				if ok {
					t.Errorf("%v ParseInt(%q, %d) = %d, want NULL", d, c.in, c.bits, got)
				}
				continue
			}
			if !ok || got != want.(int64) {
				t.Errorf("%v ParseInt(%q, %d) = %d, %v; want %d", d, c.in, c.bits, got, ok, want)
			}
		}
	}
}
