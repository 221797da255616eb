package ddl

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFormatEachNotation(t *testing.T) {
	s, err := Parse("a INT NOT NULL, `b c` ARRAY<STRING>, m MAP<BIGINT, DOUBLE> COMMENT 'x', " +
		"s STRUCT<t: TIMESTAMP, n: TIMESTAMP_NTZ, d: DECIMAL(12,2)>, z VOID, bin BINARY, f FLOAT, sm SMALLINT, ti TINYINT, dt DATE, bo BOOLEAN")
	require.NoError(t, err)

	ddl, err := FormatDDL(s)
	require.NoError(t, err)
	assert.Equal(t, "a INT NOT NULL, `b c` ARRAY<STRING>, m MAP<BIGINT, DOUBLE> COMMENT 'x', "+
		"s STRUCT<t: TIMESTAMP, n: TIMESTAMP_NTZ, d: DECIMAL(12,2)>, z VOID, bin BINARY, f FLOAT, sm SMALLINT, ti TINYINT, dt DATE, bo BOOLEAN", ddl)

	cat, err := FormatCatalog(s)
	require.NoError(t, err)
	// Spark's catalogString: no NOT NULL, no comments.
	assert.Equal(t, "struct<a:int,`b c`:array<string>,m:map<bigint,double>,"+
		"s:struct<t:timestamp,n:timestamp_ntz,d:decimal(12,2)>,z:void,bin:binary,f:float,sm:smallint,ti:tinyint,dt:date,bo:boolean>", cat)

	vx, err := FormatVelox(s)
	require.NoError(t, err)
	assert.Equal(t, `ROW(a INTEGER, "b c" ARRAY(VARCHAR), m MAP(BIGINT, DOUBLE), `+
		`s ROW(t TIMESTAMP, n TIMESTAMP, d DECIMAL(12, 2)), z UNKNOWN, bin VARBINARY, f REAL, sm SMALLINT, ti TINYINT, dt DATE, bo BOOLEAN)`, vx)

	for n, want := range map[Notation]string{NotationDDL: ddl, NotationCatalog: cat, NotationVelox: vx} {
		got, err := Format(s, n)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
}

func TestFormatType(t *testing.T) {
	typ := MapOf(arrow.BinaryTypes.String, ListOf(Decimal(38, 18)))
	for n, want := range map[Notation]string{
		NotationDDL:     "MAP<STRING, ARRAY<DECIMAL(38,18)>>",
		NotationCatalog: "map<string,array<decimal(38,18)>>",
		NotationVelox:   "MAP(VARCHAR, ARRAY(DECIMAL(38, 18)))",
	} {
		got, err := FormatType(typ, n)
		require.NoError(t, err)
		assert.Equal(t, want, got)
		back, err := ParseType(got)
		require.NoError(t, err)
		assert.True(t, sameType(typ, back), "%s -> %s", got, back)
	}
}

func TestQuoteNames(t *testing.T) {
	cases := map[string][2]string{
		"plain_1": {"plain_1", "plain_1"},
		"a b":     {"`a b`", `"a b"`},
		"a`b":     {"`a``b`", `"a` + "`" + `b"`},
		`a"b`:     {"`a\"b`", `"a""b"`},
		"":        {"``", `""`},
		"123":     {"`123`", `"123"`},
		"é":       {"`é`", `"é"`},
	}
	for name, want := range cases {
		assert.Equal(t, want[0], quoteName(name, '`'), name)
		assert.Equal(t, want[1], quoteName(name, '"'), name)
		s := arrow.NewSchema([]arrow.Field{{Name: name, Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
		for _, n := range []Notation{NotationDDL, NotationCatalog, NotationVelox} {
			text, err := Format(s, n)
			require.NoError(t, err)
			back, err := Parse(text)
			require.NoError(t, err, text)
			assert.Equal(t, name, back.Field(0).Name, text)
		}
	}
}

func TestFormatUnsupported(t *testing.T) {
	bad := []arrow.DataType{
		arrow.PrimitiveTypes.Uint32,
		arrow.BinaryTypes.LargeString,
		&arrow.TimestampType{Unit: arrow.Nanosecond},
		arrow.FixedWidthTypes.Date64,
		arrow.LargeListOf(arrow.PrimitiveTypes.Int32),
		&arrow.Decimal256Type{Precision: 40, Scale: 0},
		&arrow.Decimal128Type{Precision: 39, Scale: 0},
	}
	for _, typ := range bad {
		nested := arrow.NewSchema([]arrow.Field{
			{Name: "ok", Type: arrow.PrimitiveTypes.Int32},
			{Name: "x", Type: arrow.StructOf(arrow.Field{Name: "y", Type: ListOf(typ)})},
		}, nil)
		for _, n := range []Notation{NotationDDL, NotationCatalog, NotationVelox} {
			_, err := Format(nested, n)
			assert.True(t, errors.Is(err, rowbridge.ErrUnsupportedType), "%s in %s: %v", typ, n, err)
			_, err = FormatType(typ, n)
			assert.True(t, errors.Is(err, rowbridge.ErrUnsupportedType), "%s in %s: %v", typ, n, err)
		}
	}
}

var roundTripDDL = []string{
	"",
	"a INT",
	"a BOOLEAN NOT NULL, b TINYINT, c SMALLINT, d INT, e BIGINT, f FLOAT, g DOUBLE, h DATE, i TIMESTAMP, j TIMESTAMP_NTZ",
	"a DECIMAL, b DECIMAL(1,0), c DECIMAL(18,18), d DECIMAL(19,2), e DECIMAL(38,38)",
	"s STRING COMMENT 'a\\nb\\t\\'c\\\\', b BINARY, v VOID",
	"a ARRAY<ARRAY<ARRAY<INT>>>",
	"m MAP<STRING, MAP<INT, ARRAY<STRUCT<x: INT NOT NULL, `y z`: STRING COMMENT 'c'>>>>",
	"s STRUCT<>, t STRUCT<a: STRUCT<b: STRUCT<c: VOID>>>",
	"`` INT, `a``b` INT, `1` INT, `ü` INT",
	"n ARRAY<VOID>, x INT",
}

var roundTripCatalog = []string{
	"struct<>",
	"struct<a:int>",
	"struct<a:int not null,b:string comment 'hi'>",
	"struct<a:array<map<int,string>>,b:struct<c:decimal(38,10),d:timestamp_ntz>,e:void>",
	"STRUCT<A:BIGINT,B:MAP<STRING,ARRAY<BINARY>>>",
	"struct<`a b`:date,`c:d`:timestamp>",
}

var roundTripVelox = []string{
	"ROW()",
	"ROW(BIGINT, VARCHAR)",
	"ROW(a BIGINT, b DOUBLE, c BOOLEAN, d TINYINT, e REAL)",
	"ROW(MAP(INTEGER, ROW(ARRAY(INTEGER), INTEGER)))",
	"ROW(a ARRAY(ARRAY(BIGINT)), m MAP(VARCHAR, VARBINARY), d DECIMAL(12, 2), e DECIMAL(38, 18), u UNKNOWN, t TIMESTAMP, dt DATE)",
	`ROW("x y" ROW(ROW(ROW(SMALLINT))))`,
	"ROW(a BIGINT NOT NULL)",
}

// parse(format(parse(x))) == parse(x), strictly for the Spark notations and
// up to Velox's lost details for Velox.
func TestRoundTrip(t *testing.T) {
	check := func(in string, n Notation) {
		t.Helper()
		s, err := Parse(in)
		require.NoError(t, err, in)
		text, err := Format(s, n)
		require.NoError(t, err, in)
		back, err := Parse(text)
		require.NoError(t, err, "%s -> %s", in, text)
		assertSchemaStrict(t, notationView(s, n), back)
		again, err := Format(back, n)
		require.NoError(t, err)
		assert.Equal(t, text, again)
	}
	for _, in := range roundTripDDL {
		check(in, NotationDDL)
		check(in, NotationCatalog)
		check(in, NotationVelox)
	}
	for _, in := range roundTripCatalog {
		check(in, NotationCatalog)
		check(in, NotationDDL)
		check(in, NotationVelox)
	}
	for _, in := range roundTripVelox {
		check(in, NotationVelox)
		check(in, NotationDDL)
		check(in, NotationCatalog)
	}
}

func TestVeloxTimestampIsLossy(t *testing.T) {
	s, err := Parse("a TIMESTAMP_NTZ")
	require.NoError(t, err)
	vx, err := FormatVelox(s)
	require.NoError(t, err)
	assert.Equal(t, "ROW(a TIMESTAMP)", vx)
	back, err := Parse(vx)
	require.NoError(t, err)
	assert.Equal(t, "UTC", back.Field(0).Type.(*arrow.TimestampType).TimeZone)
}
