package trycast

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/rowbridge/rowbridge/internal/casttest"
)

func TestAppendFloat(t *testing.T) {
	for _, c := range []struct {
		v    float64
		bits int
		want string
	}{
		{1, 64, "1.0"}, {-1, 64, "-1.0"}, {100, 64, "100.0"}, {0.001, 64, "0.001"},
		{0.0001, 64, "1.0E-4"}, {1.234e-5, 64, "1.234E-5"}, {9999999, 64, "9999999.0"},
		{1e7, 64, "1.0E7"}, {123456789, 64, "1.23456789E8"}, {1e10, 64, "1.0E10"},
		{123456.789, 64, "123456.789"}, {-0.0025, 64, "-0.0025"}, {point3, 64, "0.30000000000000004"},
		{0, 64, "0.0"}, {math.Copysign(0, -1), 64, "-0.0"}, {math.NaN(), 64, "NaN"},
		{math.Inf(1), 64, "Infinity"}, {math.Inf(-1), 32, "-Infinity"},
		{math.MaxFloat64, 64, "1.7976931348623157E308"}, {5e-324, 64, "4.9E-324"}, {1e-323, 64, "9.9E-324"},
		{2e-323, 64, "2.0E-323"}, {float64(math.SmallestNonzeroFloat32), 32, "1.4E-45"}, {2e-3, 64, "0.002"},
		{float64(float32(0.1)), 32, "0.1"}, {float64(float32(0.1)), 64, "0.10000000149011612"},
		{float64(float32(1e10)), 32, "1.0E10"}, {float64(float32(3.4028235e38)), 32, "3.4028235E38"},
	} {
		for d := Presto; d <= SparkANSI; d++ {
			if got := string(AppendFloat(nil, c.v, c.bits, d)); got != c.want {
				t.Errorf("%v AppendFloat(%v, %d) = %q, want %q", d, c.v, c.bits, got, c.want)
			}
		}
	}
}

// TestAppendFloatRoundTrip checks the printed text parses back exactly.
func TestAppendFloatRoundTrip(t *testing.T) {
	for _, v := range []float64{math.Pi, 1e-300, 6.02214076e23, 2.5e-3, 1e6 + 0.5, 1.0 / 3} {
		txt := AppendFloat(nil, v, 64, Spark)
		got, ok := ParseFloat(txt, 64, Spark)
		if !ok || got != v {
			t.Errorf("%v -> %s -> %v, %v", v, txt, got, ok)
		}
	}
}

func TestAppendScalars(t *testing.T) {
	for d := Presto; d <= SparkANSI; d++ {
		if got := string(AppendInt([]byte("x="), math.MinInt64, d)); got != "x=-9223372036854775808" {
			t.Errorf("AppendInt = %q", got)
		}
		if got := string(AppendBool(nil, true, d)) + string(AppendBool(nil, false, d)); got != "truefalse" {
			t.Errorf("AppendBool = %q", got)
		}
	}
	for _, c := range []struct {
		in   string
		p, s int32
		want string
	}{
		{"-1.5", 10, 2, "-1.50"}, {"0.05", 10, 2, "0.05"}, {"0", 10, 3, "0.000"}, {"123", 10, 0, "123"},
		{"-0.00000000000000000000000000000000000001", 38, 38, "-0.00000000000000000000000000000000000001"},
		{"99999999999999999999999999999999999999", 38, 0, "99999999999999999999999999999999999999"},
		{"-12345678901234567890.123456789", 38, 9, "-12345678901234567890.123456789"},
	} {
		n, ok := ParseDecimal([]byte(c.in), c.p, c.s, Presto)
		for _, d := range []Dialect{Presto, SparkANSI} {
			if got := string(AppendDecimal(nil, n, c.s, d)); !ok || got != c.want {
				t.Errorf("%v AppendDecimal(%s) = %q, %v", d, c.in, got, ok)
			}
		}
	}
	for _, c := range []struct {
		days   int32
		presto string
		spark  string
	}{
		{0, "1970-01-01", "1970-01-01"}, {-1, "1969-12-31", "1969-12-31"},
		{18262, "2020-01-01", "2020-01-01"}, {3789742, "12345-12-18", "+12345-12-18"},
		{-719529, "-0001-12-31", "-0001-12-31"}, {-719162, "0001-01-01", "0001-01-01"},
	} {
		if got := string(AppendDate(nil, c.days, Presto)); got != c.presto {
			t.Errorf("Presto AppendDate(%d) = %q, want %q", c.days, got, c.presto)
		}
		if got := string(AppendDate(nil, c.days, Spark)); got != c.spark {
			t.Errorf("Spark AppendDate(%d) = %q, want %q", c.days, got, c.spark)
		}
	}
}

