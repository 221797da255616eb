package trycast

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestDigitWordEmpty: no digits read as 0, whatever the word holds.
func TestDigitWordEmpty(t *testing.T) {
	for _, w := range []uint64{0, math.MaxUint64, 0x2d2d2d2d2d2d2d2d, 0x3132333435363738} {
		if v, ok := digitWord(w, 0); v != 0 || !ok {
			t.Fatalf("digitWord(%x, 0) = %d, %v; want 0, true", w, v, ok)
		}
	}
}

// intEdgeRows are the rows around what settleInts decides: each width's
// range ends and one past them, lengths 1 to 17 bytes (the one- and
// two-word reads and past them), each bare and with signs, leading zeros,
// spaces, tabs, NUL, DEL and no-break spaces at either end, a point, and
// a stray byte at each place.
func intEdgeRows() []string {
	base := []string{"0", "1", "7", "12", "127", "128", "255", "256", "32767", "32768", "65535", "1234567", "9999999",
		"12345678", "99999999", "100000000", "123456789", "2147483647", "2147483648", "4294967296", "999999999999",
		"1234567890123456", "9999999999999999", "10000000000000000", "9223372036854775807", "9223372036854775808",
		"18446744073709551616", "00000000", "000000000", "0000000000000000", "00000000000000000", "0000000000000000000001"}
	var rows []string
	for _, b := range base {
		for _, f := range []string{"%", "-%", "+%", "-0%", "+00%", "00000000%", " %", "% ", " -% ", "\t%\n", "\x00%", "%\x00",
			"\x7f%", "%\x7f", "\u00a0%", "%\u00a0", "--%", "+-%", "-+%", "%.", "%.5", "%.x", "-%.00", "%-", "%+"} {
			rows = append(rows, strings.ReplaceAll(f, "%", b))
		}
		for i := 0; i <= len(b); i++ {
			for _, c := range []string{"$", ",", "/", ":", "a", "~", " ", "\xff", "-", "."} {
				rows = append(rows, b[:i]+c+b[i:], "-"+b[:i]+c+b[i:])
			}
		}
	}
	return append(rows, "", "-", "+", " ", ".", "-.", "+.", "$", "--", "-0", "+0", "٣")
}

// TestSettleIntEdges holds every edge row cast to each integer width to
// ParseInt in every dialect: in one column (after a long row, so that
// rows are read from their words), sliced at offsets 1 to 9 with nulls,
// and each row alone in an exactly sized data buffer, after 0 to 16 bytes
// of other rows, so that a row's words end at the buffer's last byte and
// start before its first.
func TestSettleIntEdges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := append([]string{"a row longer than sixteen bytes"}, intEdgeRows()...)
	in := stringsArray(t, mem, rows)
	defer in.Release()
	checkIntCasts(t, mem, in, rows, nil)
	for off := 1; off <= 9; off++ {
		sliced, null := slicedWithNulls(mem, rows, off)
		checkIntCasts(t, mem, sliced, rows[off:], null)
		sliced.Release()
	}
	for _, s := range rows {
		for lead := 0; lead <= 16; lead += 1 + lead/4 {
			before := strings.Repeat("9", lead)
			in := exactStrings(mem, []string{before, s})
			checkIntCasts(t, mem, in, []string{before, s}, nil)
			in.Release()
		}
	}
}

// exactStrings is a utf8 array of rows whose data buffer holds exactly
// their bytes, so a read past the last row's end would be out of bounds.
func exactStrings(mem memory.Allocator, rows []string) arrow.Array {
	offs := make([]int32, len(rows)+1)
	var data []byte
	for i, s := range rows {
		data = append(data, s...)
		offs[i+1] = int32(len(data))
	}
	d := array.NewData(arrow.BinaryTypes.String, len(rows), []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs)), memory.NewBufferBytes(data[:len(data):len(data)])}, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// checkIntCasts casts in (row i holds rows[i], or is null when null(i))
// to each integer width in each dialect and holds each row to ParseInt,
// a failed or null row to 0 and NULL.
func checkIntCasts(t *testing.T, mem memory.Allocator, in arrow.Array, rows []string, null func(int) bool) {
	t.Helper()
	for _, to := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64} {
		for _, d := range []Dialect{Presto, Spark, SparkANSI} {
			out, err := Cast(mem, in, to, Options{Dialect: d})
			if err != nil {
				t.Fatal(err)
			}
			if err := array.ValidateFull(out); err != nil {
				t.Fatal(err)
			}
			for i, s := range rows {
				want, ok := ParseInt([]byte(s), intWidth(to), d)
				if null != nil && null(i) {
					want, ok = 0, false
				}
				if out.IsValid(i) != ok || intAt(out, i) != want {
					t.Fatalf("%s %v row %d %q: got %d (valid %v), want %d, %v", to, d, i, s, intAt(out, i), out.IsValid(i), want, ok)
				}
			}
			out.Release()
		}
	}
}

// TestSettleIntRangeEdges: every width's range ends, and the values next
// to them, in every form of sign and leading zeros that fits 16 bytes.
func TestSettleIntRangeEdges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := []string{"a row longer than sixteen bytes"}
	for _, lim := range []int64{math.MaxInt8, math.MaxInt16, math.MaxInt32, 99_999_999, 9_999_999_999_999_999} {
		for _, v := range []int64{lim - 1, lim, lim + 1, lim + 2} {
			for _, z := range []string{"", "0", "00000", "0000000"} {
				s := strconv.FormatInt(v, 10)
				rows = append(rows, z+s, "-"+z+s, "+"+z+s)
			}
		}
	}
	in := stringsArray(t, mem, rows)
	defer in.Release()
	checkIntCasts(t, mem, in, rows, nil)
}

// TestSettleIntGroups: the int kernel's groups of 64 rows (one validity
// word) keep every row's answer when a group is all empty strings, all
// null, or has nulls and rows left to ParseInt at its first and last
// bits, for slices starting anywhere in a group and ending mid-group.
func TestSettleIntGroups(t *testing.T) {
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
			rows[i] = " " + strconv.Itoa(i) // left to ParseInt
		case i%13 == 0:
			rows[i] = "-5"
		default:
			rows[i] = strconv.Itoa(i*37 - 5000)
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
	for _, off := range []int{0, 1, 7, 8, 63, 64, 65, 100, 129} {
		for _, end := range []int{n, n - 13, off + 64, off + 70} {
			sliced := array.NewSlice(whole, int64(off), int64(end))
			checkIntCasts(t, mem, sliced, rows[off:end], func(i int) bool { return null(off + i) })
			sliced.Release()
		}
	}
}

// FuzzSettleIntRows: any row, alone in an exact buffer and after a long
// row, casts to every integer width in every dialect as ParseInt reads it.
func FuzzSettleIntRows(f *testing.F) {
	for i, s := range intEdgeRows() {
		if i%16 == 0 { // a sample: TestSettleIntEdges runs them all
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		for _, rows := range [][]string{{s}, {"a row longer than sixteen bytes", s}, {"-12", s, "7"}} {
			in := exactStrings(mem, rows)
			checkIntCasts(t, mem, in, rows, nil)
			in.Release()
		}
	})
}
