package casttest

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// OtherInputs are valid values of the case source type from, in the form
// of a case input, to surround a case's input in an array. Not all of them
// convert to every target: callers keep those that do.
func OtherInputs(from string) []any {
	num := func(ss ...string) []any {
		out := make([]any, len(ss))
		for i, s := range ss {
			out[i] = json.Number(s)
		}
		return out
	}
	switch {
	case from == "string":
		return []any{"0", "1", "-7", "0.25", "12.5", "true", "false", "1970-01-01", "2024-02-29",
			"2001-08-22 03:04:05.321", "t", "f"}
	case from == "bool":
		return []any{false, true}
	case strings.HasPrefix(from, "int"):
		return num("0", "1", "-7", "100")
	case strings.HasPrefix(from, "float"):
		return num("0", "1.5", "-2.25", "100")
	case strings.HasPrefix(from, "decimal"):
		return []any{"0", "1", "-2", "0.5", "-1.25"}
	}
	return nil
}

// Append appends v, a case input (string, json.Number or bool; for float
// types also "NaN", "Infinity" or "-Infinity"; for decimals an exact
// decimal string), to b as a value of b's type.
func Append(b array.Builder, v any) error {
	switch b := b.(type) {
	case *array.StringBuilder:
		s, ok := v.(string)
		if ok {
			b.Append(s)
			return nil
		}
	case *array.LargeStringBuilder:
		s, ok := v.(string)
		if ok {
			b.Append(s)
			return nil
		}
	case *array.BinaryBuilder:
		s, ok := v.(string)
		if ok {
			b.Append([]byte(s))
			return nil
		}
	case *array.BooleanBuilder:
		x, ok := v.(bool)
		if ok {
			b.Append(x)
			return nil
		}
	case *array.Int8Builder:
		x, err := intOf(v, 8)
		if err == nil {
			b.Append(int8(x))
		}
		return err
	case *array.Int16Builder:
		x, err := intOf(v, 16)
		if err == nil {
			b.Append(int16(x))
		}
		return err
	case *array.Int32Builder:
		x, err := intOf(v, 32)
		if err == nil {
			b.Append(int32(x))
		}
		return err
	case *array.Int64Builder:
		x, err := intOf(v, 64)
		if err == nil {
			b.Append(x)
		}
		return err
	case *array.Float32Builder:
		x, err := floatOf(v, 32)
		if err == nil {
			b.Append(float32(x))
		}
		return err
	case *array.Float64Builder:
		x, err := floatOf(v, 64)
		if err == nil {
			b.Append(x)
		}
		return err
	case *array.Decimal128Builder:
		dt := b.Type().(*arrow.Decimal128Type)
		s, ok := v.(string)
		if !ok {
			break
		}
		n, err := ParseDecimal(s, dt.Precision, dt.Scale)
		if err == nil {
			b.Append(n)
		}
		return err
	default:
		return fmt.Errorf("no case input for %s", b.Type())
	}
	return fmt.Errorf("%s cannot hold case input %#v", b.Type(), v)
}

func intOf(v any, bits int) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("integer input %#v", v)
	}
	return strconv.ParseInt(string(n), 10, bits)
}

func floatOf(v any, bits int) (float64, error) {
	switch v := v.(type) {
	case json.Number:
		return strconv.ParseFloat(string(v), bits)
	case string:
		switch v {
		case "NaN":
			return math.NaN(), nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		}
	}
	return 0, fmt.Errorf("float input %#v", v)
}

