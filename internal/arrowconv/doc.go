// Package arrowconv converts the Arrow types that producers write (pyarrow,
// polars, DuckDB, arrow-go, apache-arrow JS) into the types the row formats
// carry, column by column, before an encoder sees them.
//
// The mapping (RowType) follows what Spark reads for each: timestamps of any
// unit become timestamp[us] with the same time zone, date64 becomes date32,
// large and view strings and binaries become utf8 and binary,
// fixed_size_binary becomes binary, large_list, list_view,
// large_list_view and fixed_size_list become list, dictionaries become
// their (converted) value type, decimal32/64/256 become decimal128, uint8,
// uint16 and uint32 widen to int16, int32 and int64 and uint64 becomes
// decimal128(20, 0) (Spark's Parquet reader), float16 becomes float32. The
// conversions apply inside lists, maps and structs.
//
// A value the target type cannot hold exactly (a timestamp with a part
// below a microsecond, a date64 that is not a midnight) is an error naming
// its row and field, unless truncation is allowed, when it is rounded down
// (towards negative infinity, as Spark's Math.floorDiv does). A value out
// of the target's range (a timestamp beyond ±292,471 years in
// microseconds, a date64 beyond int32 days, a decimal256 beyond 128 bits)
// is always an error. Columns whose type needs no conversion are passed
// through without a copy.
package arrowconv
