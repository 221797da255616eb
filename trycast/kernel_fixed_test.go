package trycast

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestSettledFixedRowsMatchScalars holds every row of the integer,
// float and decimal kernels that settle rows 8 at a time to the scalar
// conversions, in every dialect, with nulls and at an offset, on values
// at and around every range edge.
func TestSettledFixedRowsMatchScalars(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(31, 32))
	const n = 6000
	ints := []int64{math.MinInt64, math.MaxInt64, 0, -1, 1, 1e16, -1e16, 1e18, 999_999_999_999_999, 1e15, -1e15}
	for _, w := range []int{8, 16, 32} {
		lo, hi := intRange(w)
		ints = append(ints, lo, hi, lo-1, hi+1, lo+1, hi-1)
	}
	for len(ints) < n {
		ints = append(ints, r.Int64()>>r.IntN(64))
	}
	floats := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0.5, -0.5, 1.5, -2.5, 127.5, -128.5, 128, -129,
		32767.5, 2147483647, 2147483647.5, -2147483648.5, 2147483648, 9.2e18, 9.3e18, -9.3e18, 0x1p63, -0x1p63,
		2147483649.5, 2147483650.5, 2147483651, -2147483650.5, -2147483651.5, 130.5, 131, -131.5, 0x1p63 + 4096, 9.3e18 + 2048,
		// Presto's rounding at the half: the doubles next to it, at small and large magnitudes
		0.49999999999999994, -0.49999999999999994, 0.5000000000000001, -0.5000000000000001, 2.5, -3.5, math.Copysign(0, -1), 5e-324,
		-5e-324, 1e9 + 0.5, -1e9 - 0.5, 0x1p30 + 0.5, -0x1p30 - 0.5, 2147483645.5, -2147483647.5, 0x1p51 + 0.5, -0x1p51 - 0.5,
		0x1p52 + 1, -0x1p52 - 1, 0x1p53 + 2, 9.1e18 + 1024, 1e9 + 0.49999999, -1e9 - 0.49999999, 126.5, -127.5, 32766.5, -32767.5}
	for len(floats) < n {
		floats = append(floats, (r.Float64()-0.5)*math.Pow(2, float64(r.IntN(70))))
	}
	var decs []decimal128.Num
	for _, v := range ints {
		decs = append(decs, decimal128.FromI64(v))
	}
	decs = append(decs, decimal128.New(1, 0), decimal128.New(-2, 5), decimal128.FromI64(1<<53), decimal128.FromI64(1<<53+1),
		decimal128.FromI64(-(1 << 53)), decimal128.FromI64(-(1<<53 + 1)),
		// the words' edges for the branchless sign: -2^64, 2^63, -2^63, 2^64+1, -(2^64-1)
		decimal128.New(-1, 0), decimal128.New(0, 1<<63), decimal128.New(-1, 1<<63), decimal128.New(1, 1), decimal128.New(-1, 1),
		decimal128.New(0, 1<<53-1), decimal128.FromI64(-(1<<53 - 1)), decimal128.New(-1, math.MaxUint64), decimal128.New(-2, math.MaxUint64))
	valid := func(i int) bool { return i%7 != 2 }

	ib := array.NewInt64Builder(mem)
	fb := array.NewFloat64Builder(mem)
	gb := array.NewFloat32Builder(mem)
	for i := range n {
		ib.AppendValues([]int64{ints[i]}, []bool{valid(i)})
		fb.AppendValues([]float64{floats[i]}, []bool{valid(i)})
		gb.AppendValues([]float32{float32(floats[i])}, []bool{valid(i)})
	}
	decArrays := map[int32]arrow.Array{}
	for _, sc := range []int32{0, 2, 10, 30} {
		db := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 38, Scale: sc})
		for i, v := range decs {
			db.AppendValues([]decimal128.Num{v}, []bool{valid(i)})
		}
		decArrays[sc] = db.NewArray()
		db.Release()
	}
	i64, f64, f32 := ib.NewArray(), fb.NewArray(), gb.NewArray()
	ib.Release()
	fb.Release()
	gb.Release()
	defer func() {
		for _, a := range append([]arrow.Array{i64, f64, f32}, decArrays[0], decArrays[2], decArrays[10], decArrays[30]) {
			a.Release()
		}
	}()

	intTypes := []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64}
	decTypes := []arrow.DataType{&arrow.Decimal128Type{Precision: 18, Scale: 2}, &arrow.Decimal128Type{Precision: 10, Scale: 0},
		&arrow.Decimal128Type{Precision: 38, Scale: 10}, &arrow.Decimal128Type{Precision: 20, Scale: 3}, &arrow.Decimal128Type{Precision: 5, Scale: 7}}
	for _, d := range []Dialect{Presto, Spark, SparkANSI} {
		for _, off := range []int{0, 5} {
			check := func(src arrow.Array, to arrow.DataType, want func(i int) (any, bool)) {
				t.Helper()
				in := array.NewSlice(src, int64(off), int64(src.Len()))
				defer in.Release()
				out, err := Cast(mem, in, to, Options{Dialect: d})
				if err != nil {
					t.Fatal(err)
				}
				defer out.Release()
				if err := array.ValidateFull(out); err != nil {
					t.Fatal(err)
				}
				for i := range in.Len() {
					row := i + off
					var got any
					switch o := out.(type) {
					case *array.Decimal128:
						got = o.Value(i)
					case *array.Float64:
						got = math.Float64bits(o.Value(i))
					default:
						got = intAt(out, i)
					}
					if !valid(row) {
						if out.IsValid(i) {
							t.Fatalf("%s -> %s %v row %d: null input is valid", src.DataType(), to, d, row)
						}
						continue
					}
					w, ok := want(row)
					if out.IsValid(i) != ok || (ok && got != w) {
						t.Fatalf("%s -> %s %v row %d: got %v (valid %v), want %v, %v", src.DataType(), to, d, row, got, out.IsValid(i), w, ok)
					}
				}
			}
			for _, to := range intTypes {
				w := intWidth(to)
				if to.ID() != arrow.INT64 {
					check(i64, to, func(i int) (any, bool) { return IntToInt(ints[i], w, d) })
				}
				check(f64, to, func(i int) (any, bool) { return FloatToInt(floats[i], w, d) })
				check(f32, to, func(i int) (any, bool) { return Float32ToInt(float32(floats[i]), w, d) })
			}
			for _, to := range decTypes {
				dt := to.(*arrow.Decimal128Type)
				check(i64, to, func(i int) (any, bool) {
					v, ok := IntToDecimal(ints[i], dt.Precision, dt.Scale, d)
					return v, ok
				})
			}
			for sc, a := range decArrays {
				check(a, arrow.PrimitiveTypes.Float64, func(i int) (any, bool) {
					return math.Float64bits(DecimalToFloat(decs[i], sc)), true
				})
			}
		}
	}
}

