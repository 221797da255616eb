package testgen

import (
	"fmt"
	"math/big"
	"math/rand"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchCase is one schema of the Velox serde benchmark (docs/velox-benchmarks.md, "Row serde: the cases"). Velox
// is the type as Velox writes it; Schema names the fields c0, c1, ...
type BenchCase struct {
	Name   string
	Velox  string
	Schema *arrow.Schema
}

var benchTypes = []struct{ name, velox string }{
	{"fixedWidth5", "ROW(BIGINT, DOUBLE, BOOLEAN, TINYINT, REAL)"},
	{"fixedWidth10", "ROW(BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, DOUBLE, BIGINT, BIGINT, BIGINT)"},
	{"fixedWidth20", "ROW(BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, BIGINT, " +
		"DOUBLE, DOUBLE, DOUBLE, DOUBLE, DOUBLE, DOUBLE, DOUBLE, DOUBLE, BIGINT, BIGINT)"},
	{"strings1", "ROW(BIGINT, VARCHAR)"},
	{"strings5", "ROW(BIGINT, VARCHAR, VARCHAR, VARCHAR, VARCHAR, VARCHAR)"},
	{"arrays", "ROW(BIGINT, ARRAY(BIGINT))"},
	{"nestedArrays", "ROW(BIGINT, ARRAY(ARRAY(BIGINT)))"},
	{"maps", "ROW(BIGINT, MAP(BIGINT, REAL))"},
	{"structs", "ROW(BIGINT, ROW(BIGINT, DOUBLE, BOOLEAN, TINYINT, REAL))"},
	{"decimals", "ROW(BIGINT, DECIMAL(12, 2), DECIMAL(38, 18))"},
}

// BenchCases returns the benchmark schemas in the order of docs/velox-benchmarks.md.
func BenchCases() []BenchCase {
	out := make([]BenchCase, len(benchTypes))
	for i, c := range benchTypes {
		out[i] = BenchCase{Name: c.name, Velox: c.velox, Schema: mustParse(c.velox)}
	}
	return out
}

// Container sizing of Velox's VectorFuzzer defaults (docs/velox-benchmarks.md, "Row serde: the data").
const (
	benchContainerLength = 10
	benchMaxElements     = 10000
	benchStringLength    = 50
)

// BenchBatch returns rows rows of the named bench case with the data of
// Velox's VectorFuzzer defaults (docs/velox-benchmarks.md, "Row serde: the data"): no nulls, integers over their
// full range, DOUBLE/REAL in [0,1), strings of exactly 50 ASCII characters
// 33..126, container lengths drawn as rand % (2*avg) under an element budget
// of min(containers*10, 10000) (so [0,19] for 1000 rows; the inner arrays of
// nestedArrays get {0,1}), unique map keys, DECIMAL(12,2) = int64 mod 10^12
// and DECIMAL(38,18) = int128 mod 10^38 (generally int64 mod 10^p for
// p<=18, int128 mod 10^p above). It panics on an unknown name.
func BenchBatch(mem memory.Allocator, name string, rows int, seed int64) arrow.RecordBatch {
	var schema *arrow.Schema
	for _, c := range BenchCases() {
		if c.Name == name {
			schema = c.Schema
		}
	}
	if schema == nil {
		panic(fmt.Sprintf("testgen: no bench case %q", name))
	}
	g := &benchGen{r: rand.New(rand.NewSource(seed))}
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, f := range schema.Fields() {
		g.column(b.Field(i), f.Type, rows)
	}
	return b.NewRecordBatch()
}

type benchGen struct{ r *rand.Rand }

// column appends n values of type t to b.
func (g *benchGen) column(b array.Builder, t arrow.DataType, n int) {
	switch b := b.(type) {
	case *array.ListBuilder:
		// Offsets first, then the whole child column: nested levels are
		// sized column by column, as the fuzzer does.
		lengths := g.lengths(n)
		offsets := make([]int32, n)
		valid := make([]bool, n)
		total := 0
		for i, l := range lengths {
			offsets[i] = int32(total)
			valid[i] = true
			total += l
		}
		b.AppendValues(offsets, valid)
		g.column(b.ValueBuilder(), t.(*arrow.ListType).Elem(), total)
	case *array.MapBuilder:
		mt := t.(*arrow.MapType)
		for _, l := range g.lengths(n) {
			b.Append(true)
			seen := make(map[any]bool, l)
			for len(seen) < l {
				k := g.scalar(mt.KeyType())
				if !seen[k] {
					seen[k] = true
					appendScalar(b.KeyBuilder(), k)
				}
			}
			for range l {
				appendScalar(b.ItemBuilder(), g.scalar(mt.ItemType()))
			}
		}
	case *array.StructBuilder:
		st := t.(*arrow.StructType)
		for range n {
			b.Append(true)
		}
		for i, f := range st.Fields() {
			g.column(b.FieldBuilder(i), f.Type, n)
		}
	default:
		for range n {
			appendScalar(b, g.scalar(t))
		}
	}
}

// lengths draws n container lengths under the VectorFuzzer element budget:
// length = rand % (2*avg), and 0 once the budget would be exceeded.
func (g *benchGen) lengths(n int) []int {
	if n == 0 {
		return nil
	}
	budget := min(n*benchContainerLength, benchMaxElements)
	avg := max(budget/n, 1)
	out := make([]int, n)
	used := 0
	for i := range out {
		l := g.r.Intn(2 * avg)
		if used+l > budget {
			l = 0
		}
		out[i] = l
		used += l
	}
	return out
}

func (g *benchGen) scalar(t arrow.DataType) any {
	r := g.r
	switch t.ID() {
	case arrow.BOOL:
		return r.Intn(2) == 1
	case arrow.INT8:
		return int64(int8(r.Uint32()))
	case arrow.INT16:
		return int64(int16(r.Uint32()))
	case arrow.INT32:
		return int64(int32(r.Uint32()))
	case arrow.INT64:
		return int64(r.Uint64())
	case arrow.FLOAT32:
		return r.Float32()
	case arrow.FLOAT64:
		return r.Float64()
	case arrow.STRING:
		var s [benchStringLength]byte
		for i := range s {
			s[i] = byte(33 + r.Intn(126-33+1))
		}
		return string(s[:])
	case arrow.DECIMAL128:
		p := t.(*arrow.Decimal128Type).Precision
		limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
		if p <= 18 {
			return decimal128.FromI64(int64(r.Uint64()) % limit.Int64())
		}
		// A random signed 128-bit value, remainder by 10^p (sign kept, as in C++).
		v := new(big.Int).SetUint64(r.Uint64())
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(r.Uint64()))
		if v.Bit(127) == 1 {
			v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 128))
		}
		return Decimal128(v.Rem(v, limit))
	}
	panic("testgen: no bench generator for " + t.String())
}