// ParseDecimal is the exact decimal string s ("-12.5") as an unscaled
// decimal128 of the given precision and scale; digits the scale cannot hold
// or a value the precision cannot are an error (nothing is rounded).
func ParseDecimal(s string, precision, scale int32) (decimal128.Num, error) {
	t := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	whole, frac, _ := strings.Cut(t, ".")
	frac = strings.TrimRight(frac, "0")
	if whole == "" && frac == "" || len(frac) > int(scale) || strings.Trim(whole+frac, "0123456789") != "" {
		return decimal128.Num{}, fmt.Errorf("decimal %q does not fit scale %d", s, scale)
	}
	digits := whole + frac + strings.Repeat("0", int(scale)-len(frac))
	var v big.Int
	if _, ok := v.SetString(digits, 10); !ok {
		return decimal128.Num{}, fmt.Errorf("decimal %q", s)
	}
	if strings.HasPrefix(s, "-") {
		v.Neg(&v)
	}
	if v.BitLen() > 127 {
		return decimal128.Num{}, fmt.Errorf("decimal %q does not fit precision %d", s, precision)
	}
	n := testgen.Decimal128(&v) // decimal128.FromBigInt is wrong on 386
	if !n.FitsInPrecision(precision) {
		return decimal128.Num{}, fmt.Errorf("decimal %q does not fit precision %d", s, precision)
	}
	return n, nil
}

// CheckRow is nil when row i of out is the case's expected result: NULL
// when Expected is nil, else the expected value (dates and timestamps by
// expected_days and expected_epoch_micros, decimals exactly, floats
// exactly with NaN and infinities by name).
func CheckRow(c Case, out arrow.Array, i int) error {
	if c.Expected == nil {
		if out.IsValid(i) {
			return fmt.Errorf("row %d is %s, want NULL", i, out.ValueStr(i))
		}
		return nil
	}
	if out.IsNull(i) {
		return fmt.Errorf("row %d is NULL, want %v", i, c.Expected)
	}
	ok, err := false, error(nil)
	switch a := out.(type) {
	case *array.Int8:
		ok, err = intIs(c.Expected, int64(a.Value(i)))
	case *array.Int16:
		ok, err = intIs(c.Expected, int64(a.Value(i)))
	case *array.Int32:
		ok, err = intIs(c.Expected, int64(a.Value(i)))
	case *array.Int64:
		ok, err = intIs(c.Expected, a.Value(i))
	case *array.Float32:
		ok, err = floatIs(c.Expected, float64(a.Value(i)), 32)
	case *array.Float64:
		ok, err = floatIs(c.Expected, a.Value(i), 64)
	case *array.Boolean:
		want, isBool := c.Expected.(bool)
		ok, err = isBool && want == a.Value(i), nil
		if !isBool {
			err = fmt.Errorf("expected %#v is not a bool", c.Expected)
		}
	case *array.Date32:
		if c.ExpectedDays == nil {
			return fmt.Errorf("case has no expected_days")
		}
		ok = int64(a.Value(i)) == *c.ExpectedDays
	case *array.Timestamp:
		if c.ExpectedMicros == nil {
			return fmt.Errorf("case has no expected_epoch_micros")
		}
		if unit := a.DataType().(*arrow.TimestampType).Unit; unit != arrow.Microsecond {
			return fmt.Errorf("timestamp unit %s, want us", unit)
		}
		ok = int64(a.Value(i)) == *c.ExpectedMicros
	case *array.Decimal128:
		dt := a.DataType().(*arrow.Decimal128Type)
		s, isString := c.Expected.(string)
		if !isString {
			return fmt.Errorf("expected %#v is not a decimal string", c.Expected)
		}
		var want decimal128.Num
		if want, err = ParseDecimal(s, dt.Precision, dt.Scale); err == nil {
			ok = want == a.Value(i)
		}
	default:
		return fmt.Errorf("no check for %s results", out.DataType())
	}
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("row %d is %s, want %v", i, out.ValueStr(i), c.Expected)
	}
	return nil
}

func intIs(want any, got int64) (bool, error) {
	w, err := intOf(want, 64)
	return err == nil && w == got, err
}

func floatIs(want any, got float64, bits int) (bool, error) {
	w, err := floatOf(want, bits)
	if err != nil {
		return false, err
	}
	if math.IsNaN(w) {
		return math.IsNaN(got), nil
	}
	return w == got, nil
}
