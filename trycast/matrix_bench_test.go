package trycast

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/arrowvec"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// The cast matrix (docs/benchmarks.md, "Cast matrix"): each pair on 1M rows
// of valid, empty and invalid input, rowbridge's try_cast (Presto) beside
// arrow-go's compute.CastArray (safe options) wherever arrow-go casts the
// pair. Valid values are random with realistic widths. For fixed-width
// sources "empty" is an all-null column; arrow-go runs only on valid input
// (it fails a whole call on one bad row).
//
//	go test ./trycast -run '^$' -bench 'CastMatrix' -benchtime=200ms -count=3 [-args -castmatrix.recycle]
//
// Besides wall ns/row it reports cpu-ns/row on Linux: the process's CPU
// time (garbage collection included), steadier on a shared machine.
const matrixRows = 1 << 20

type matrixCase struct {
	name    string
	to      arrow.DataType
	inputs  map[string]func() arrow.Array // valid, empty, invalid
	noArrow bool
}

var (
	decimal18 = &arrow.Decimal128Type{Precision: 18, Scale: 2}
	decimal38 = &arrow.Decimal128Type{Precision: 38, Scale: 10}
	tsMicros  = &arrow.TimestampType{Unit: arrow.Microsecond}
)

// matrixColumn makes, on call, a column of matrixRows values of f drawn
// from a generator seeded with (seed, seed+1).
func matrixColumn[T any, B interface {
	array.Builder
	Append(T)
}](newB func(memory.Allocator) B, seed uint64, f func(r *rand.Rand) T) func() arrow.Array {
	return func() arrow.Array {
		r := rand.New(rand.NewPCG(seed, seed+1))
		b := newB(memory.DefaultAllocator)
		defer b.Release()
		b.Reserve(matrixRows)
		for range matrixRows {
			b.Append(f(r))
		}
		return b.NewArray()
	}
}

func matrixStrings(f func(r *rand.Rand) string) func() arrow.Array {
	return matrixColumn(array.NewStringBuilder, 1, f)
}

func constStrings(s string) func() arrow.Array {
	return matrixStrings(func(*rand.Rand) string { return s })
}

func matrixInt64s(f func(r *rand.Rand) int64) func() arrow.Array {
	return matrixColumn(array.NewInt64Builder, 3, f)
}

func matrixFloat64s(f func(r *rand.Rand) float64) func() arrow.Array {
	return matrixColumn(array.NewFloat64Builder, 5, f)
}

var matrixDecimals = matrixColumn(func(mem memory.Allocator) *array.Decimal128Builder {
	return array.NewDecimal128Builder(mem, decimal18)
}, 7, func(r *rand.Rand) decimal128.Num { return decimal128.FromI64(r.Int64N(2e10) - 1e10) })

