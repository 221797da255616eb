package unsaferow

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

// The shapes of Velox's UnsafeRowSerializeBenchmark (docs/velox-benchmarks.md, "Row serde: the cases") with data
// like its VectorFuzzer defaults ("Row serde: the data"): no nulls, 50-byte ASCII strings,
// container lengths uniform in [0, 19], inner nested-array lengths in {0, 1}.
const encBenchRows = 1000

type encBenchShape struct {
	name   string
	fields []arrow.DataType
}

func encBenchShapes() []encBenchShape {
	i64, f64, str := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64, arrow.BinaryTypes.String
	fw5 := []arrow.DataType{i64, f64, arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Float32}
	fs := make([]arrow.Field, len(fw5))
	for i, dt := range fw5 {
		fs[i] = nullable(string(rune('a'+i)), dt)
	}
	return []encBenchShape{
		{"fixedWidth5", fw5},
		{"fixedWidth10", concatTypes(repeatType(i64, 6), repeatType(f64, 1), repeatType(i64, 3))},
		{"fixedWidth20", concatTypes(repeatType(i64, 10), repeatType(f64, 8), repeatType(i64, 2))},
		{"strings1", []arrow.DataType{i64, str}},
		{"strings5", concatTypes(repeatType(i64, 1), repeatType(str, 5))},
		{"arrays", []arrow.DataType{i64, listOfElem(i64)}},
		{"nestedArrays", []arrow.DataType{i64, listOfElem(listOfElem(i64))}},
		{"maps", []arrow.DataType{i64, arrow.MapOf(i64, arrow.PrimitiveTypes.Float32)}},
		{"structs", []arrow.DataType{i64, arrow.StructOf(fs...)}},
		{"decimals", []arrow.DataType{i64, &arrow.Decimal128Type{Precision: 12, Scale: 2}, &arrow.Decimal128Type{Precision: 38, Scale: 18}}},
	}
}

func repeatType(dt arrow.DataType, n int) []arrow.DataType {
	out := make([]arrow.DataType, n)
	for i := range out {
		out[i] = dt
	}
	return out
}

func concatTypes(parts ...[]arrow.DataType) []arrow.DataType {
	var out []arrow.DataType
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func (s encBenchShape) schema() *arrow.Schema {
	fs := make([]arrow.Field, len(s.fields))
	for i, dt := range s.fields {
		fs[i] = nullable("c"+string(rune('0'+i/10))+string(rune('0'+i%10)), dt)
	}
	return arrow.NewSchema(fs, nil)
}

// record builds the shape's batch of n rows from a fixed seed.
func (s encBenchShape) record(mem memory.Allocator, n int) arrow.RecordBatch {
	rng := rand.New(rand.NewPCG(1, 2))
	schema := s.schema()
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range s.fields {
		fb := b.Field(i)
		for range n {
			fuzzAppend(rng, fb)
		}
	}
	return b.NewRecordBatch()
}

var decimalLimit38 = new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)

