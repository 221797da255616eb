package trycast

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestCastStringToIntRows: the int kernel gives ParseInt's answer row by
// row on a mixed column (digits, signs, spaces, empty, invalid, out of
// range, nulls) of every offset width, sliced at every offset 0..17 so the
// validity bitmap is read at each bit alignment, with lengths that end
// mid-byte.
func TestCastStringToIntRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	words := []string{"12", "", "-7", "$", " 42 ", "300", "99999999999", "+0", "1.5", "\u00a09", "x", "-2147483648", "007",
		"12345678", "1234567x", "x2345678", "99999999", "00000000", "123456789", "1 ", "\x7f1", "٣", "127", "128", "32767", "32768", "-"}
	const n = 61
	b := array.NewStringBuilder(mem)
	for i := range n {
		if i%5 == 3 || i%11 == 0 {
			b.AppendNull()
			continue
		}
		b.Append(words[i%len(words)])
	}
	strs := b.NewStringArray()
	b.Release()
	defer strs.Release()
	large := castOK(t, mem, strs, arrow.BinaryTypes.LargeString)
	defer large.Release()
	for _, full := range []arrow.Array{strs, large} {
		for off := 0; off < 18; off++ {
			for _, to := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64} {
				for _, d := range []Dialect{Presto, Spark, SparkANSI} {
					in := array.NewSlice(full, int64(off), int64(n-off/2))
					out, err := Cast(mem, in, to, Options{Dialect: d})
					if err != nil {
						t.Fatal(err)
					}
					if err := array.ValidateFull(out); err != nil {
						t.Fatal(err)
					}
					nulls := 0
					for i := range in.Len() {
						var v int64
						ok := in.IsValid(i)
						if ok {
							v, ok = ParseInt([]byte(strs.Value(off+i)), intWidth(to), d)
						}
						if !ok {
							nulls++
							if out.IsValid(i) {
								t.Fatalf("%s %v off %d row %d: got a value, want NULL", to, d, off, i)
							}
							continue
						}
						if got := intAt(out, i); out.IsNull(i) || got != v {
							t.Fatalf("%s %v off %d row %d (%q): got %d (null %v), want %d", to, d, off, i, strs.Value(off+i), got, out.IsNull(i), v)
						}
					}
					if out.NullN() != nulls {
						t.Fatalf("%s %v off %d: NullN %d, want %d", to, d, off, out.NullN(), nulls)
					}
					out.Release()
					in.Release()
				}
			}
		}
	}
}

// TestCastStringToIntRandom: the int kernel gives ParseInt's answer on
// random rows of 0 to 10 bytes drawn mostly from digits, so that every
// length the kernel settles itself occurs with a non-digit at every place.
func TestCastStringToIntRandom(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(3, 4))
	const alphabet = "0123456789012345678901234567890123456789 -+.$a\x00\x7f\xc2\xa0"
	b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	var rows [][]byte
	for range 5000 {
		s := make([]byte, r.IntN(11))
		for i := range s {
			s[i] = alphabet[r.IntN(len(alphabet))]
		}
		rows = append(rows, s)
		b.Append(s)
	}
	in := b.NewArray()
	b.Release()
	defer in.Release()
	for _, to := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64} {
		for _, d := range []Dialect{Presto, Spark, SparkANSI} {
			out, err := Cast(mem, in, to, Options{Dialect: d})
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range rows {
				v, ok := ParseInt(s, intWidth(to), d)
				if out.IsValid(i) != ok || (ok && intAt(out, i) != v) {
					t.Fatalf("%s %v row %d (%q): got %d (valid %v), want %d, %v", to, d, i, s, intAt(out, i), out.IsValid(i), v, ok)
				}
			}
			out.Release()
		}
	}
}

