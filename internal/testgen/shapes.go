package testgen

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/ddl"
)

// Shape is a fixed schema worth testing every codec against. Generate its
// data with RandomBatch(mem, r, s.Schema, rows, s.BatchOptions...).
type Shape struct {
	Name         string
	Schema       *arrow.Schema
	BatchOptions []BatchOption
}

// Shapes returns the fixed cases: shapes that broke other implementations,
// null-bitset word boundaries, and corner cases of nesting and nulls.
func Shapes() []Shape {
	return []Shape{
		// velox#12841: a map whose values are rows holding an array.
		{Name: "velox12841", Schema: mustParse("ROW(MAP(INTEGER, ROW(ARRAY(INTEGER), INTEGER)))")},
		{Name: "allPrimitives", Schema: mustParse("a BOOLEAN, b TINYINT, c SMALLINT, d INT, e BIGINT, f FLOAT, g DOUBLE, " +
			"h DATE, i TIMESTAMP, j TIMESTAMP_NTZ, k DECIMAL(18,4), l DECIMAL(38,10), m STRING, n BINARY, o VOID")},
		// 64 fields fill one null-bitset word; 65 and 130 spill into more.
		{Name: "fields64", Schema: wideSchema(64)},
		{Name: "fields65", Schema: wideSchema(65)},
		{Name: "fields130", Schema: wideSchema(130)},
		// A list of NULL has elements but no element bytes; the next field must still line up.
		{Name: "arrayOfNullThenField", Schema: mustParse("a ARRAY<VOID>, b BIGINT, c STRING")},
		{Name: "onlyNullType", Schema: mustParse("a VOID, b VOID")},
		{Name: "deepNesting", Schema: mustParse("a ARRAY<MAP<STRING, STRUCT<x: ARRAY<ARRAY<INT>>, " +
			"y: STRUCT<z: MAP<BIGINT, ARRAY<STRING>>, w: DECIMAL(30,5)>>>>, b INT")},
		{Name: "nestedListsOfStrings", Schema: mustParse("a ARRAY<ARRAY<ARRAY<STRING>>>")},
		{Name: "mapKeysOfEveryKind", Schema: mustParse("a MAP<STRING, INT>, b MAP<BINARY, STRING>, c MAP<DECIMAL(20,2), DOUBLE>, " +
			"d MAP<BOOLEAN, BOOLEAN>, e MAP<DATE, TIMESTAMP>, f MAP<TINYINT, ARRAY<INT>>, g MAP<DOUBLE, VOID>")},
		{Name: "decimalBoundaries", Schema: mustParse("a DECIMAL(1,0), b DECIMAL(18,0), c DECIMAL(18,18), d DECIMAL(19,0), e DECIMAL(38,0), f DECIMAL(38,38)")},
		{Name: "notNull", Schema: mustParse("a BIGINT NOT NULL, b STRING NOT NULL, c STRUCT<x: INT NOT NULL, y: STRING> NOT NULL, d ARRAY<INT> NOT NULL")},
		{Name: "allNull", Schema: mustParse("a BIGINT, b STRING, c ARRAY<INT>, d MAP<INT, STRING>, e STRUCT<x: INT, y: ARRAY<STRING>>, f DECIMAL(38,2), g VOID"),
			BatchOptions: []BatchOption{WithNullProbability(1)}},
		{Name: "noNulls", Schema: mustParse("a BIGINT, b STRING, c ARRAY<MAP<INT, STRING>>, d STRUCT<x: DECIMAL(12,2), y: BINARY>"),
			BatchOptions: []BatchOption{WithNullProbability(0)}},
		{Name: "emptyContainers", Schema: mustParse("a ARRAY<INT>, b MAP<STRING, STRING>, c ARRAY<ARRAY<STRING>>"),
			BatchOptions: []BatchOption{WithMaxLength(0, 1)}},
		{Name: "structOfStructs", Schema: mustParse("a STRUCT<b: STRUCT<c: STRUCT<d: BIGINT, e: STRING>>, f: DOUBLE>")},
	}
}

// wideSchema cycles through fixed- and variable-width types for n fields.
func wideSchema(n int) *arrow.Schema {
	kinds := []string{"BIGINT", "STRING", "INT", "BOOLEAN", "DOUBLE", "DECIMAL(38,2)", "ARRAY<INT>", "TINYINT"}
	cols := make([]string, n)
	for i := range cols {
		cols[i] = fmt.Sprintf("f%d %s", i, kinds[i%len(kinds)])
	}
	return mustParse(strings.Join(cols, ", "))
}

func mustParse(s string) *arrow.Schema {
	schema, err := ddl.Parse(s)
	if err != nil {
		panic("testgen: " + err.Error())
	}
	return schema
}
