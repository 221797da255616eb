package sparkhash

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// TestKnownCombinedCudf is cudf's MultiValueWithSeeds: fourteen columns of
// every flat type plus a nested struct, hashed one by one and together
// (hash(col("*")) in its Spark session). Row 1 of the columns holding -0.0
// (doubles, floats) and of the combined hash carries Spark < 3.2's -0.0
// semantics and is skipped there.
func TestKnownCombinedCudf(t *testing.T) {
	mem := checkedMem(t)
	keep := func(a arrow.Array) arrow.Array { t.Cleanup(a.Release); return a }

	xs := array.NewFloat32Builder(mem)
	xs.AppendValues([]float32{0, 100, -100, float32(math.Inf(1)), float32(math.Inf(-1))}, nil)
	x := keep(xs.NewArray())
	xs.Release()
	y := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[0, 100, -100, 81985529216486895, -81985529216486895]`)
	c, err := array.NewStructArray([]arrow.Array{x, y}, []string{"x", "y"})
	if err != nil {
		t.Fatal(err)
	}
	keep(c)
	a := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[0, 100, -100, 305419896, -1985229328]`)
	b := fromJSON(t, mem, arrow.BinaryTypes.String, `["a", "bc", "def", "ghij", "klmno"]`)
	structs, err := array.NewStructArray([]arrow.Array{a, b, c}, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	keep(structs)

	strs := array.NewStringBuilder(mem)
	strs.AppendValues([]string{"", "The quick brown fox", "jumps over the lazy dog.", "All work and no play makes Jack a dull boy",
		"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\ud720\ud721"}, nil)
	strings := keep(strs.NewArray())
	strs.Release()
	ds := array.NewFloat64Builder(mem)
	ds.AppendValues([]float64{0, math.Copysign(0, -1), -math.NaN(), -math.MaxFloat64, math.MaxFloat64}, nil)
	doubles := keep(ds.NewArray())
	ds.Release()
	fs := array.NewFloat32Builder(mem)
	fs.AppendValues([]float32{0, float32(math.Copysign(0, -1)), float32(-math.NaN()), -math.MaxFloat32, math.MaxFloat32}, nil)
	floats := keep(fs.NewArray())
	fs.Release()
	timestamps := fromJSON(t, mem, arrow.FixedWidthTypes.Timestamp_us, `[0, 100, -100, -9223372036854, 9223372036854]`)
	decimal64 := decimals(t, mem, &arrow.Decimal128Type{Precision: 18, Scale: 7}, 0, 100, -100, -999999999999999999, 999999999999999999)
	longs := fromJSON(t, mem, arrow.PrimitiveTypes.Int64, `[0, 100, -100, -9223372036854775808, 9223372036854775807]`)
	dates := fromJSON(t, mem, arrow.FixedWidthTypes.Date32, `[0, 100, -100, -21474836, 21474836]`)
	decimal32 := decimals(t, mem, &arrow.Decimal128Type{Precision: 9, Scale: 3}, 0, 100, -100, -999999999, 999999999)
	ints := fromJSON(t, mem, arrow.PrimitiveTypes.Int32, `[0, 100, -100, -2147483648, 2147483647]`)
	shorts := fromJSON(t, mem, arrow.PrimitiveTypes.Int16, `[0, 100, -100, -32768, 32767]`)
	bytes := fromJSON(t, mem, arrow.PrimitiveTypes.Int8, `[0, 100, -100, -128, 127]`)
	bools := fromJSON(t, mem, arrow.FixedWidthTypes.Boolean, `[false, true, true, true, false]`)
	db := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 38, Scale: 11})
	db.AppendValues([]decimal128.Num{dec(0, 0), dec(0, 100), dec(-1, math.MaxUint64),
		dec(int64(-0x33b2e3d), 0x602f7fc318000001), dec(0x0785ee10d5da46d9, 0x00f4369fffffffff)}, nil)
	decimal128s := keep(db.NewArray())
	db.Release()

	expect(t, "cudf structs", hashCols(t, mem, 42, structs), []int32{-105406170, 90479889, -678041645, 1667387937, 301478567})
	all := []arrow.Array{structs, strings, doubles, timestamps, decimal64, longs, floats, dates, decimal32, ints, shorts, bytes, bools, decimal128s}
	expect(t, "cudf combined", hashCols(t, mem, 42, all...), []int32{401603227, 0, 552160517, 1132537411, -326043017}, 1)
}