func castOK(t *testing.T, mem memory.Allocator, in arrow.Array, to arrow.DataType) arrow.Array {
	t.Helper()
	out, err := Cast(mem, in, to, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func intAt(a arrow.Array, i int) int64 {
	switch a := a.(type) {
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	}
	panic("not an integer array")
}

// TestCastToString renders every numeric source, with a null row, the way
// the scalar Append functions do.
func TestCastToString(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dec := &arrow.Decimal128Type{Precision: 10, Scale: 2}
	ts := &arrow.TimestampType{Unit: arrow.Millisecond}
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	for _, d := range []Dialect{Presto, Spark} {
		for _, c := range []struct {
			dt   arrow.DataType
			js   string
			want func(i int, a arrow.Array) string
		}{
			{arrow.PrimitiveTypes.Int8, `[-128, null, 7]`, func(i int, a arrow.Array) string {
				return string(AppendInt(nil, int64(a.(*array.Int8).Value(i)), d))
			}},
			{arrow.PrimitiveTypes.Int64, `[-9223372036854775808, null, 42]`, func(i int, a arrow.Array) string {
				return strconv.FormatInt(a.(*array.Int64).Value(i), 10)
			}},
			{arrow.PrimitiveTypes.Float32, `[1.5, null, 1e20]`, func(i int, a arrow.Array) string {
				return string(AppendFloat(nil, float64(a.(*array.Float32).Value(i)), 32, d))
			}},
			{arrow.PrimitiveTypes.Float64, `[-0.1, null, 1e300]`, func(i int, a arrow.Array) string {
				return string(AppendFloat(nil, a.(*array.Float64).Value(i), 64, d))
			}},
			{arrow.FixedWidthTypes.Boolean, `[true, null, false]`, func(i int, a arrow.Array) string {
				return string(AppendBool(nil, a.(*array.Boolean).Value(i), d))
			}},
			{dec, `["-12.34", null, "99999999.99"]`, func(i int, a arrow.Array) string {
				return string(AppendDecimal(nil, a.(*array.Decimal128).Value(i), 2, d))
			}},
			{arrow.FixedWidthTypes.Date32, `["1969-12-31", null, "2024-02-29"]`, func(i int, a arrow.Array) string {
				return string(AppendDate(nil, int32(a.(*array.Date32).Value(i)), d))
			}},
			{ts, `["1969-12-31T23:59:59.999", null, "2024-02-29T12:00:00"]`, func(i int, a arrow.Array) string {
				return string(AppendTimestamp(nil, int64(a.(*array.Timestamp).Value(i))*1000, loc, d))
			}},
		} {
			in := fromJSON(t, mem, c.dt, c.js)
			for _, to := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString} {
				out, err := Cast(mem, in, to, Options{Dialect: d, TimeZone: loc})
				if err != nil {
					t.Fatalf("%s -> %s: %v", c.dt, to, err)
				}
				if err := array.ValidateFull(out); err != nil {
					t.Errorf("%s -> %s: %v", c.dt, to, err)
				}
				if out.NullN() != 1 || out.IsValid(1) {
					t.Errorf("%s -> %s: nulls %d", c.dt, to, out.NullN())
				}
				for _, i := range []int{0, 2} {
					if got, want := out.ValueStr(i), c.want(i, in); got != want || got == "" {
						t.Errorf("%s %s -> %s row %d: got %q, want %q", d, c.dt, to, i, got, want)
					}
				}
				out.Release()
			}
			in.Release()
		}
	}
}

func TestCastIntToStringLiteral(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	in := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[0, -12, 2147483647, null]`)
	defer in.Release()
	out, err := Cast(mem, in, arrow.BinaryTypes.String, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	want := fromJSON(t, mem, arrow.BinaryTypes.String, `["0", "-12", "2147483647", null]`)
	defer want.Release()
	if !array.Equal(out, want) {
		t.Errorf("got %v, want %v", out, want)
	}
}

// TestCastStringToString: binary -> utf8 nulls invalid UTF-8; widths change.
func TestCastStringToString(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	b.AppendValues([][]byte{[]byte("ok"), {0xff, 0xfe}, nil, []byte("é")}, []bool{true, true, false, true})
	full := b.NewArray()
	b.Release()
	defer full.Release()
	in := array.NewSlice(full, 1, 4)
	defer in.Release()
	for _, to := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString} {
		out, f, err := CastWithFailures(mem, in, to, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := fromJSON(t, mem, to, `[null, null, "é"]`)
		if !array.Equal(out, want) || f.Count != 1 || f.First != 0 {
			t.Errorf("%s: got %v (%d failures from %d), want %v", to, out, f.Count, f.First, want)
		}
		if err := array.ValidateFull(out); err != nil {
			t.Error(err)
		}
		want.Release()
		out.Release()
	}
	out, err := Cast(mem, in, arrow.BinaryTypes.LargeBinary, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if lb := out.(*array.LargeBinary); lb.NullN() != 1 || string(lb.Value(0)) != "\xff\xfe" || lb.ValueString(2) != "é" {
		t.Errorf("large_binary: got %v", out)
	}
}

// TestCastNumericPairs covers the array loops of the numeric sources.
func TestCastNumericPairs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dec52 := &arrow.Decimal128Type{Precision: 5, Scale: 2}
	dec3810 := &arrow.Decimal128Type{Precision: 38, Scale: 10}
	dec190 := &arrow.Decimal128Type{Precision: 19, Scale: 0}
	for _, c := range []struct {
		from, to arrow.DataType
		d        Dialect
		in, want string
	}{
		{arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int8, Presto, `[1, 300, null, -128]`, `[1, null, null, -128]`},
		{arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int8, Spark, `[1, 300, null, -128]`, `[1, 44, null, -128]`},
		{arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Float64, Presto, `[1, null, -3]`, `[1, null, -3]`},
		{arrow.PrimitiveTypes.Int64, arrow.FixedWidthTypes.Boolean, Presto, `[0, 5, null]`, `[false, true, null]`},
		{arrow.PrimitiveTypes.Int8, &arrow.Decimal128Type{Precision: 3, Scale: 2}, Presto, `[1, 100, null]`, `["1.00", null, null]`},
		{arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Int32, Presto, `[2.5, null, 1e20]`, `[3, null, null]`},
		{arrow.PrimitiveTypes.Float64, arrow.PrimitiveTypes.Float32, Presto, `[1.5, 1e300, null]`, `[1.5, null, null]`},
		{arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, Presto, `[1.5, null]`, `[1.5, null]`},
		{arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Boolean, Spark, `[0, -0.5, null]`, `[false, true, null]`},
		{arrow.PrimitiveTypes.Float64, dec52, Spark, `[1.005, 1000, null]`, `["1.01", null, null]`},
		{arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int16, Presto, `[true, false, null]`, `[1, 0, null]`},
		{arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Float32, Presto, `[true, null]`, `[1, null]`},
		{arrow.FixedWidthTypes.Boolean, dec52, Presto, `[true, null]`, `["1.00", null]`},
		{dec52, arrow.PrimitiveTypes.Int32, Presto, `["2.56", "-2.60", null]`, `[3, -3, null]`},
		{dec52, arrow.PrimitiveTypes.Int32, Spark, `["2.56", "-2.60", null]`, `[2, -2, null]`},
		{dec52, arrow.PrimitiveTypes.Float64, Presto, `["2.5", null]`, `[2.5, null]`},
		{dec52, &arrow.Decimal128Type{Precision: 3, Scale: 1}, Presto, `["2.56", "999.99", null]`, `["2.6", null, null]`},
		{dec52, arrow.FixedWidthTypes.Boolean, Presto, `["0", "0.01", null]`, `[false, true, null]`},
		// Spark legacy prints BigDecimal.toString; ANSI and Presto print plain digits.
		{dec3810, arrow.BinaryTypes.String, Spark, `["0.0000000100", "0", "-0.0000001", "0.000001", null]`, `["1.00E-8", "0E-10", "-1.000E-7", "0.0000010000", null]`},
		{dec3810, arrow.BinaryTypes.LargeString, SparkANSI, `["0.0000000100", "0", null]`, `["0.0000000100", "0.0000000000", null]`},
		{dec3810, arrow.BinaryTypes.String, Presto, `["0.0000000100", "0", null]`, `["0.0000000100", "0.0000000000", null]`},
		// decimal -> real rounds once: through float64 it would be 1152921504606846976.
		{dec190, arrow.PrimitiveTypes.Float32, Presto, `["1152921573326323713", "-1152921573326323713", null]`, `[1152921642045800448, -1152921642045800448, null]`},
	} {
		in := fromJSON(t, mem, c.from, c.in)
		want := fromJSON(t, mem, c.to, c.want)
		sliced := array.NewSlice(in, 0, int64(in.Len()))
		out, err := Cast(mem, sliced, c.to, Options{Dialect: c.d})
		if err != nil {
			t.Fatalf("%s -> %s: %v", c.from, c.to, err)
		}
		if !array.Equal(out, want) || out.NullN() != want.NullN() {
			t.Errorf("%s %s -> %s: got %v, want %v", c.d, c.from, c.to, out, want)
		}
		if err := array.ValidateFull(out); err != nil {
			t.Error(err)
		}
		for _, a := range []arrow.Array{in, want, sliced, out} {
			a.Release()
		}
	}
}

// TestCastTimestampUnits parses into every unit and relabels zones.
func TestCastTimestampUnits(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	in := fromJSON(t, mem, arrow.BinaryTypes.String, `["1970-01-01 00:00:01.5", null, "junk"]`)
	defer in.Release()
	for unit, want := range map[arrow.TimeUnit]int64{arrow.Second: 1, arrow.Millisecond: 1500, arrow.Microsecond: 1_500_000, arrow.Nanosecond: 1_500_000_000} {
		to := &arrow.TimestampType{Unit: unit, TimeZone: "UTC"}
		out, err := Cast(mem, in, to, Options{Dialect: Spark})
		if err != nil {
			t.Fatal(err)
		}
		ts := out.(*array.Timestamp)
		if ts.NullN() != 2 || int64(ts.Value(0)) != want {
			t.Errorf("%s: got %v, want %d", unit, out, want)
		}
		relabel, err := Cast(mem, out, &arrow.TimestampType{Unit: unit, TimeZone: "Asia/Tokyo"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r := relabel.(*array.Timestamp); r.Value(0) != ts.Value(0) || r.NullN() != 2 {
			t.Errorf("%s relabel: got %v", unit, relabel)
		}
		relabel.Release()
		out.Release()
	}
	if CanCast(&arrow.TimestampType{Unit: arrow.Second}, &arrow.TimestampType{Unit: arrow.Millisecond}) {
		t.Error("unit change reported as supported")
	}
}

func TestCastErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	in := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[1]`)
	defer in.Release()
	for _, to := range []arrow.DataType{nil, arrow.FixedWidthTypes.Date32, arrow.PrimitiveTypes.Uint8, arrow.BinaryTypes.Binary} {
		if out, err := Cast(mem, in, to, Options{}); err == nil {
			out.Release()
			t.Errorf("int32 -> %v: no error", to)
		}
	}
	same, err := Cast(mem, in, arrow.PrimitiveTypes.Int32, Options{})
	if err != nil || !array.Equal(same, in) {
		t.Errorf("identity cast: %v %v", same, err)
	}
	same.Release()
}

