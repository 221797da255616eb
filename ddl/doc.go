// Package ddl reads and writes schemas in the notations rowbridge users
// meet: Spark DDL (`a INT, b ARRAY<STRING>`), Spark catalog strings
// (`struct<a:int,b:array<string>>`), Velox type strings
// (`ROW(a INTEGER, b ARRAY(VARCHAR))`) and Spark's StructType JSON (what
// df.schema.json() prints; ParseJSON, FormatJSON). Normalize maps the
// schema of Arrow or Parquet data to the row schema Spark reads it as.
//
// As in Spark, field names must differ ignoring case within each struct,
// at every level; every parser rejects a repeat, pointing at it.
// FormatCatalog prints Spark's catalogString, which says nothing of
// nullability or comments; FormatDDL and FormatJSON keep both, and JSON
// also keeps the nullability of list elements and map values.
//
// Every notation maps to the same Arrow types, following Spark's ArrowUtils:
//
//	BOOLEAN                 bool
//	TINYINT/BYTE            int8
//	SMALLINT/SHORT          int16
//	INT/INTEGER             int32
//	BIGINT/LONG             int64
//	FLOAT/REAL              float32
//	DOUBLE                  float64
//	DATE                    date32
//	TIMESTAMP               timestamp[us, tz=UTC]
//	TIMESTAMP_NTZ           timestamp[us]
//	DECIMAL(p,s)            decimal128(p, s)   (DECIMAL alone is (10,0))
//	STRING/VARCHAR/CHAR(n)  utf8
//	BINARY/VARBINARY        binary
//	ARRAY<T>                list, element field "element" (nullable)
//	MAP<K,V>                map, entries "entries" (non-null) of key (non-null), value (nullable)
//	STRUCT<...>/ROW(...)    struct, fields nullable unless NOT NULL
//	VOID/NULL/UNKNOWN       null
//
// The parser is lenient about mixing: `ARRAY(INT)` is accepted in DDL and
// `ARRAY<INTEGER>` in a Velox string; STRUCT and ROW are synonyms. Field
// comments (`COMMENT '...'`) are kept in the field metadata under "comment".
package ddl
