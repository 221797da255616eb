package trycast

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Temporary bodies so dependent packages compile; replaced file by file.

func ParseInt(s []byte, bits int, d Dialect) (int64, bool)     { return 0, false }
func ParseFloat(s []byte, bits int, d Dialect) (float64, bool) { return 0, false }
func ParseBool(s []byte, d Dialect) (v bool, ok bool)          { return false, false }
func ParseDecimal(s []byte, precision, scale int32, d Dialect) (decimal128.Num, bool) {
	return decimal128.Num{}, false
}
func ParseDate(s []byte, d Dialect) (days int32, ok bool) { return 0, false }
func ParseTimestamp(s []byte, loc *time.Location, d Dialect) (micros int64, ok bool) {
	return 0, false
}
func IntToInt(v int64, bits int, d Dialect) (int64, bool)     { return 0, false }
func FloatToInt(v float64, bits int, d Dialect) (int64, bool) { return 0, false }
func IntToDecimal(v int64, precision, scale int32, d Dialect) (decimal128.Num, bool) {
	return decimal128.Num{}, false
}
func FloatToDecimal(v float64, precision, scale int32, d Dialect) (decimal128.Num, bool) {
	return decimal128.Num{}, false
}
func DecimalToInt(v decimal128.Num, scale int32, bits int, d Dialect) (int64, bool) {
	return 0, false
}
func DecimalToFloat(v decimal128.Num, scale int32) float64 { return 0 }
func DecimalToDecimal(v decimal128.Num, fromScale, toPrecision, toScale int32, d Dialect) (decimal128.Num, bool) {
	return decimal128.Num{}, false
}
func AppendInt(dst []byte, v int64, d Dialect) []byte                           { return dst }
func AppendFloat(dst []byte, v float64, bits int, d Dialect) []byte             { return dst }
func AppendBool(dst []byte, v bool, d Dialect) []byte                           { return dst }
func AppendDecimal(dst []byte, v decimal128.Num, scale int32, d Dialect) []byte { return dst }
func AppendDate(dst []byte, days int32, d Dialect) []byte                       { return dst }
func AppendTimestamp(dst []byte, micros int64, loc *time.Location, d Dialect) []byte {
	return dst
}
