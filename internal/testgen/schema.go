package testgen

import (
	"math/rand"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/ddl"
)

// SchemaOption changes what RandomSchema generates.
type SchemaOption func(*schemaConfig)

type schemaConfig struct {
	maxDepth    int
	maxFields   int
	nonNullable float64
	exclude     map[arrow.Type]bool
}

// WithMaxDepth limits nesting: 0 gives only primitive columns; the default
// is 3 (a column may be a list of maps of structs, say).
func WithMaxDepth(d int) SchemaOption { return func(c *schemaConfig) { c.maxDepth = d } }

// WithMaxFields sets the most top-level fields (at least 1; default 8).
func WithMaxFields(n int) SchemaOption { return func(c *schemaConfig) { c.maxFields = max(n, 1) } }

// WithNonNullable sets the chance that a top-level or struct field is
// declared NOT NULL (default 0.1). List elements and map values are always
// nullable, map keys never.
func WithNonNullable(p float64) SchemaOption { return func(c *schemaConfig) { c.nonNullable = p } }

// ExcludeTypes keeps the given type ids out of the schema, e.g.
// ExcludeTypes(arrow.NULL, arrow.MAP) for a codec that lacks them.
func ExcludeTypes(ids ...arrow.Type) SchemaOption {
	return func(c *schemaConfig) {
		for _, id := range ids {
			c.exclude[id] = true
		}
	}
}

// primitiveMakers are the non-nested types rowbridge supports. Decimals come
// in both storage classes: p<=18 (8-byte in UnsafeRow) and p>18.
var primitiveMakers = []func(r *rand.Rand) arrow.DataType{
	func(*rand.Rand) arrow.DataType { return arrow.FixedWidthTypes.Boolean },
	func(*rand.Rand) arrow.DataType { return arrow.PrimitiveTypes.Int8 },
	func(*rand.Rand) arrow.DataType { return arrow.PrimitiveTypes.Int16 },
	func(*rand.Rand) arrow.DataType { return arrow.PrimitiveTypes.Int32 },
	func(*rand.Rand) arrow.DataType { return arrow.PrimitiveTypes.Int64 },
	func(*rand.Rand) arrow.DataType { return arrow.PrimitiveTypes.Float32 },
	func(*rand.Rand) arrow.DataType { return arrow.PrimitiveTypes.Float64 },
	func(*rand.Rand) arrow.DataType { return arrow.FixedWidthTypes.Date32 },
	func(*rand.Rand) arrow.DataType { return ddl.Timestamp() },
	func(*rand.Rand) arrow.DataType { return ddl.TimestampNTZ() },
	func(r *rand.Rand) arrow.DataType { return randomDecimal(r, 1, 18) },
	func(r *rand.Rand) arrow.DataType { return randomDecimal(r, 19, 38) },
	func(*rand.Rand) arrow.DataType { return arrow.BinaryTypes.String },
	func(*rand.Rand) arrow.DataType { return arrow.BinaryTypes.Binary },
	func(*rand.Rand) arrow.DataType { return arrow.Null },
}

func randomDecimal(r *rand.Rand, minP, maxP int) arrow.DataType {
	p := minP + r.Intn(maxP-minP+1)
	return ddl.Decimal(int32(p), int32(r.Intn(p+1)))
}

// RandomSchema returns a schema of 1..8 top-level fields named f0, f1, ...
// over every supported type, nested up to depth 3, built with ddl's list and
// map constructors (Spark's child names).
func RandomSchema(r *rand.Rand, opts ...SchemaOption) *arrow.Schema {
	c := schemaConfig{maxDepth: 3, maxFields: 8, nonNullable: 0.1, exclude: map[arrow.Type]bool{}}
	for _, o := range opts {
		o(&c)
	}
	n := 1 + r.Intn(c.maxFields)
	fields := make([]arrow.Field, n)
	for i := range fields {
		fields[i] = c.field(r, "f"+strconv.Itoa(i), c.maxDepth)
	}
	return arrow.NewSchema(fields, nil)
}

func (c *schemaConfig) field(r *rand.Rand, name string, depth int) arrow.Field {
	t := c.dataType(r, depth)
	// A NULL-typed column holds only nulls, so it is always nullable.
	return arrow.Field{Name: name, Type: t, Nullable: t.ID() == arrow.NULL || r.Float64() >= c.nonNullable}
}

func (c *schemaConfig) dataType(r *rand.Rand, depth int) arrow.DataType {
	var nested []arrow.Type
	if depth > 0 {
		for _, id := range []arrow.Type{arrow.LIST, arrow.MAP, arrow.STRUCT} {
			if !c.exclude[id] {
				nested = append(nested, id)
			}
		}
	}
	if len(nested) > 0 && r.Intn(3) == 0 {
		switch nested[r.Intn(len(nested))] {
		case arrow.LIST:
			return ddl.ListOf(c.dataType(r, depth-1))
		case arrow.MAP:
			return ddl.MapOf(c.keyType(r), c.dataType(r, depth-1))
		default:
			fields := make([]arrow.Field, 1+r.Intn(4))
			for i := range fields {
				fields[i] = c.field(r, "f"+strconv.Itoa(i), depth-1)
			}
			return arrow.StructOf(fields...)
		}
	}
	return c.primitive(r, false)
}

// keyType picks a map key: a primitive other than NULL (keys are non-null).
func (c *schemaConfig) keyType(r *rand.Rand) arrow.DataType {
	return c.primitive(r, true)
}

func (c *schemaConfig) primitive(r *rand.Rand, key bool) arrow.DataType {
	for tries := 0; ; tries++ {
		t := primitiveMakers[r.Intn(len(primitiveMakers))](r)
		if key && t.ID() == arrow.NULL {
			continue
		}
		if !c.exclude[t.ID()] {
			return t
		}
		if tries > 1000 {
			panic("testgen: ExcludeTypes left no primitive type")
		}
	}
}
