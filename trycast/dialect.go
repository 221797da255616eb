// Package trycast converts values between SQL types the way Presto (Velox),
// Spark (legacy, non-ANSI) and Spark ANSI do, without allocating and without
// building an error for a value that does not convert: every conversion
// reports success as a bool, and the array-level casts write a null bit.
package trycast

// Dialect selects whose cast semantics apply.
type Dialect uint8

const (
	// Presto follows Velox's Presto cast semantics.
	Presto Dialect = iota
	// Spark follows Spark's legacy (non-ANSI) CAST.
	Spark
	// SparkANSI follows Spark's ANSI CAST and try_cast.
	SparkANSI
)

func (d Dialect) String() string {
	switch d {
	case Presto:
		return "presto"
	case Spark:
		return "spark"
	case SparkANSI:
		return "spark_ansi"
	}
	return "unknown"
}