// TestValueError names the row and quotes the value.
func TestValueError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	in := fromJSON(t, mem, arrow.BinaryTypes.String, `["1", "x\"y"]`)
	defer in.Release()
	err := NewValueError(in, 1, 10, arrow.PrimitiveTypes.Int32, Presto)
	if err.Row != 11 || err.Value != `"x\"y"` {
		t.Errorf("got %+v", err)
	}
	if msg := err.Error(); msg != `row 11: cannot cast utf8 value "x\"y" to int32 (presto)` {
		t.Errorf("message %q", msg)
	}
	nums := fromJSON(t, mem, arrow.PrimitiveTypes.Float64, `[1e300]`)
	defer nums.Release()
	if e := NewValueError(nums, 0, 0, arrow.PrimitiveTypes.Int8, Spark); e.Value != "1e+300" {
		t.Errorf("float value text %q", e.Value)
	}
	// Decimals print exactly on 32-bit machines too (arrow-go's ValueStr
	// keeps the low half of each word there: 2^40 at scale 2 was "0.00").
	db := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 38, Scale: 2})
	db.Append(decimal128.New(0, 1<<40))
	d128 := db.NewArray()
	db.Release()
	defer d128.Release()
	if e := NewValueError(d128, 0, 0, arrow.PrimitiveTypes.Int32, Presto); e.Value != "10995116277.76" {
		t.Errorf("decimal128 value text %q", e.Value)
	}
	wb := array.NewDecimal256Builder(mem, &arrow.Decimal256Type{Precision: 76, Scale: 2})
	wb.Append(decimal256.New(0, 0, 1, 0))
	d256 := wb.NewArray()
	wb.Release()
	defer d256.Release()
	if e := NewValueError(d256, 0, 0, arrow.PrimitiveTypes.Int32, Presto); e.Value != "184467440737095516.16" {
		t.Errorf("decimal256 value text %q", e.Value)
	}
}

var (
	_ = math.NaN
	_ = decimal128.Num{}
)