// fuzzAppend appends one non-null random value to b, following docs/velox-benchmarks.md, "Row serde: the data".
func fuzzAppend(rng *rand.Rand, b array.Builder) {
	switch b := b.(type) {
	case *array.Int64Builder:
		b.Append(int64(rng.Uint64()))
	case *array.Float64Builder:
		b.Append(rng.Float64())
	case *array.Float32Builder:
		b.Append(rng.Float32())
	case *array.BooleanBuilder:
		b.Append(rng.IntN(2) == 1)
	case *array.Int8Builder:
		b.Append(int8(rng.Uint32()))
	case *array.StringBuilder:
		var s [50]byte
		for i := range s {
			s[i] = byte(33 + rng.IntN(94))
		}
		b.Append(string(s[:]))
	case *array.Decimal128Builder:
		dt := b.Type().(*arrow.Decimal128Type)
		if dt.Precision <= 18 {
			b.Append(decimal128.FromI64(int64(rng.Uint64() % 1_000_000_000_000)))
			return
		}
		v := new(big.Int).SetUint64(rng.Uint64())
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(rng.Uint64()))
		v.Mod(v, decimalLimit38)
		if rng.IntN(2) == 1 {
			v.Neg(v)
		}
		b.Append(decimal128.FromBigInt(v))
	case *array.MapBuilder: // before ListBuilder: keys must be distinct
		b.Append(true)
		base := int64(rng.Uint64() >> 8)
		for j := range rng.IntN(20) {
			b.KeyBuilder().(*array.Int64Builder).Append(base + int64(j))
			fuzzAppend(rng, b.ItemBuilder())
		}
	case *array.ListBuilder:
		b.Append(true)
		for range rng.IntN(20) {
			if lb, ok := b.ValueBuilder().(*array.ListBuilder); ok {
				lb.Append(true)
				for range rng.IntN(2) {
					fuzzAppend(rng, lb.ValueBuilder())
				}
				continue
			}
			fuzzAppend(rng, b.ValueBuilder())
		}
	case *array.StructBuilder:
		b.Append(true)
		for i := range b.NumField() {
			fuzzAppend(rng, b.FieldBuilder(i))
		}
	default:
		panic("fuzzAppend: no generator for " + b.Type().String())
	}
}

// The UnsafeRow sizes of docs/velox-benchmarks.md, "Row serde: encoded sizes", for the benchmark shapes.
func TestEncodeBenchShapeSizes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	fixed := map[string]int{"fixedWidth5": 48, "fixedWidth10": 88, "fixedWidth20": 168,
		"strings1": 80, "strings5": 336, "structs": 72, "decimals": 48}
	for _, s := range encBenchShapes() {
		rec := s.record(mem, encBenchRows)
		for _, fl := range flavors {
			rows := encodeWith(t, fl, rec)
			for i := range rows.Len() {
				size := len(rows.Row(i))
				switch s.name {
				case "arrays":
					l := rec.Column(1).(*array.List)
					start, end := l.ValueOffsets(i)
					want := 32
					if n := int(end - start); n > 0 {
						want = 40 + 8*n
					}
					require.Equal(t, want, size, "%s/%s row %d", s.name, fl, i)
				case "maps":
					m := rec.Column(1).(*array.Map)
					start, end := m.ValueOffsets(i)
					n := int(end - start)
					values := 8 + 8*((n+63)/64) + 4*n
					if fl == Spark {
						values = padTo8(values)
					}
					want := 24 + padTo8(8+(8+8*((n+63)/64)+8*n)+values)
					require.Equal(t, want, size, "%s/%s row %d", s.name, fl, i)
				case "decimals":
					if fl == Spark { // Velox reserves pad8(len): 16 for all but tiny values
						require.Equal(t, 48, size, "%s row %d", s.name, i)
					}
				case "nestedArrays":
					require.Zero(t, size%8)
				default:
					require.Equal(t, fixed[s.name], size, "%s/%s row %d", s.name, fl, i)
				}
			}
		}
		rec.Release()
	}
}

// BenchmarkEncode encodes 1000 rows of each shape per iteration into a
// reused Rows (as a stream writer does) and, for comparison, into a fresh
// one. Run: go test ./unsaferow -run '^$' -bench Encode -benchtime 2000x
func BenchmarkEncode(b *testing.B) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(b, 0)
	for _, s := range encBenchShapes() {
		rec := s.record(mem, encBenchRows)
		for _, fl := range flavors {
			enc, err := NewEncoder(rec.Schema(), WithFlavor(fl))
			require.NoError(b, err)
			b.Run(s.name+"/"+fl.String()+"/append", func(b *testing.B) {
				var rows rowbridge.Rows
				b.ReportAllocs()
				for b.Loop() {
					rows.Reset()
					if rows, err = enc.AppendRows(rows, rec); err != nil {
						b.Fatal(err)
					}
				}
				b.SetBytes(int64(len(rows.Data)))
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*encBenchRows), "ns/row")
			})
			if fl == Spark {
				b.Run(s.name+"/"+fl.String()+"/fresh", func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, err := enc.Encode(rec); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*encBenchRows), "ns/row")
				})
			}
		}
		rec.Release()
	}
}
