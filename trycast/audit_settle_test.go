package trycast

import (
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// auditEdgeRows are the edges of today's settle paths (branchless signs,
// dateWord), each bare and with '-', '+', leading zeros and spaces: zeros
// of every sign, NaN and Inf texts, lengths around 7/8/9, 15/16/17 digits,
// the float32 and float64 fast limits (2^24, 10^15), int64 and decimal(18)
// bounds, and dates at the ends of 0000..9999 and around Feb 29.
func auditEdgeRows() []string {
	base := []string{"0", "0.0", "00", "0.000000000000000000", "1", "1.5", "16777215", "16777216", "16777217", "1677721.6",
		"0.0000001", "1234567", "12345678", "123456789", "1234567.8", "12345678.9", "999999999999999", "1000000000000000",
		"99999999999999.9", "9999999999999999", "99999999999999999", "123456789012345", "1234567890123456", "12345678901234567",
		"0.123456789012345", "0.1234567890123456", "0.12345678901234567", "9223372036854775807", "9223372036854775808",
		"999999999999999999", "0.999999999999999999", "0.000000000000000001", "99999999.99", "4.9e-324", "1e5", "1E-5", "1e308",
		"NaN", "nan", "Infinity", "infinity", "Inf", "inf", "1.", ".5", "5.", "0000000000000001.5", "1_000", "1,5", "١"}
	dates := []string{"0000-01-01", "0000-02-29", "0001-02-29", "0004-02-29", "0100-02-29", "0400-02-29", "1900-02-29", "2000-02-29",
		"2023-02-29", "2024-02-29", "2024-02-30", "2024-04-31", "2024-12-31", "2024-12-32", "2024-13-01", "2024-00-01", "2024-01-00",
		"9999-12-31", "9999-12-32", "1970-01-01", "1969-12-31", "2024-1-01", "2024-01-1", "20240101", "2024-01-01 ", " 2024-01-01",
		"2024-01-01\t", "2024-0101-", "2024--0101", "202\xff-01-01", "2024-\x80\x81-01", "2024-0\x00-01", "\x002024-01-01"}
	var rows []string
	for _, b := range base {
		for _, f := range []string{"%", "-%", "+%", "-0%", "+00%", " %", "% ", " -% ", "\t%\n", "--%", "+-%", "-+%"} {
			rows = append(rows, strings.ReplaceAll(f, "%", b))
		}
	}
	rows = append(rows, dates...)
	for _, d := range dates {
		rows = append(rows, "-"+d, "+"+d)
	}
	return append(rows, "", "-", "+", " ", ".", "-.", "+.", "e", "-e5")
}

// TestAuditSettleEdgesMatchParsers holds every edge row cast to float,
// double, decimals of precision 18 and below (the settled ones) and date
// to the row parsers, in every dialect, bit for bit (-0 included).
func TestAuditSettleEdgesMatchParsers(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := auditEdgeRows()
	b := array.NewStringBuilder(mem)
	b.AppendValues(rows, nil)
	in := b.NewArray()
	b.Release()
	defer in.Release()
	checkCastsMatchParsers(t, mem, in, rows, auditTargets(), nil)
}

// auditTargets are the settled cast targets: float, double, date and
// decimals of precision 18 and below.
func auditTargets() []arrow.DataType {
	targets := []arrow.DataType{arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Date32}
	for _, ps := range [][2]int32{{18, 0}, {18, 2}, {18, 18}, {17, 1}, {10, 0}, {10, 5}, {1, 0}, {1, 1}, {5, 5}} {
		targets = append(targets, &arrow.Decimal128Type{Precision: ps[0], Scale: ps[1]})
	}
	return targets
}

// checkCastsMatchParsers casts in (whose values are rows, row i null when
// null(i)) to every target in every dialect and holds each row to the row
// parser's answer, a null row to NULL and the zero value.
func checkCastsMatchParsers(t *testing.T, mem memory.Allocator, in arrow.Array, rows []string, targets []arrow.DataType, null func(int) bool) {
	t.Helper()
	for _, d := range []Dialect{Presto, Spark, SparkANSI} {
		for _, to := range targets {
			out, err := Cast(mem, in, to, Options{Dialect: d})
			if err != nil {
				t.Fatal(err)
			}
			if err := array.ValidateFull(out); err != nil {
				t.Fatal(err)
			}
			for i, s := range rows {
				var ok, same bool
				switch o := out.(type) {
				case *array.Float32:
					v, good := ParseFloat([]byte(s), 32, d)
					ok, same = good, math.Float32bits(float32(v)) == math.Float32bits(o.Value(i)) || math.IsNaN(v) && math.IsNaN(float64(o.Value(i)))
				case *array.Float64:
					v, good := ParseFloat([]byte(s), 64, d)
					ok, same = good, math.Float64bits(v) == math.Float64bits(o.Value(i)) || math.IsNaN(v) && math.IsNaN(o.Value(i))
				case *array.Decimal128:
					dt := to.(*arrow.Decimal128Type)
					v, good := ParseDecimal([]byte(s), dt.Precision, dt.Scale, d)
					ok, same = good, v == o.Value(i)
				case *array.Date32:
					v, good := ParseDate([]byte(s), d)
					ok, same = good, v == int32(o.Value(i))
				}
				if null != nil && null(i) {
					ok = false
				}
				if out.IsValid(i) != ok || ok && !same {
					t.Errorf("%s %v %q: kernel valid %v, parser %v, same value %v", to, d, s, out.IsValid(i), ok, same)
				}
				if !ok && !zeroAt(out, i) {
					t.Errorf("%s %v %q: failed row holds a value", to, d, s)
				}
			}
			out.Release()
		}
	}
}

// TestAuditDoubleToUTF8Edges: the double -> utf8 cast, whose common case
// is appendPlainFloat, prints every edge double as the strconv path does,
// in every dialect, nulls included.
func TestAuditDoubleToUTF8Edges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var vals []float64
	for _, v := range []float64{0, 1e-3, 1e7, 1e-4, 1e6, 0.1, 0.2, 0.3, 0.1 + 0.2, 1.0 / 3, 100, 1e15, 1e16, 123456789012345e-9,
		1234567.890123456, 1234567.8901234567, 9999999.999999999, 0.001000000000000001, 0.009999999999999998,
		5e-324, 2.2250738585072014e-308, math.MaxFloat64, math.Inf(1), math.NaN(), 4503599627370496.5, 0.5, 2.5, 1.25e-3} {
		vals = append(vals, v, -v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1)))
	}
	vals = append(vals, math.Copysign(0, -1), math.Inf(-1))
	b := array.NewFloat64Builder(mem)
	for i, v := range vals {
		b.Append(v)
		if i%7 == 0 {
			b.AppendNull()
		}
	}
	in := b.NewArray()
	b.Release()
	defer in.Release()
	src := in.(*array.Float64)
	for _, d := range []Dialect{Presto, Spark, SparkANSI} {
		out, err := Cast(mem, in, arrow.BinaryTypes.String, Options{Dialect: d})
		if err != nil {
			t.Fatal(err)
		}
		if err := array.ValidateFull(out); err != nil {
			t.Fatal(err)
		}
		o := out.(*array.String)
		for i := range src.Len() {
			if src.IsNull(i) {
				if o.IsValid(i) {
					t.Errorf("%v row %d: null input gives %q", d, i, o.Value(i))
				}
				continue
			}
			want := string(appendFloatDigits(nil, src.Value(i), 64))
			if !o.IsValid(i) || o.Value(i) != want {
				t.Errorf("%v %v (%#x): cast %q, strconv path %q", d, src.Value(i), math.Float64bits(src.Value(i)), o.Value(i), want)
			}
		}
		out.Release()
	}
}

// FuzzAuditSettleRows: any row, after a plain one, casts to every settled
// target in every dialect as the row parsers read it.
func FuzzAuditSettleRows(f *testing.F) {
	for _, s := range auditEdgeRows() {
		f.Add(s)
	}
	targets := auditTargets()
	f.Fuzz(func(t *testing.T, s string) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		rows := []string{"-12.5", s}
		b := array.NewStringBuilder(mem)
		b.AppendValues(rows, nil)
		in := b.NewArray()
		b.Release()
		defer in.Release()
		checkCastsMatchParsers(t, mem, in, rows, targets, nil)
	})
}
