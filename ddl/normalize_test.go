package ddl

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/arrowconv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNormalizeProducerTypes(t *testing.T) {
	i32 := arrow.PrimitiveTypes.Int32
	nn := func(name string, typ arrow.DataType) arrow.Field { return arrow.Field{Name: name, Type: typ} }
	in := arrow.NewSchema([]arrow.Field{
		{Name: "u8", Type: arrow.PrimitiveTypes.Uint8, Nullable: true, Metadata: arrow.NewMetadata([]string{"PARQUET:field_id", CommentKey}, []string{"1", "c"})},
		nn("u16", arrow.PrimitiveTypes.Uint16),
		nn("u32", arrow.PrimitiveTypes.Uint32),
		nn("u64", arrow.PrimitiveTypes.Uint64),
		nn("f16", arrow.FixedWidthTypes.Float16),
		nn("d64", arrow.FixedWidthTypes.Date64),
		nn("ns", &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "Europe/Paris"}),
		nn("sec", &arrow.TimestampType{Unit: arrow.Second}),
		nn("dec32", &arrow.Decimal32Type{Precision: 9, Scale: 2}),
		nn("dec256", &arrow.Decimal256Type{Precision: 38, Scale: 38}),
		nn("ls", arrow.BinaryTypes.LargeString),
		nn("sv", arrow.BinaryTypes.StringView),
		nn("lb", arrow.BinaryTypes.LargeBinary),
		nn("bv", arrow.BinaryTypes.BinaryView),
		nn("fsb", &arrow.FixedSizeBinaryType{ByteWidth: 16}),
		nn("uuid", extensions.NewUUIDType()),
		nn("dict", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: arrow.BinaryTypes.LargeString}),
		nn("ll", arrow.LargeListOfField(arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Uint8})),
		nn("lv", arrow.ListViewOf(i32)),
		nn("fsl", arrow.FixedSizeListOfNonNullable(3, i32)),
		nn("l", arrow.ListOf(arrow.Null)),
		nn("m", arrow.MapOf(arrow.BinaryTypes.LargeString, arrow.PrimitiveTypes.Uint32)),
		nn("s", arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Uint16, Nullable: true})),
	}, nil)
	got, err := Normalize(in)
	require.NoError(t, err)
	want, err := ParseDDL("u8 SMALLINT COMMENT 'c', u16 INT NOT NULL, u32 BIGINT NOT NULL, u64 DECIMAL(20,0) NOT NULL, " +
		"f16 FLOAT NOT NULL, d64 DATE NOT NULL, ns TIMESTAMP NOT NULL, sec TIMESTAMP_NTZ NOT NULL, dec32 DECIMAL(9,2) NOT NULL, " +
		"dec256 DECIMAL(38,38) NOT NULL, ls STRING NOT NULL, sv STRING NOT NULL, lb BINARY NOT NULL, bv BINARY NOT NULL, " +
		"fsb BINARY NOT NULL, uuid BINARY NOT NULL, dict STRING NOT NULL, ll ARRAY<SMALLINT> NOT NULL, lv ARRAY<INT> NOT NULL, " +
		"fsl ARRAY<INT> NOT NULL, l ARRAY<VOID> NOT NULL, m MAP<STRING, BIGINT> NOT NULL, s STRUCT<x: INT> NOT NULL")
	require.NoError(t, err)
	// The zone is kept; elements keep their nullability.
	fields := want.Fields()
	fields[6].Type = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Paris"}
	fields[17].Type = arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int16})
	fields[19].Type = arrow.ListOfField(arrow.Field{Name: "element", Type: i32})
	assertSchemaStrict(t, arrow.NewSchema(fields, nil), got)

	// What ddl parses is already normal.
	again, err := Normalize(got)
	require.NoError(t, err)
	assertSchemaStrict(t, got, again)
}

func TestNormalizeRejects(t *testing.T) {
	cases := []struct {
		typ arrow.DataType
		msg string
	}{
		{arrow.FixedWidthTypes.Time32ms, "ddl: field s.t: arrow type time32[ms] has no Spark type: unsupported type"},
		{arrow.FixedWidthTypes.Duration_s, "ddl: field s.t: arrow type duration[s] has no Spark type: unsupported type"},
		{arrow.FixedWidthTypes.MonthInterval, "ddl: field s.t: arrow type month_interval has no Spark type: unsupported type"},
		{&arrow.Decimal256Type{Precision: 40, Scale: 2}, "ddl: field s.t: arrow type decimal256(40, 2): Spark's decimals have at most 38 digits and a scale in [0, precision]: unsupported type"},
		{arrow.SparseUnionOf([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int8}}, []arrow.UnionTypeCode{0}), "ddl: field s.t: arrow type sparse_union<a: type=int8=0> has no Spark type: unsupported type"},
	}
	for _, tc := range cases {
		s := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "t", Type: tc.typ})}}, nil)
		_, err := Normalize(s)
		require.Error(t, err, tc.typ)
		assert.True(t, errors.Is(err, rowbridge.ErrUnsupportedType))
		assert.Equal(t, tc.msg, err.Error())
	}
	_, err := Normalize(arrow.NewSchema([]arrow.Field{{Name: "Id", Type: arrow.PrimitiveTypes.Int8}, {Name: "ID", Type: arrow.PrimitiveTypes.Int8}}, nil))
	require.EqualError(t, err, `ddl: field ID: duplicate field name "ID": Spark ignores case in names, and "Id" comes before it`)
	_, err = Normalize(arrow.NewSchema([]arrow.Field{{Name: "l", Type: arrow.ListOf(arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int8}, arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int8}))}}, nil))
	require.EqualError(t, err, `ddl: field l.element.a: duplicate field name "a"`)
}

// TestNormalizeLeavesAreTheEncodersTypes: for every non-nested producer
// type, the row schema Normalize gives is the type the Encoders convert
// the data to (internal/arrowconv), so a file's schema read with
// --schema @file encodes without a mismatch.
func TestNormalizeLeavesAreTheEncodersTypes(t *testing.T) {
	for _, dt := range []arrow.DataType{
		arrow.Null, arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16,
		arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16,
		arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64, arrow.FixedWidthTypes.Float16,
		arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64,
		&arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}, &arrow.TimestampType{Unit: arrow.Microsecond},
		&arrow.TimestampType{Unit: arrow.Nanosecond}, &arrow.Decimal32Type{Precision: 9, Scale: 3},
		&arrow.Decimal64Type{Precision: 18, Scale: 0}, &arrow.Decimal128Type{Precision: 38, Scale: 10},
		&arrow.Decimal256Type{Precision: 30, Scale: 5}, arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString,
		arrow.BinaryTypes.StringView, arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeBinary,
		arrow.BinaryTypes.BinaryView, &arrow.FixedSizeBinaryType{ByteWidth: 16},
	} {
		got, err := Normalize(arrow.NewSchema([]arrow.Field{{Name: "x", Type: dt, Nullable: true}}, nil))
		require.NoError(t, err, "%s", dt)
		want, err := arrowconv.RowType(dt, "x")
		require.NoError(t, err, "%s", dt)
		assert.True(t, arrow.TypeEqual(want, got.Field(0).Type), "%s: Normalize %s, Encoders %s", dt, got.Field(0).Type, want)
	}
}
