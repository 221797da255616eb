package ddl

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseTypePrimitives(t *testing.T) {
	cases := map[string]arrow.DataType{
		"BOOLEAN": arrow.FixedWidthTypes.Boolean, "boolean": arrow.FixedWidthTypes.Boolean,
		"TINYINT": arrow.PrimitiveTypes.Int8, "byte": arrow.PrimitiveTypes.Int8,
		"SMALLINT": arrow.PrimitiveTypes.Int16, "Short": arrow.PrimitiveTypes.Int16,
		"INT": arrow.PrimitiveTypes.Int32, "integer": arrow.PrimitiveTypes.Int32,
		"BIGINT": arrow.PrimitiveTypes.Int64, "long": arrow.PrimitiveTypes.Int64,
		"FLOAT": arrow.PrimitiveTypes.Float32, "REAL": arrow.PrimitiveTypes.Float32,
		"DOUBLE":            arrow.PrimitiveTypes.Float64,
		"DATE":              arrow.FixedWidthTypes.Date32,
		"TIMESTAMP":         &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
		"timestamp_ntz":     &arrow.TimestampType{Unit: arrow.Microsecond},
		"DECIMAL":           &arrow.Decimal128Type{Precision: 10, Scale: 0},
		"decimal(5)":        &arrow.Decimal128Type{Precision: 5, Scale: 0},
		"DECIMAL(38,10)":    &arrow.Decimal128Type{Precision: 38, Scale: 10},
		"DECIMAL( 12 , 2 )": &arrow.Decimal128Type{Precision: 12, Scale: 2},
		"DECIMAL(1,1)":      &arrow.Decimal128Type{Precision: 1, Scale: 1},
		"STRING":            arrow.BinaryTypes.String, "VARCHAR": arrow.BinaryTypes.String,
		"varchar(20)": arrow.BinaryTypes.String, "CHAR(3)": arrow.BinaryTypes.String,
		"BINARY": arrow.BinaryTypes.Binary, "VARBINARY": arrow.BinaryTypes.Binary,
		"VOID": arrow.Null, "NULL": arrow.Null, "UNKNOWN": arrow.Null,
	}
	for in, want := range cases {
		got, err := ParseType(in)
		require.NoError(t, err, in)
		assert.True(t, arrow.TypeEqual(want, got), "%s: got %s want %s", in, got, want)
		assert.Equal(t, want.ID(), got.ID(), in)
	}
}

func TestTimestampZones(t *testing.T) {
	ts, err := ParseType("TIMESTAMP")
	require.NoError(t, err)
	assert.Equal(t, "UTC", ts.(*arrow.TimestampType).TimeZone)
	assert.Equal(t, arrow.Microsecond, ts.(*arrow.TimestampType).Unit)
	ntz, err := ParseType("TIMESTAMP_NTZ")
	require.NoError(t, err)
	assert.Equal(t, "", ntz.(*arrow.TimestampType).TimeZone)
	assert.False(t, arrow.TypeEqual(ts, ntz))
}

// The child field names and nullability are what Spark's ArrowUtils produces;
// arrow.TypeEqual ignores list element names, so check them directly.
func TestListAndMapFieldNames(t *testing.T) {
	lt, err := ParseType("ARRAY<INT>")
	require.NoError(t, err)
	l := lt.(*arrow.ListType)
	assert.Equal(t, "element", l.ElemField().Name)
	assert.True(t, l.ElemField().Nullable)
	assert.Equal(t, arrow.INT32, l.Elem().ID())

	mt, err := ParseType("MAP<INT, STRING>")
	require.NoError(t, err)
	m := mt.(*arrow.MapType)
	assert.Equal(t, "entries", m.ElemField().Name)
	assert.False(t, m.ElemField().Nullable)
	assert.Equal(t, "key", m.KeyField().Name)
	assert.False(t, m.KeyField().Nullable)
	assert.Equal(t, "value", m.ItemField().Name)
	assert.True(t, m.ItemField().Nullable)
	assert.Equal(t, arrow.INT32, m.KeyType().ID())
	assert.Equal(t, arrow.STRING, m.ItemType().ID())
	// The entries struct seen through the list-like interface agrees.
	entries := m.Elem().(*arrow.StructType)
	assert.Equal(t, "key", entries.Field(0).Name)
	assert.Equal(t, "value", entries.Field(1).Name)
	assert.Equal(t, "map<int32, utf8, items_nullable>", m.String())
}

func TestParseDDL(t *testing.T) {
	s, err := Parse("a INT, b STRING, c ARRAY<INT>, m MAP<INT,STRING>, s STRUCT<x: INT, y: DECIMAL(38,10)>")
	require.NoError(t, err)
	want := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "c", Type: ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "m", Type: MapOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String), Nullable: true},
		{Name: "s", Type: arrow.StructOf(
			arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			arrow.Field{Name: "y", Type: Decimal(38, 10), Nullable: true},
		), Nullable: true},
	}, nil)
	assertSchemaStrict(t, want, s)
}

