package trycast

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// settleColumn is random rows close to the plain forms the settle loops
// decide (numbers of 1 to 25 digits, dates of every shape near
// YYYY-MM-DD) and the bytes around them that dialects trim or reject.
func settleColumn(r *rand.Rand, n int) [][]byte {
	const alphabet = "0123456789012345678901234567890123456789-.-.eExfd +\t\x00\x7f$a\xc2\xa0"
	rows := make([][]byte, n)
	for i := range rows {
		var s []byte
		switch i % 5 {
		case 0: // a plain number
			s = strconv.AppendInt(nil, r.Int64N(1<<62)>>r.IntN(62)-r.Int64N(2)*(1<<40), 10)
			if r.IntN(2) == 0 {
				k := r.IntN(len(s) + 1)
				s = append(s[:k], append([]byte{'.'}, s[k:]...)...)
			}
		case 1: // a date, sometimes impossible
			s = []byte(strconv.Itoa(1000+r.IntN(9000)) + "-" + strconv.Itoa(10+r.IntN(5)) + "-" + strconv.Itoa(10+r.IntN(25)))
			if r.IntN(3) == 0 {
				s = []byte("20" + strconv.Itoa(10+r.IntN(90)) + "-0" + strconv.Itoa(r.IntN(10)) + "-0" + strconv.Itoa(r.IntN(10)))
			}
		case 2: // long numbers
			s = []byte(strconv.FormatUint(r.Uint64(), 10) + "." + strconv.FormatUint(r.Uint64()>>r.IntN(64), 10))
		}
		for range r.IntN(4) { // mutate a byte or add one
			c := alphabet[r.IntN(len(alphabet))]
			if len(s) > 0 && r.IntN(2) == 0 {
				s[r.IntN(len(s))] = c
			} else {
				k := r.IntN(len(s) + 1)
				s = append(s[:k], append([]byte{c}, s[k:]...)...)
			}
		}
		rows[i] = s
	}
	return rows
}

// TestSettledRowsMatchParsers holds every row of the float, decimal and
// date kernels, whose settle loops decide the plain forms, to the row
// parsers' answers, with nulls and at an offset.
func TestSettledRowsMatchParsers(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(21, 22))
	rows := settleColumn(r, 20000)
	rows = append(rows, []byte("-0"), []byte("0.000"), []byte("16777217"), []byte("16777216.5"), []byte("999999999999999"),
		[]byte("9999999999999999"), []byte("0.1"), []byte("123456789012345678"), []byte("99999999999999999.99"),
		[]byte("1."), []byte(".5"), []byte("-"), []byte("1e5"), []byte("1f"), []byte("0x10"), []byte("2024-02-29"),
		[]byte("2023-02-29"), []byte("0000-01-01"), []byte("2024-1-01"), []byte("2024-01-01T"), []byte(" 2024-01-01"))
	b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.String)
	for i, s := range rows {
		if i%11 == 3 {
			b.AppendNull()
		} else {
			b.Append(s)
		}
	}
	whole := b.NewArray()
	b.Release()
	defer whole.Release()
	for _, off := range []int{0, 3} {
		in := array.NewSlice(whole, int64(off), int64(whole.Len()))
		for _, d := range []Dialect{Presto, Spark, SparkANSI} {
			for _, to := range []arrow.DataType{arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
				&arrow.Decimal128Type{Precision: 18, Scale: 2}, &arrow.Decimal128Type{Precision: 10, Scale: 0},
				&arrow.Decimal128Type{Precision: 18, Scale: 18}, &arrow.Decimal128Type{Precision: 38, Scale: 10},
				&arrow.Decimal128Type{Precision: 38, Scale: 0}, &arrow.Decimal128Type{Precision: 25, Scale: 5},
				arrow.FixedWidthTypes.Date32} {
				out, err := Cast(mem, in, to, Options{Dialect: d})
				if err != nil {
					t.Fatal(err)
				}
				if err := array.ValidateFull(out); err != nil {
					t.Fatal(err)
				}
				for i := range in.Len() {
					row := i + off
					s := rows[row]
					if in.IsNull(i) {
						if out.IsValid(i) {
							t.Fatalf("%s %v row %d: null input is valid", to, d, row)
						}
						continue
					}
					var ok, same bool
					switch o := out.(type) {
					case *array.Float32:
						v, good := ParseFloat(s, 32, d)
						ok, same = good, math.Float32bits(float32(v)) == math.Float32bits(o.Value(i))
					case *array.Float64:
						v, good := ParseFloat(s, 64, d)
						ok, same = good, math.Float64bits(v) == math.Float64bits(o.Value(i)) || (math.IsNaN(v) && math.IsNaN(o.Value(i)))
					case *array.Decimal128:
						dt := to.(*arrow.Decimal128Type)
						v, good := ParseDecimal(s, dt.Precision, dt.Scale, d)
						ok, same = good, v == o.Value(i)
					case *array.Date32:
						v, good := ParseDate(s, d)
						ok, same = good, v == int32(o.Value(i))
					}
					if out.IsValid(i) != ok || (ok && !same) {
						t.Fatalf("%s %v row %d (%q): kernel valid %v, parser %v, same value %v", to, d, row, s, out.IsValid(i), ok, same)
					}
					if !ok && !zeroAt(out, i) {
						t.Fatalf("%s %v row %d (%q): failed row holds a value", to, d, row, s)
					}
				}
				out.Release()
			}
		}
		in.Release()
	}
}

