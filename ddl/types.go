package ddl

import "github.com/apache/arrow-go/v18/arrow"

// Field names Spark's ArrowUtils gives the children of lists and maps. Other
// Arrow implementations compare these names, so every package uses them.
const (
	ListElementName = "element"
	MapEntriesName  = "entries"
	MapKeyName      = "key"
	MapValueName    = "value"
)

// CommentKey is the field metadata key holding a column comment.
const CommentKey = "comment"

// ListOf returns the Arrow list type for ARRAY<elem>: one nullable child
// field named "element".
func ListOf(elem arrow.DataType) *arrow.ListType {
	return arrow.ListOfField(arrow.Field{Name: ListElementName, Type: elem, Nullable: true})
}

// MapOf returns the Arrow map type for MAP<key, value>: a non-null "entries"
// struct of a non-null "key" and a nullable "value".
func MapOf(key, value arrow.DataType) *arrow.MapType {
	return arrow.MapOfFields(
		arrow.Field{Name: MapKeyName, Type: key},
		arrow.Field{Name: MapValueName, Type: value, Nullable: true},
	)
}

// Timestamp returns the type of Spark TIMESTAMP: microseconds, UTC.
func Timestamp() *arrow.TimestampType {
	return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
}

// TimestampNTZ returns the type of Spark TIMESTAMP_NTZ: microseconds, no zone.
func TimestampNTZ() *arrow.TimestampType {
	return &arrow.TimestampType{Unit: arrow.Microsecond}
}

// Decimal returns decimal128(precision, scale).
func Decimal(precision, scale int32) *arrow.Decimal128Type {
	return &arrow.Decimal128Type{Precision: precision, Scale: scale}
}

// Decimal limits shared with Spark.
const (
	MaxDecimalPrecision     = 38
	DefaultDecimalPrecision = 10
)