var (
	matrixTsLo = time.Date(1950, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	matrixTsHi = time.Date(2050, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
)

var matrixTimestamps = matrixColumn(func(mem memory.Allocator) *array.TimestampBuilder {
	return array.NewTimestampBuilder(mem, tsMicros)
}, 9, func(r *rand.Rand) arrow.Timestamp {
	return arrow.Timestamp(matrixTsLo + r.Int64N(matrixTsHi-matrixTsLo))
})

// nulls is an all-null column of dt.
func nulls(dt arrow.DataType) func() arrow.Array {
	return func() arrow.Array { return array.MakeArrayOfNull(memory.DefaultAllocator, dt, matrixRows) }
}

func randInt(r *rand.Rand, lim int64) int64 { return r.Int64N(2*lim+1) - lim }

// randDouble is a value like 123456.7891: up to 6 integer and 4 fraction digits.
func randDouble(r *rand.Rand) float64 { return float64(randInt(r, 1e10)) / 1e4 }

func matrixCases() []matrixCase {
	intStr := func(lim int64) func(r *rand.Rand) string {
		return func(r *rand.Rand) string { return strconv.FormatInt(randInt(r, lim), 10) }
	}
	strIn := func(valid func(r *rand.Rand) string, invalid string) map[string]func() arrow.Array {
		return map[string]func() arrow.Array{"valid": matrixStrings(valid), "empty": constStrings(""), "invalid": constStrings(invalid)}
	}
	date := func(r *rand.Rand) string {
		return time.Unix(r.Int64N(60*365*86400), 0).UTC().Format("2006-01-02")
	}
	ts := func(r *rand.Rand) string {
		return time.UnixMilli(r.Int64N(60 * 365 * 86400 * 1000)).UTC().Format("2006-01-02 15:04:05.000")
	}
	return []matrixCase{
		{name: "utf8-int8", to: arrow.PrimitiveTypes.Int8, inputs: strIn(intStr(127), "$12")},
		{name: "utf8-int16", to: arrow.PrimitiveTypes.Int16, inputs: strIn(intStr(32767), "$12")},
		{name: "utf8-int32", to: arrow.PrimitiveTypes.Int32, inputs: strIn(intStr(9_999_999), "12$4567")},
		{name: "utf8-int64", to: arrow.PrimitiveTypes.Int64, inputs: strIn(intStr(999_999_999_999), "12345$789012")},
		{name: "utf8-float", to: arrow.PrimitiveTypes.Float32, inputs: strIn(func(r *rand.Rand) string {
			return strconv.FormatFloat(float64(randInt(r, 9_999_999))/1e3, 'f', -1, 64) // 7 digits, as a real holds
		}, "1234.5x")},
		{name: "utf8-double", to: arrow.PrimitiveTypes.Float64, inputs: strIn(func(r *rand.Rand) string {
			return strconv.FormatFloat(randDouble(r), 'f', -1, 64)
		}, "123456.78x1")},
		{name: "utf8-decimal(18,2)", to: decimal18, inputs: strIn(func(r *rand.Rand) string {
			v := randInt(r, 1e10)
			return strconv.FormatFloat(float64(v)/100, 'f', 2, 64)
		}, "12345.6x"), noArrow: true},
		{name: "utf8-decimal(38,10)", to: decimal38, inputs: strIn(func(r *rand.Rand) string {
			return strconv.FormatInt(randInt(r, 1e15), 10) + "." + fmt.Sprintf("%010d", r.Int64N(1e10))
		}, "12345.6x"), noArrow: true},
		{name: "utf8-date", to: arrow.FixedWidthTypes.Date32, inputs: strIn(date, "2024-13-45")},
		{name: "utf8-timestamp", to: tsMicros, inputs: strIn(ts, "2024-05-01 25:61:00.000")},
		{name: "int64-int32", to: arrow.PrimitiveTypes.Int32, inputs: map[string]func() arrow.Array{
			"valid":   matrixInt64s(func(r *rand.Rand) int64 { return randInt(r, math.MaxInt32) }),
			"empty":   nulls(arrow.PrimitiveTypes.Int64),
			"invalid": matrixInt64s(func(r *rand.Rand) int64 { return math.MaxInt32 + 1 + r.Int64N(1e12) }),
		}},
		{name: "int64-utf8", to: arrow.BinaryTypes.String, inputs: map[string]func() arrow.Array{
			"valid": matrixInt64s(func(r *rand.Rand) int64 { return randInt(r, 999_999_999_999) }),
			"empty": nulls(arrow.PrimitiveTypes.Int64),
		}},
		{name: "int64-decimal(18,2)", to: decimal18, inputs: map[string]func() arrow.Array{
			"valid":   matrixInt64s(func(r *rand.Rand) int64 { return randInt(r, 999_999_999_999) }),
			"empty":   nulls(arrow.PrimitiveTypes.Int64),
			"invalid": matrixInt64s(func(r *rand.Rand) int64 { return 1e16 + r.Int64N(1e17) }),
		}},
		{name: "double-int32", to: arrow.PrimitiveTypes.Int32, inputs: map[string]func() arrow.Array{
			"valid":   matrixFloat64s(func(r *rand.Rand) float64 { return float64(randInt(r, 1e9)) }),
			"empty":   nulls(arrow.PrimitiveTypes.Float64),
			"invalid": matrixFloat64s(func(r *rand.Rand) float64 { return 1e12 + r.Float64() }),
		}},
		{name: "double-utf8", to: arrow.BinaryTypes.String, inputs: map[string]func() arrow.Array{
			"valid": matrixFloat64s(randDouble),
			"empty": nulls(arrow.PrimitiveTypes.Float64),
		}},
		{name: "decimal(18,2)-utf8", to: arrow.BinaryTypes.String, inputs: map[string]func() arrow.Array{
			"valid": matrixDecimals,
			"empty": nulls(decimal18),
		}},
		{name: "decimal(18,2)-double", to: arrow.PrimitiveTypes.Float64, inputs: map[string]func() arrow.Array{
			"valid": matrixDecimals,
			"empty": nulls(decimal18),
		}},
		{name: "timestamp-utf8", to: arrow.BinaryTypes.String, inputs: map[string]func() arrow.Array{
			"valid": matrixTimestamps,
			"empty": nulls(tsMicros),
		}},
		{name: "timestamp-date", to: arrow.FixedWidthTypes.Date32, inputs: map[string]func() arrow.Array{
			"valid": matrixTimestamps,
			"empty": nulls(tsMicros),
		}},
	}
}

// -castmatrix.recycle runs both sides on an arrowvec.RecyclingAllocator,
// which takes page faults and zeroing of fresh memory out of the figures.
var matrixRecycle = flag.Bool("castmatrix.recycle", false, "run BenchmarkCastMatrix on a recycling allocator")

func BenchmarkCastMatrix(b *testing.B) {
	var mem memory.Allocator = memory.DefaultAllocator
	if *matrixRecycle {
		mem = arrowvec.NewRecyclingAllocator(256 << 20)
	}
	for _, c := range matrixCases() {
		for _, kind := range []string{"valid", "empty", "invalid"} {
			mk := c.inputs[kind]
			if mk == nil {
				continue
			}
			var in arrow.Array
			input := func(b *testing.B) arrow.Array {
				if in == nil {
					in = mk()
				}
				b.ResetTimer()
				return in
			}
			b.Run(c.name+"/"+kind+"/rowbridge", func(b *testing.B) {
				in := input(b)
				b.ReportAllocs()
				cpu := startCPU()
				for b.Loop() {
					out, err := Cast(mem, in, c.to, Options{})
					if err != nil {
						b.Fatal(err)
					}
					out.Release()
				}
				reportRows(b, cpu)
			})
			if !c.noArrow && kind == "valid" {
				b.Run(c.name+"/"+kind+"/arrow-go", func(b *testing.B) {
					in := input(b)
					ctx := compute.WithAllocator(b.Context(), mem)
					if out, err := compute.CastArray(ctx, in, compute.SafeCastOptions(c.to)); err != nil {
						b.Skipf("arrow-go: %v", err)
					} else {
						out.Release()
					}
					b.ResetTimer()
					b.ReportAllocs()
					cpu := startCPU()
					for b.Loop() {
						out, err := compute.CastArray(ctx, in, compute.SafeCastOptions(c.to))
						if err != nil {
							b.Fatal(err)
						}
						out.Release()
					}
					reportRows(b, cpu)
				})
			}
			if in != nil {
				in.Release()
			}
		}
	}
}

// startCPU is the process CPU time when a measured loop starts (-1 when
// it is not measured).
func startCPU() int64 {
	if t := testgen.ProcessCPU(); t > 0 {
		return int64(t)
	}
	return -1
}

// reportRows reports wall ns/row and, where measured, the process's CPU
// ns/row (cpu-ns/row) since start: on a shared machine wall time counts
// the time other processes held the core, CPU time does not.
func reportRows(b *testing.B, start int64) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/matrixRows, "ns/row")
	if t := int64(testgen.ProcessCPU()); t > 0 && start >= 0 {
		b.ReportMetric(float64(t-start)/float64(b.N)/matrixRows, "cpu-ns/row")
	}
}
