package unsaferow

import (
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// arrowDecimalBug is why decimal test data cannot be built on 32-bit
// platforms: arrow-go v18.8.0's decimal128.FromBigInt and Num.BigInt take
// big.Int's words to be 64 bits (lo = b[0], hi = b[1]), so on 386 every
// decimal built from a big.Int — by decimal128.FromString, the JSON reader
// (array.RecordFromJSON) and testgen's random values — keeps only 32 bits
// of each half. The codec's own decimal code (decimal128.New, Less, Negate,
// and the package's own formatting) does not go through big.Int words.
const arrowDecimalBug = "arrow-go v18.8.0 decimal128.FromBigInt/Num.BigInt assume 64-bit big.Word: " +
	"decimals from strings, JSON or big.Int are truncated on 32-bit platforms"

var arrowDecimalsBroken = strconv.IntSize == 32

// skipArrowDecimals skips a test whose data (built by arrow-go from
// strings, JSON or big.Int) has a decimal somewhere in the schema, on the
// platforms where arrow-go builds those wrong.
func skipArrowDecimals(t testing.TB, schema *arrow.Schema) {
	t.Helper()
	if !arrowDecimalsBroken {
		return
	}
	for _, f := range schema.Fields() {
		if hasDecimal(f.Type) {
			t.Skip(arrowDecimalBug)
		}
	}
}

func hasDecimal(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case *arrow.Decimal128Type:
		return true
	case arrow.NestedType:
		for _, f := range t.Fields() {
			if hasDecimal(f.Type) {
				return true
			}
		}
	}
	return false
}

// portableSchemas are the RandomSchema options that keep decimals out of
// random schemas where arrow-go builds them wrong (see arrowDecimalBug), so
// that the random tests still run there for every other type.
func portableSchemas(opts ...testgen.SchemaOption) []testgen.SchemaOption {
	if arrowDecimalsBroken {
		opts = append(opts, testgen.ExcludeTypes(arrow.DECIMAL128))
	}
	return opts
}
