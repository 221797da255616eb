package trycast

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// checkPlainFloat holds appendPlainFloat to the strconv path on v; short
// reports that v is a decimal of at most 15 digits in the plain range,
// which the fast path must then take.
func checkPlainFloat(t *testing.T, v float64, short bool) {
	t.Helper()
	got, ok := appendPlainFloat([]byte("x"), v)
	want := string(appendFloatDigits([]byte("x"), v, 64))
	if !ok {
		if string(got) != "x" {
			t.Fatalf("%v (%#x): not taken, but wrote %q", v, math.Float64bits(v), got)
		}
		if short {
			t.Fatalf("%v (%#x, %s): a short plain value not taken", v, math.Float64bits(v), want)
		}
		return
	}
	if string(got) != want {
		t.Fatalf("%v (%#x): %q, strconv path %q", v, math.Float64bits(v), got, want)
	}
	if AppendFloat(nil, v, 64, Presto) == nil || string(AppendFloat([]byte("x"), v, 64, Spark)) != want {
		t.Fatalf("%v: AppendFloat does not give %q", v, want)
	}
}

// TestAppendPlainFloatMatchesStrconv: the fast path gives the strconv
// path's text for random decimals of 1 to 17 digits at every magnitude
// around the plain range, random doubles, and the edges.
func TestAppendPlainFloatMatchesStrconv(t *testing.T) {
	edges := []float64{1e-3, 1e7, 0.01, 0.1, 1, 10, 100, 1e6, 0.3, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 123456.7891, 9999999.5,
		999999.9999999999, 9999999.999999998, 0.0010000000000000002, 5e-324, math.MaxFloat64, math.SmallestNonzeroFloat64,
		100.0, 1200, 1234567, 0.001234, 0.00999999999999999, 0.09999999999999999, 0.9999999999999999, 9.999999999999998,
		math.Pi, math.E, 1e-4, 1e8, 12345678, math.Inf(1), math.NaN(), 0, math.Copysign(0, -1), 4.35, 0.07, 1.005}
	for _, v := range edges {
		for _, x := range []float64{v, -v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1)), -math.Nextafter(v, 0)} {
			checkPlainFloat(t, x, false)
		}
	}
	r := rand.New(rand.NewPCG(51, 52))
	for range 300000 {
		digits := 1 + r.IntN(17)
		m := r.Int64N(int64(pow10u64[digits]))
		exp := -digits - 4 + r.IntN(digits+13) // |v| from about 1e-4 to 1e8
		s := strconv.FormatInt(m, 10) + "e" + strconv.Itoa(exp)
		if r.IntN(2) == 0 {
			s = "-" + s
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		a := math.Abs(v)
		sig := len(strconv.FormatFloat(a, 'e', -1, 64)) - len("e+00") - 1 // digits, point and exponent removed
		if sig < 1 {
			sig = 1
		}
		checkPlainFloat(t, v, a >= 1e-3 && a < 1e7 && sig <= 15)
		checkPlainFloat(t, math.Float64frombits(r.Uint64()), false)
		checkPlainFloat(t, math.Float64frombits(math.Float64bits(1e-3)+r.Uint64N(math.Float64bits(1e7)-math.Float64bits(1e-3))), false)
	}
}

// FuzzAppendPlainFloat: any double the fast path takes prints as the
// strconv path prints it.
func FuzzAppendPlainFloat(f *testing.F) {
	for _, v := range []float64{1e-3, 123456.7891, 0.1 + 0.2, 9999999.5, 1200, -0.001234} {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		checkPlainFloat(t, math.Float64frombits(bits), false)
	})
}
