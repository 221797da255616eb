package trycast

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestDateRowsMatchParseDate: every month 0..13 and day 0..32 of years
// around the leap rules and the ends of 0000..9999, written YYYY-MM-DD,
// casts as ParseDate reads it in every dialect (the settle loop decides
// them all), with shapes one byte away.
func TestDateRowsMatchParseDate(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var rows []string
	for _, y := range []int{0, 1, 3, 4, 99, 100, 399, 400, 1600, 1899, 1900, 1969, 1970, 2000, 2023, 2024, 2100, 9999} {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				rows = append(rows, fmt.Sprintf("%04d-%02d-%02d", y, m, d))
			}
		}
	}
	rows = append(rows, "2024/01/01", "2024-1a-01", "2024-01-0a", "a024-01-01", "2024-01-01 ", "+024-01-01", "-024-01-01",
		"2024-01--1", "20240-1-01", "2024-0:-01", "2024-0/-01", "2024-01-01x", "2024\xb0-1-01", "0000-00-00", "")
	b := array.NewStringBuilder(mem)
	b.AppendValues(rows, nil)
	in := b.NewArray()
	b.Release()
	defer in.Release()
	for _, d := range []Dialect{Presto, Spark, SparkANSI} {
		out, err := Cast(mem, in, arrow.FixedWidthTypes.Date32, Options{Dialect: d})
		if err != nil {
			t.Fatal(err)
		}
		got := out.(*array.Date32)
		for i, s := range rows {
			want, ok := ParseDate([]byte(s), d)
			if got.IsValid(i) != ok || ok && int32(got.Value(i)) != want || !ok && got.Value(i) != 0 {
				t.Fatalf("%v %q: cast %v %d, ParseDate %v %d", d, s, got.IsValid(i), got.Value(i), ok, want)
			}
		}
		out.Release()
	}
}

// TestCivilDaysMatchesDaysFromCivil: for every year 0..9999, month 0..15
// and day 0..40, dateOK is validDate and civilDays is daysFromCivil.
func TestCivilDaysMatchesDaysFromCivil(t *testing.T) {
	for y := uint64(0); y <= 9999; y++ {
		for m := uint64(0); m <= 15; m++ {
			for d := uint64(0); d <= 40; d++ {
				ok := dateOK(y, m, d)
				if ok != validDate(int64(y), int(m), int(d)) {
					t.Fatalf("%04d-%02d-%02d: dateOK %v", y, m, d, ok)
				}
				if ok && int64(civilDays(y, m, d)) != daysFromCivil(int64(y), int(m), int(d)) {
					t.Fatalf("%04d-%02d-%02d: civilDays %d, daysFromCivil %d", y, m, d, civilDays(y, m, d), daysFromCivil(int64(y), int(m), int(d)))
				}
			}
		}
	}
}

// FuzzSettleDates: any row casts to date as ParseDate reads it.
func FuzzSettleDates(f *testing.F) {
	for _, s := range []string{"2024-02-29", "2023-02-29", "0000-01-01", "9999-12-31", "2024-13-01", "2024-1a-01", "2024/01/01", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.String)
		b.Append([]byte("1970-01-01 padding"))
		b.Append(s)
		in := b.NewArray()
		b.Release()
		defer in.Release()
		for _, d := range []Dialect{Presto, Spark, SparkANSI} {
			out, err := Cast(mem, in, arrow.FixedWidthTypes.Date32, Options{Dialect: d})
			if err != nil {
				t.Fatal(err)
			}
			got := out.(*array.Date32)
			want, ok := ParseDate(s, d)
			if got.IsValid(1) != ok || ok && int32(got.Value(1)) != want {
				t.Fatalf("%v %q: cast %v %d, ParseDate %v %d", d, s, got.IsValid(1), got.Value(1), ok, want)
			}
			out.Release()
		}
	})
}
