// Package casttest is test support for trycast and compute: it reads the
// public try_cast cases (docs/trycast-cases.md), names the Arrow type of each case type,
// builds case inputs and other values of their types, checks results
// against a case, and readies allocation-count tests. Only tests import it; it cannot
// import trycast, whose own tests use it.
package casttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// Case is one entry of the cases file. JSON numbers stay json.Number so
// int64 extremes keep their exact value.
type Case struct {
	DialectName     string `json:"dialect"`
	From            string `json:"from"`
	To              string `json:"to"`
	Input           any    `json:"input"`    // string, json.Number or bool
	Expected        any    `json:"expected"` // nil = NULL; string, json.Number or bool
	ExpectedDays    *int64 `json:"expected_days"`
	ExpectedMicros  *int64 `json:"expected_epoch_micros"`
	PlainCastErrors bool   `json:"plain_cast_errors"`
	Inferred        bool   `json:"inferred"`
	Source          string `json:"source"`
	Note            string `json:"note"`
}

// Load reads every case of the file at path.
func Load(path string) ([]Case, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var cases []Case
	if err := dec.Decode(&cases); err != nil {
		return nil, fmt.Errorf("decode %s: %w", path, err)
	}
	return cases, nil
}

// arrowTypes are the Arrow types of the case type names but decimal(p,s).
var arrowTypes = map[string]arrow.DataType{
	"string":    arrow.BinaryTypes.String,
	"bool":      arrow.FixedWidthTypes.Boolean,
	"int8":      arrow.PrimitiveTypes.Int8,
	"int16":     arrow.PrimitiveTypes.Int16,
	"int32":     arrow.PrimitiveTypes.Int32,
	"int64":     arrow.PrimitiveTypes.Int64,
	"float32":   arrow.PrimitiveTypes.Float32,
	"float64":   arrow.PrimitiveTypes.Float64,
	"date32":    arrow.FixedWidthTypes.Date32,
	"timestamp": &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"},
}

// ArrowType is the Arrow type of a case type name; a name the cases do
// not use fails the test.
func ArrowType(t testing.TB, name string) arrow.DataType {
	t.Helper()
	if dt, ok := arrowTypes[name]; ok {
		return dt
	}
	if p, s, ok := Decimal(name); ok {
		return &arrow.Decimal128Type{Precision: p, Scale: s}
	}
	t.Fatalf("unknown case type %q", name)
	return nil
}

// Decimal parses the case type "decimal(p,s)".
func Decimal(name string) (precision, scale int32, ok bool) {
	var p, s int32
	if n, err := fmt.Sscanf(name, "decimal(%d,%d)", &p, &s); n != 2 || err != nil {
		return 0, 0, false
	}
	return p, s, true
}