func TestParseDDLModifiers(t *testing.T) {
	s, err := ParseDDL("`weird name` INT NOT NULL COMMENT 'it\\'s', b: STRING COMMENT 'say \\'hi\\'' NOT NULL, " +
		"s STRUCT<`x y`: INT NOT NULL, z: STRING COMMENT 'inner'>, `a``b` LONG")
	require.NoError(t, err)
	require.Equal(t, 4, s.NumFields())
	f := s.Field(0)
	assert.Equal(t, "weird name", f.Name)
	assert.False(t, f.Nullable)
	c0, ok := fieldComment(f)
	assert.True(t, ok)
	assert.Equal(t, "it's", c0)
	b := s.Field(1)
	assert.Equal(t, "b", b.Name)
	assert.False(t, b.Nullable)
	c, ok := fieldComment(b)
	assert.True(t, ok)
	assert.Equal(t, "say 'hi'", c)
	st := s.Field(2).Type.(*arrow.StructType)
	assert.Equal(t, "x y", st.Field(0).Name)
	assert.False(t, st.Field(0).Nullable)
	assert.True(t, st.Field(1).Nullable)
	c, _ = fieldComment(st.Field(1))
	assert.Equal(t, "inner", c)
	assert.Equal(t, "a`b", s.Field(3).Name)
	assert.Equal(t, arrow.INT64, s.Field(3).Type.ID())
}

func TestParseCatalog(t *testing.T) {
	s, err := Parse("struct<a:int,b:string,c:array<int>,m:map<int,string>,d:decimal(10,2),n:struct<x:bigint>>")
	require.NoError(t, err)
	want := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "c", Type: ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "m", Type: MapOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String), Nullable: true},
		{Name: "d", Type: Decimal(10, 2), Nullable: true},
		{Name: "n", Type: arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}), Nullable: true},
	}, nil)
	assertSchemaStrict(t, want, s)
	s2, err := ParseCatalog("STRUCT<A:INT>")
	require.NoError(t, err)
	assert.Equal(t, "A", s2.Field(0).Name)
	empty, err := ParseCatalog("struct<>")
	require.NoError(t, err)
	assert.Equal(t, 0, empty.NumFields())
}

func TestParseVelox(t *testing.T) {
	s, err := Parse("ROW(a BIGINT, b VARCHAR, c ARRAY(INTEGER), m MAP(INTEGER, VARCHAR), d DECIMAL(12,2), u UNKNOWN, r ROW(BIGINT, REAL))")
	require.NoError(t, err)
	want := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "c", Type: ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "m", Type: MapOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String), Nullable: true},
		{Name: "d", Type: Decimal(12, 2), Nullable: true},
		{Name: "u", Type: arrow.Null, Nullable: true},
		{Name: "r", Type: arrow.StructOf(
			arrow.Field{Name: "c0", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			arrow.Field{Name: "c1", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		), Nullable: true},
	}, nil)
	assertSchemaStrict(t, want, s)

	unnamed, err := ParseVelox("ROW(BIGINT, VARCHAR, ARRAY(INTEGER), DECIMAL(38, 0), MAP(BIGINT, REAL))")
	require.NoError(t, err)
	names := []string{}
	for _, f := range unnamed.Fields() {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"c0", "c1", "c2", "c3", "c4"}, names)

	// Velox's own printed form ROW<a:BIGINT> and quoted names.
	s3, err := ParseVelox(`ROW<a:BIGINT,"b c":ARRAY<VARCHAR>>`)
	require.NoError(t, err)
	assert.Equal(t, "b c", s3.Field(1).Name)
	assert.Equal(t, arrow.LIST, s3.Field(1).Type.ID())

	// Names that are type keywords.
	s4, err := ParseVelox("ROW(bigint BIGINT, array ARRAY(INTEGER), row ROW(map MAP(INTEGER, INTEGER)))")
	require.NoError(t, err)
	assert.Equal(t, "bigint", s4.Field(0).Name)
	assert.Equal(t, "array", s4.Field(1).Name)
	assert.Equal(t, "map", s4.Field(2).Type.(*arrow.StructType).Field(0).Name)
}

func TestVelox12841Shape(t *testing.T) {
	s, err := Parse("ROW(MAP(INTEGER, ROW(ARRAY(INTEGER), INTEGER)))")
	require.NoError(t, err)
	require.Equal(t, 1, s.NumFields())
	m := s.Field(0).Type.(*arrow.MapType)
	v := m.ItemType().(*arrow.StructType)
	assert.Equal(t, "c0", v.Field(0).Name)
	assert.Equal(t, arrow.LIST, v.Field(0).Type.ID())
	assert.Equal(t, "c1", v.Field(1).Name)
	assert.Equal(t, arrow.INT32, v.Field(1).Type.ID())
}

func TestDetect(t *testing.T) {
	assert.Equal(t, NotationVelox, Detect(" row(a bigint)"))
	assert.Equal(t, NotationVelox, Detect("ROW<a:BIGINT>"))
	assert.Equal(t, NotationCatalog, Detect("struct<a:int>"))
	assert.Equal(t, NotationDDL, Detect("struct STRUCT<a:int>"))
	assert.Equal(t, NotationDDL, Detect("row INT"))
	assert.Equal(t, NotationDDL, Detect("a int"))
	assert.Equal(t, NotationDDL, Detect(""))
	assert.Equal(t, "velox", NotationVelox.String())
}

func TestParseEmptyDDL(t *testing.T) {
	s, err := Parse("  ")
	require.NoError(t, err)
	assert.Equal(t, 0, s.NumFields())
}

func TestDeepNesting(t *testing.T) {
	in := "x ARRAY<MAP<STRING, STRUCT<a: ARRAY<ARRAY<DECIMAL(20,3)>>, b: MAP<BIGINT, ARRAY<BINARY>>>>>"
	s, err := Parse(in)
	require.NoError(t, err)
	out, err := FormatDDL(s)
	require.NoError(t, err)
	assert.Equal(t, in, out)
}