func zeroAt(a arrow.Array, i int) bool {
	switch a := a.(type) {
	case *array.Float32:
		return math.Float32bits(a.Value(i)) == 0
	case *array.Float64:
		return math.Float64bits(a.Value(i)) == 0
	case *array.Decimal128:
		return a.Value(i) == decimal128.Num{}
	case *array.Date32:
		return a.Value(i) == 0
	}
	return false
}

// TestNegativeIntRowsAtRangeEdges: '-' and up to 7 digits are settled in
// the kernel's loop; the most negative value of each width is valid and
// one below it fails, as ParseInt says.
func TestNegativeIntRowsAtRangeEdges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := []string{"-128", "-129", "-127", "-32768", "-32769", "-0", "-1", "-9999999", "-0000128", "-00129", "-", "--1", "-1-", "-12345$"}
	// Eight bytes of padding first, so that every row has 8 bytes before its end.
	in := stringsArray(t, mem, append([]string{"padding!"}, rows...))
	defer in.Release()
	for _, to := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32} {
		for _, d := range []Dialect{Presto, Spark, SparkANSI} {
			out, err := Cast(mem, in, to, Options{Dialect: d})
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range rows {
				want, ok := ParseInt([]byte(s), intWidth(to), d)
				if out.IsValid(i+1) != ok || (ok && intAt(out, i+1) != want) {
					t.Errorf("%s %v %q: got %d (valid %v), want %d, %v", to, d, s, intAt(out, i+1), out.IsValid(i+1), want, ok)
				}
			}
			out.Release()
		}
	}
	if v, ok := ParseInt([]byte("-129"), 8, Presto); ok {
		t.Fatalf("ParseInt(-129, 8) = %d, ok", v)
	}
}

func stringsArray(t *testing.T, mem memory.Allocator, rows []string) arrow.Array {
	t.Helper()
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.AppendValues(rows, nil)
	return b.NewArray()
}

// slicedWithNulls is rows as a string array in which every seventh row
// (those with i%7 == off%7) is null instead, sliced from off on; null(i)
// tells whether row i of the slice is one of them.
func slicedWithNulls(mem memory.Allocator, rows []string, off int) (sliced arrow.Array, null func(int) bool) {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	for i, s := range rows {
		if i%7 == off%7 {
			b.AppendNull()
		} else {
			b.Append(s)
		}
	}
	whole := b.NewArray()
	defer whole.Release()
	return array.NewSlice(whole, int64(off), int64(whole.Len())), func(i int) bool { return (i+off)%7 == off%7 }
}

// TestLongIntRowsMatchParseInt: rows of 9 to 17 bytes, which settleInts
// reads as two words, get ParseInt's answer in every width and dialect:
// numbers at every range edge, random digits with signs, and the bytes
// dialects trim or reject in every position.
func TestLongIntRowsMatchParseInt(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(41, 42))
	rows := []string{"padding to sixteen bytes"}
	for _, v := range []int64{math.MaxInt32, math.MinInt32, math.MaxInt32 + 1, math.MinInt32 - 1, 1e15, -1e15, 9_999_999_999_999_999, -9_999_999_999_999_999, 99_999_999, -99_999_999, 100_000_000, -100_000_000} {
		rows = append(rows, strconv.FormatInt(v, 10))
	}
	rows = append(rows, "-000000000", "0000000000000001", "-0000000000000001", "12345678.9", "-1234567.89", " 123456789", "123456789 ", "+123456789", "12345$789", "1234567890123$56", "--12345678")
	const alphabet = "01234567890123456789-+. $a\t"
	for range 4000 {
		k := 9 + r.IntN(9)
		b := make([]byte, k)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		if r.IntN(2) == 0 {
			b[0] = '-'
		}
		if r.IntN(3) == 0 {
			b[r.IntN(k)] = alphabet[r.IntN(len(alphabet))]
		}
		rows = append(rows, string(b))
	}
	in := stringsArray(t, mem, rows)
	defer in.Release()
	for _, to := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64} {
		for _, d := range []Dialect{Presto, Spark, SparkANSI} {
			out, err := Cast(mem, in, to, Options{Dialect: d})
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range rows {
				want, ok := ParseInt([]byte(s), intWidth(to), d)
				if out.IsValid(i) != ok || (ok && intAt(out, i) != want) || (!ok && intAt(out, i) != 0) {
					t.Fatalf("%s %v row %d %q: got %d (valid %v), want %d, %v", to, d, i, s, intAt(out, i), out.IsValid(i), want, ok)
				}
			}
			out.Release()
		}
	}
}