// TestTextOutputSizedToFit: text output is sized from its first rows and
// trimmed, not n times the longest text a value can have (20 bytes for an
// int64, 32 for a double), whatever the first rows look like.
func TestTextOutputSizedToFit(t *testing.T) {
	const n = 100_000
	for _, c := range []struct {
		name string
		v    func(i int) int64
	}{
		{"one digit", func(i int) int64 { return int64(i % 10) }},
		{"short first rows, long later", func(i int) int64 {
			if i < 2000 {
				return 7
			}
			return -1_000_000_000_000 - int64(i)
		}},
		{"long first rows, short later", func(i int) int64 {
			if i < 2000 {
				return math.MinInt64
			}
			return int64(i % 10)
		}},
	} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		b := array.NewInt64Builder(mem)
		for i := range n {
			b.Append(c.v(i))
		}
		in := b.NewArray()
		b.Release()
		out, err := Cast(mem, in, arrow.BinaryTypes.String, Options{})
		if err != nil {
			t.Fatal(err)
		}
		in.Release()
		used := out.Data().Buffers()[2].Len()
		held := mem.CurrentAlloc() - 4*(n+1) // all that is left: offsets and data
		if limit := used + used/8 + 64*1024; held > limit {
			t.Errorf("%s: %d bytes held for %d bytes of text (limit %d)", c.name, held, used, limit)
		}
		for i := 0; i < n; i += 997 {
			if got, want := out.(*array.String).Value(i), string(AppendInt(nil, c.v(i), Presto)); got != want {
				t.Fatalf("%s row %d: %q, want %q", c.name, i, got, want)
			}
		}
		out.Release()
		mem.AssertSize(t, 0)
	}
}
