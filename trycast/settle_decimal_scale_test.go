package trycast

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestScaledDecimalRowsMatchParseDecimal: rows of 1 to 20 bytes written
// with the column's scale or one digit off it, around the word boundaries
// (7, 8, 9, 15, 16, 17 bytes), with signs, leading zeros, as many integer
// digits as the precision allows and one more, and a stray byte, cast as
// ParseDecimal reads them.
func TestScaledDecimalRowsMatchParseDecimal(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(61, 62))
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return b.String()
	}
	types := []*arrow.Decimal128Type{{Precision: 18, Scale: 2}, {Precision: 10, Scale: 2}, {Precision: 18, Scale: 5},
		{Precision: 16, Scale: 14}, {Precision: 15, Scale: 1}, {Precision: 18, Scale: 15}, {Precision: 4, Scale: 3}}
	for _, dt := range types {
		sc, whole := int(dt.Scale), int(dt.Precision-dt.Scale)
		rows := []string{strings.Repeat("9", whole) + "." + strings.Repeat("9", sc), "-" + strings.Repeat("9", whole) + "." + strings.Repeat("9", sc),
			strings.Repeat("9", whole+1) + "." + strings.Repeat("9", sc), "0" + strings.Repeat("9", whole) + "." + strings.Repeat("9", sc),
			"-0." + strings.Repeat("0", sc), "." + strings.Repeat("5", sc), "-." + strings.Repeat("5", sc), "+1." + strings.Repeat("5", sc)}
		for range 20000 {
			w := r.IntN(whole + 3)
			f := sc
			if r.IntN(4) == 0 {
				f += r.IntN(3) - 1
			}
			s := digits(w) + "." + digits(max(f, 0))
			if r.IntN(2) == 0 {
				s = "-" + s
			}
			if r.IntN(5) == 0 {
				s = strings.Repeat("0", r.IntN(4)) + s
			}
			if r.IntN(8) == 0 && len(s) > 0 {
				b := []byte(s)
				b[r.IntN(len(b))] = "x.-+ /:"[r.IntN(7)]
				s = string(b)
			}
			rows = append(rows, s)
		}
		for k := 1; k <= 20; k++ { // every length, the point at the scale's place
			for range 50 {
				s := digits(k)
				if k > sc {
					s = s[:k-sc-1] + "." + s[k-sc:]
				}
				if r.IntN(2) == 0 {
					s = "-" + s[1:]
				}
				rows = append(rows, s)
			}
		}
		b := array.NewStringBuilder(mem)
		b.Append("padding so rows end 16 bytes in")
		b.AppendValues(rows, nil)
		in := b.NewArray()
		b.Release()
		for _, d := range []Dialect{Presto, Spark, SparkANSI} {
			out, err := Cast(mem, in, dt, Options{Dialect: d})
			if err != nil {
				t.Fatal(err)
			}
			got := out.(*array.Decimal128)
			for i, s := range rows {
				want, ok := ParseDecimal([]byte(s), dt.Precision, dt.Scale, d)
				if got.IsValid(i+1) != ok || ok && got.Value(i+1) != want {
					t.Fatalf("%s %v %q: cast %v %v, ParseDecimal %v %v", dt, d, s, got.IsValid(i+1), got.Value(i+1), ok, want)
				}
			}
			out.Release()
		}
		in.Release()
	}
}

// FuzzScaledDecimalRows: any row, after 16 bytes, casts to decimal(18, s)
// as ParseDecimal reads it.
func FuzzScaledDecimalRows(f *testing.F) {
	for _, s := range []string{"-12345678.90", "1.5", "123.45", "-0.00", "9999999999999999.99", "12$45.67", "1.2.34"} {
		f.Add([]byte(s), uint8(2))
	}
	f.Fuzz(func(t *testing.T, s []byte, scale uint8) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		dt := &arrow.Decimal128Type{Precision: 18, Scale: int32(scale % 19)}
		b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.String)
		b.Append([]byte("sixteen bytes ..."))
		b.Append(s)
		in := b.NewArray()
		b.Release()
		defer in.Release()
		out, err := Cast(mem, in, dt, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer out.Release()
		got := out.(*array.Decimal128)
		want, ok := ParseDecimal(s, dt.Precision, dt.Scale, Presto)
		if got.IsValid(1) != ok || ok && got.Value(1) != want {
			t.Fatalf("%s %q: cast %v %v, ParseDecimal %v %v", dt, s, got.IsValid(1), got.Value(1), ok, want)
		}
	})
}
