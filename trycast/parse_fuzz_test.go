package trycast

import (
	"math"
	"strconv"
	"testing"
	"time"
)

// FuzzParseIntPresto: every string strconv.ParseInt(s, 10, bits) accepts,
// Presto accepts with the same value (Presto additionally trims).
func FuzzParseIntPresto(f *testing.F) {
	for _, s := range []string{"0", "-0", "+7", "007", "127", "-128", "2147483647", "-9223372036854775808", "9223372036854775808", "19000000000000000000", "1_0", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, bits := range []int{8, 16, 32, 64} {
			want, err := strconv.ParseInt(s, 10, bits)
			got, ok := ParseInt([]byte(s), bits, Presto)
			if err == nil && (!ok || got != want) {
				t.Fatalf("ParseInt(%q, %d) = %d, %v; strconv says %d", s, bits, got, ok, want)
			}
			// Without surrounding whitespace the grammars are the same.
			if err != nil && ok && len(trimPresto([]byte(s))) == len(s) {
				t.Fatalf("ParseInt(%q, %d) = %d, strconv rejects: %v", s, bits, got, err)
			}
		}
	})
}

// FuzzParseFloat: where both our grammar and strconv accept, values agree
// (strconv's range error means ±Inf, which both return).
func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"1.5", "-0.0", "1e309", "1e-400", ".5", "5.", "1.7976931348623158e308", "3.4028235677973366e38", "0x1p-3", "123456789012345678901234567890", "2.2250738585072011e-308"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, bits := range []int{32, 64} {
			want, err := strconv.ParseFloat(s, bits)
			if err != nil && !math.IsInf(want, 0) {
				continue
			}
			for d := Presto; d <= SparkANSI; d++ {
				got, ok := ParseFloat([]byte(s), bits, d)
				if ok && !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("%v ParseFloat(%q, %d) = %v; strconv %v", d, s, bits, got, want)
				}
			}
		}
	})
}

// FuzzParsersNoPanic: arbitrary bytes never panic a parser, and accepted
// values are in range.
func FuzzParsersNoPanic(f *testing.F) {
	for _, s := range []string{"", "-", "+.", "1e", "0x", "2015-03-18T12:03:17-1:0", "2015-03-18 12:03:17 America/Los_Angeles", "\xff\xfe", "\u00a0", "9.9e2147483647", "-1-1-1", "+", "T", "2015-03-18 12:03:17.", "0x1p99999999999"} {
		f.Add([]byte(s))
	}
	ny, _ := time.LoadLocation("America/New_York")
	f.Fuzz(func(t *testing.T, b []byte) {
		for d := Presto; d <= SparkANSI; d++ {
			for _, bits := range []int{8, 16, 32, 64} {
				if v, ok := ParseInt(b, bits, d); ok {
					if lo, hi := intRange(bits); v < lo || v > hi {
						t.Fatalf("%v ParseInt(%q, %d) = %d out of range", d, b, bits, v)
					}
				}
			}
			ParseFloat(b, 32, d)
			ParseFloat(b, 64, d)
			ParseBool(b, d)
			if v, ok := ParseDecimal(b, 10, 3, d); ok && !v.FitsInPrecision(10) {
				t.Fatalf("%v ParseDecimal(%q) = %v does not fit", d, b, v)
			}
			ParseDate(b, d)
			ParseTimestamp(b, nil, d)
			ParseTimestamp(b, ny, d)
		}
	})
}

// FuzzParseDecimalRat: accepted decimals equal exact HALF_UP rounding
// computed with math/big.Rat, and acceptance matches fitting the precision.
func FuzzParseDecimalRat(f *testing.F) {
	for _, s := range []string{"1.005", "-0.5", "9.995", "1e-3", "12345678901234567890.5", ".5", "5.", "3E+2"} {
		f.Add(s, uint8(10), uint8(2))
	}
	f.Fuzz(func(t *testing.T, s string, p, sc uint8) {
		prec := int32(p%38) + 1
		scale := int32(sc) % (prec + 1)
		if len(s) > 200 {
			return
		}
		checkDecimalAgainstRat(t, s, prec, scale)
	})
}
