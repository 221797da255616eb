package trycast

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestParseIntShortcuts: the kernel's parseInt must give ParseInt's answer
// for every string, in every dialect and width.
func TestParseIntShortcuts(t *testing.T) {
	var inputs []string
	for c := 0; c < 256; c++ {
		b := string([]byte{byte(c)})
		inputs = append(inputs, b, b+"1", "1"+b, b+"12", " "+b, "12"+b+"3")
	}
	inputs = append(inputs, "", "0", "007", "127", "128", "255", "32767", "32768",
		"2147483647", "2147483648", "9223372036854775807", "999999999999999999",
		"1000000000000000000", "99999999999999999999", "12.5", ".5", "1e3", "٣", " 12 ")
	for _, s := range inputs {
		for _, w := range []int{8, 16, 32, 64} {
			for _, d := range []Dialect{Presto, Spark, SparkANSI} {
				qv, qok := parseInt([]byte(s), w, d)
				v, ok := ParseInt([]byte(s), w, d)
				if ok != qok || (ok && v != qv) {
					t.Errorf("%q int%d %s: parseInt (%d, %v), ParseInt (%d, %v)", s, w, d, qv, qok, v, ok)
				}
			}
		}
	}
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
}

var (
	_ = math.NaN
	_ = decimal128.Num{}
)
