package trycast

import (
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// numberTargets are the targets whose settle loops read a row as a
// 16-byte window (settleFloats, settleDecimals): float, double, and
// decimals of precision 18 and below at the edges of precision and scale
// (no integer digits, no fraction digits, a scale that puts the point in
// the window's first word), and one wide decimal beside them.
func numberTargets() []arrow.DataType {
	targets := []arrow.DataType{arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64}
	for _, ps := range [][2]int32{{18, 2}, {18, 0}, {18, 18}, {17, 1}, {10, 2}, {5, 5}, {1, 0}, {18, 14}, {18, 15}, {12, 7}, {9, 8}, {38, 10}} {
		targets = append(targets, &arrow.Decimal128Type{Precision: ps[0], Scale: ps[1]})
	}
	return targets
}

// digitRun is n digits that are not all alike (1..9, 0, 1..), all 9s or
// 1 and zeros, by kind.
func digitRun(n, kind int) string {
	var b strings.Builder
	for i := range n {
		switch kind {
		case 0:
			b.WriteByte(byte('0' + (i+1)%10))
		case 1:
			b.WriteByte('9')
		default:
			if i == 0 {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
	}
	return b.String()
}

// numberEdgeRows are the rows around what the window reads decide: digits
// of every length from 1 to 40 with the point at every place (so every
// count of integer and fraction digits, each side of the precision and
// the scale, and the extra fraction digits that round per dialect), bare
// and with signs, leading zeros, the bytes each dialect trims (space,
// tab, NUL, DEL, no-break space), exponents, Java's type suffixes, hex,
// a second point; the shorter ones with a stray byte at each place; and
// the texts of NaN and Infinity.
func numberEdgeRows() []string {
	var rows []string
	forms := []string{"%", "-%", "+%", "-0%", "00%", " %", "% ", "\t%\n", "\x00%", "%\x00", "\x7f%", "%\x7f", "\u00a0%",
		"--%", "+-%", "%e5", "%E-2", "%e", "%f", "%D", "%fx", "0x%", "%x", "-%$", "%.5", "%-", "%+"}
	strays := []string{"$", "x", "X", "e", "E", "f", "d", "p", "/", ":", " ", "\xff", ".", "-", "+", ",", "_", "a", "I", "N"}
	for n := 1; n <= 40; n++ {
		for kind := range 3 {
			d := digitRun(n, kind)
			for at := 0; at <= n; at++ {
				s := d
				if at < n {
					s = d[:at] + "." + d[at:]
				}
				if kind == 0 || at == n || at == n-2 || n <= 17 {
					for _, f := range forms {
						rows = append(rows, strings.ReplaceAll(f, "%", s))
					}
				} else {
					rows = append(rows, s, "-"+s)
				}
				if kind == 0 && n <= 15 && at%3 == n%3 {
					for i := 0; i <= len(s); i++ {
						for _, c := range strays {
							rows = append(rows, s[:i]+c+s[i:], "-"+s[:i]+c+s[i:])
						}
					}
				}
			}
		}
	}
	return append(rows, "", "-", "+", ".", "-.", "+.", " ", ".5", "-.5", "5.", "-5.", "0.x", "00x1", "-0x1", "0x1p3", "0x1.8p1",
		"1.x", "12.x", "1.5f", "1.5fx", "1.5d ", "NaN", "-NaN", "Infinity", "-Infinity", "+Infinity", "inf", "-inf", "nan",
		"1e308", "1e309", "4.9e-324", "-0", "-0.0", "0.000", "-0.00", "16777216", "16777217", "999999999999999", "1000000000000000",
		"1.2.34", "12.34.", "..5", "1..5", "٣", "1\u00a0", "12345678.90", "-12345678.90", "9999999999999.99", "-9999999999999.99")
}

// TestSettleNumberEdges holds every edge row cast to the window-read
// targets to the row parsers in every dialect: in one column (after a
// long row, so that rows are read from their windows), utf8 and
// large_utf8; sliced at offsets 1, 5 and 9 with nulls; and the rows of at
// most 17 bytes each alone in an exactly sized data buffer after 0 to 16
// bytes of another row, so that a row's window ends at the buffer's last
// byte and starts before its first.
func TestSettleNumberEdges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := append([]string{"a row longer than sixteen bytes"}, numberEdgeRows()...)
	targets := numberTargets()
	in := stringsArray(t, mem, rows)
	checkCastsMatchParsers(t, mem, in, rows, targets, nil)
	in.Release()
	large := array.NewLargeStringBuilder(mem) // 64-bit offsets
	large.AppendValues(rows, nil)
	in = large.NewArray()
	large.Release()
	checkCastsMatchParsers(t, mem, in, rows, targets, nil)
	in.Release()
	for off := 1; off <= 9; off += 4 {
		sliced, null := slicedWithNulls(mem, rows, off)
		checkCastsMatchParsers(t, mem, sliced, rows[off:], targets, null)
		sliced.Release()
	}
	short := []arrow.DataType{arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, targets[2], targets[3], targets[5], targets[9]}
	for i, s := range rows {
		if len(s) > 17 || i%3 != 0 && strings.ContainsAny(s, "\x00\x7f\u00a0$:/_,aINp") {
			continue
		}
		for _, lead := range []int{0, 1, 8, 15, 16} {
			before := strings.Repeat("9.", lead)[:lead]
			in := exactStrings(mem, []string{before, s})
			checkCastsMatchParsers(t, mem, in, []string{before, s}, short, nil)
			in.Release()
		}
	}
}

// TestSettleNumberPointGuess: the loops first look for a row's point
// where the row before had it. Every ordered pair of these rows follows
// each other in one column, so the guess is right, wrong, outside the
// row (a short row after a long one, with the long row's point in its
// window), or on the second of two points.
func TestSettleNumberPointGuess(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	set := []string{"1234.5678", "-1234.5678", "12.34", "-12.34", "5", "-5", "1.2.34", "12.3.4", "1.5", "123456789012.34",
		".5", "5.", "-.5", "12345", "0.000001", "1234567890123.5", "12.3x", "1x.34", "-", ".", "12.345", "9999999999999.99"}
	rows := []string{"a row longer than sixteen bytes"}
	for _, a := range set {
		for _, b := range set {
			rows = append(rows, a, b)
		}
	}
	in := stringsArray(t, mem, rows)
	defer in.Release()
	checkCastsMatchParsers(t, mem, in, rows, numberTargets(), nil)
}

// TestSettleNumberGroups: the float and decimal kernels' groups of 64 rows
// (one validity word) keep every row's answer when a group is all empty
// strings, all null, or has nulls and rows left to the parsers at its
// first and last bits, for slices starting anywhere in a group and ending
// mid-group.
func TestSettleNumberGroups(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const n = 64*5 + 13
	rows := make([]string, n)
	null := func(i int) bool { return i%11 == 5 || i >= 192 && i < 256 }
	for i := range rows {
		switch {
		case i >= 64 && i < 128:
			rows[i] = ""
		case i%64 == 0 || i%64 == 63 || i%9 == 0:
			rows[i] = " " + strconv.Itoa(i) + ".5" // left to the parsers
		case i%13 == 0:
			rows[i] = "-5.x"
		default:
			rows[i] = strconv.FormatFloat(float64(i*37-5000)/100, 'f', 2, 64)
		}
	}
	b := array.NewStringBuilder(mem)
	for i, s := range rows {
		if null(i) {
			b.AppendNull()
		} else {
			b.Append(s)
		}
	}
	whole := b.NewArray()
	b.Release()
	defer whole.Release()
	targets := []arrow.DataType{arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, &arrow.Decimal128Type{Precision: 18, Scale: 2}}
	for _, off := range []int{0, 1, 63, 64, 65, 129} {
		for _, end := range []int{n, n - 13, off + 64, off + 70} {
			sliced := array.NewSlice(whole, int64(off), int64(end))
			checkCastsMatchParsers(t, mem, sliced, rows[off:end], targets, func(i int) bool { return null(off + i) })
			sliced.Release()
		}
	}
}

// FuzzSettleNumberRows: any row, alone in an exact buffer, after a long
// row, and after any other row (whose point the loops look at first)
// with one more after it, casts to every window-read target in every
// dialect as the row parsers read it.
func FuzzSettleNumberRows(f *testing.F) {
	edges := numberEdgeRows()
	for i, s := range edges {
		if i%97 == 0 { // a sample: TestSettleNumberEdges runs them all
			f.Add(edges[(i*7)%len(edges)], s)
		}
	}
	targets := numberTargets()
	f.Fuzz(func(t *testing.T, prev, s string) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		for _, rows := range [][]string{{s}, {"a row longer than sixteen bytes", s}, {prev, s, "7.25"}} {
			in := exactStrings(mem, rows)
			checkCastsMatchParsers(t, mem, in, rows, targets, nil)
			in.Release()
		}
	})
}