// TestAppendDecimalSparkLegacy checks Java's BigDecimal.toString, which
// Spark's CAST uses with ANSI off, against the plain text Presto and Spark
// ANSI print.
func TestAppendDecimalSparkLegacy(t *testing.T) {
	for _, c := range []struct {
		unscaled     string
		scale        int32
		legacy, ansi string
	}{
		{"100", 10, "1.00E-8", "0.0000000100"},
		{"-100", 10, "-1.00E-8", "-0.0000000100"},
		{"0", 10, "0E-10", "0.0000000000"},
		{"0", 6, "0.000000", "0.000000"},
		{"0", 7, "0E-7", "0.0000000"},
		{"1", 6, "0.000001", "0.000001"},     // adjusted -6: plain
		{"1", 7, "1E-7", "0.0000001"},        // adjusted -7
		{"-12", 8, "-1.2E-7", "-0.00000012"}, // adjusted -7
		{"12", 7, "0.0000012", "0.0000012"},  // adjusted -6
		{"123456789", 15, "1.23456789E-7", "0.000000123456789"},
		{"1", 38, "1E-38", "0.00000000000000000000000000000000000001"},
		{"-1", 38, "-1E-38", "-0.00000000000000000000000000000000000001"},
		{"99999999999999999999999999999999999999", 38, "0.99999999999999999999999999999999999999", "0.99999999999999999999999999999999999999"},
		{"150", 2, "1.50", "1.50"},
		{"123", 0, "123", "123"},
		{"0", 0, "0", "0"},
		{"1", -3, "1E+3", "1000"}, // negative scale: always scientific in Java
		{"12", -2, "1.2E+3", "1200"},
		{"-12", -2, "-1.2E+3", "-1200"},
		{"0", -2, "0E+2", "0"},
	} {
		u, ok := new(big.Int).SetString(c.unscaled, 10)
		if !ok {
			t.Fatal(c.unscaled)
		}
		n := casttest.DecimalFromBig(u) // decimal128.FromString is wrong on 386 (arrow-go v18.8.0)
		if got := string(AppendDecimal(nil, n, c.scale, Spark)); got != c.legacy {
			t.Errorf("Spark AppendDecimal(%s, scale %d) = %q, want %q", c.unscaled, c.scale, got, c.legacy)
		}
		for _, d := range []Dialect{Presto, SparkANSI} {
			if got := string(AppendDecimal(nil, n, c.scale, d)); got != c.ansi {
				t.Errorf("%v AppendDecimal(%s, scale %d) = %q, want %q", d, c.unscaled, c.scale, got, c.ansi)
			}
		}
	}
}

func TestAppendTimestamp(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		micros        int64
		loc           *time.Location
		presto, spark string
	}{
		{0, nil, "1970-01-01 00:00:00.000", "1970-01-01 00:00:00"},
		{-1, nil, "1969-12-31 23:59:59.999", "1969-12-31 23:59:59.999999"},
		{1426683797123400, nil, "2015-03-18 13:03:17.123", "2015-03-18 13:03:17.1234"},
		{1426683797500000, time.UTC, "2015-03-18 13:03:17.500", "2015-03-18 13:03:17.5"},
		{0, tokyo, "1970-01-01 09:00:00.000", "1970-01-01 09:00:00"},
	} {
		if got := string(AppendTimestamp(nil, c.micros, c.loc, Presto)); got != c.presto {
			t.Errorf("Presto AppendTimestamp(%d) = %q, want %q", c.micros, got, c.presto)
		}
		if got := string(AppendTimestamp(nil, c.micros, c.loc, Spark)); got != c.spark {
			t.Errorf("Spark AppendTimestamp(%d) = %q, want %q", c.micros, got, c.spark)
		}
	}
	// Text printed by Spark parses back to the same instant.
	for _, m := range []int64{0, -1, 1426683797123456, -62135596800000000} {
		txt := AppendTimestamp(nil, m, tokyo, Spark)
		got, ok := ParseTimestamp(txt, tokyo, Spark)
		if !ok || got != m {
			t.Errorf("%d -> %s -> %d, %v", m, txt, got, ok)
		}
	}
}
