package testgen

import (
	"fmt"
	"math/rand"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BatchOption changes what RandomBatch generates.
type BatchOption func(*batchConfig)

type batchConfig struct {
	nulls     float64
	extremes  float64
	nan       bool
	maxLen    int
	maxString int
}

// WithNullProbability sets the chance that any nullable value (top-level
// field, struct field, list element, map value, whole struct, list or map)
// is null. Default 0.2; 1 makes every nullable value null.
func WithNullProbability(p float64) BatchOption { return func(c *batchConfig) { c.nulls = p } }

// WithExtremes sets the chance that a primitive value is an extreme (min,
// max, ±0, ±Inf, ±(10^p-1), ...). Default 0.2.
func WithExtremes(p float64) BatchOption { return func(c *batchConfig) { c.extremes = p } }

// WithNaN lets float values be NaN (never map keys). Off by default because
// NaN payloads and NaN-as-key rules differ between engines.
func WithNaN() BatchOption { return func(c *batchConfig) { c.nan = true } }

// WithMaxLength sets the most elements in a list or map (default 5) and the
// most pieces in a string or bytes in a binary value (default 12).
func WithMaxLength(containers, strings int) BatchOption {
	return func(c *batchConfig) { c.maxLen, c.maxString = max(containers, 0), max(strings, 1) }
}

type gen struct {
	r *rand.Rand
	c batchConfig
}

// RandomBatch returns rows random rows of schema. Values include nulls at
// every nullable level, empty strings, lists and maps, extreme values and
// multi-byte UTF-8; map keys are unique within each map and decimals fit
// their precision. The caller releases the batch.
func RandomBatch(mem memory.Allocator, r *rand.Rand, schema *arrow.Schema, rows int, opts ...BatchOption) arrow.RecordBatch {
	g := &gen{r: r, c: batchConfig{nulls: 0.2, extremes: 0.2, maxLen: 5, maxString: 12}}
	for _, o := range opts {
		o(&g.c)
	}
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, f := range schema.Fields() {
		fb := b.Field(i)
		for range rows {
			g.appendValue(fb, f.Type, f.Nullable)
		}
	}
	return b.NewRecordBatch()
}

func (g *gen) appendValue(b array.Builder, t arrow.DataType, nullable bool) {
	if t.ID() == arrow.NULL || nullable && g.chance(g.c.nulls) {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.ListBuilder:
		lt := t.(*arrow.ListType)
		b.Append(true)
		for range g.length() {
			g.appendValue(b.ValueBuilder(), lt.Elem(), lt.ElemField().Nullable)
		}
	case *array.MapBuilder:
		mt := t.(*arrow.MapType)
		b.Append(true)
		n := g.length()
		seen := make(map[any]bool, n)
		// Few key types have few values (BOOLEAN has two); give up after a
		// bounded number of repeats instead of looping.
		for tries := 0; len(seen) < n && tries < 4*n+4; tries++ {
			k := g.scalar(mt.KeyType(), true)
			if seen[k] {
				continue
			}
			seen[k] = true
			appendScalar(b.KeyBuilder(), k)
			g.appendValue(b.ItemBuilder(), mt.ItemType(), mt.ItemField().Nullable)
		}
	case *array.StructBuilder:
		st := t.(*arrow.StructType)
		b.Append(true)
		for i, f := range st.Fields() {
			g.appendValue(b.FieldBuilder(i), f.Type, f.Nullable)
		}
	default:
		appendScalar(b, g.scalar(t, false))
	}
}

// length picks a container length: empty one time in six, else 1..maxLen.
func (g *gen) length() int {
	if g.c.maxLen == 0 || g.r.Intn(6) == 0 {
		return 0
	}
	return 1 + g.r.Intn(g.c.maxLen)
}

func appendScalar(b array.Builder, v any) {
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(v.(bool))
	case *array.Int8Builder:
		b.Append(int8(v.(int64)))
	case *array.Int16Builder:
		b.Append(int16(v.(int64)))
	case *array.Int32Builder:
		b.Append(int32(v.(int64)))
	case *array.Int64Builder:
		b.Append(v.(int64))
	case *array.Float32Builder:
		b.Append(v.(float32))
	case *array.Float64Builder:
		b.Append(v.(float64))
	case *array.Date32Builder:
		b.Append(arrow.Date32(v.(int64)))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(v.(int64)))
	case *array.Decimal128Builder:
		b.Append(v.(decimal128.Num))
	case *array.StringBuilder:
		b.Append(v.(string))
	case *array.BinaryBuilder:
		b.Append([]byte(v.(string)))
	default:
		panic(fmt.Sprintf("testgen: no appender for %T", b))
	}
}
