package trycast

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// publicCase is one entry of testdata/trycast_cases_public.json (a copy of
// shared/testdata, format in spec §5). JSON numbers stay json.Number so
// int64 extremes keep their exact value.
type publicCase struct {
	Dialect         Dialect `json:"-"`
	DialectName     string  `json:"dialect"`
	From            string  `json:"from"`
	To              string  `json:"to"`
	Input           any     `json:"input"`    // string, json.Number or bool
	Expected        any     `json:"expected"` // nil = NULL; string, json.Number or bool
	ExpectedDays    *int64  `json:"expected_days"`
	ExpectedMicros  *int64  `json:"expected_epoch_micros"`
	PlainCastErrors bool    `json:"plain_cast_errors"`
	Inferred        bool    `json:"inferred"`
	Source          string  `json:"source"`
	Note            string  `json:"note"`
}

// Name identifies the case in test output.
func (c publicCase) Name() string {
	return fmt.Sprintf("%s/%s->%s/%q", c.DialectName, c.From, c.To, fmt.Sprint(c.Input))
}

// loadPublicCases reads every public case, with Dialect resolved.
func loadPublicCases(t testing.TB) []publicCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/trycast_cases_public.json")
	if err != nil {
		t.Fatalf("read public cases: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var cases []publicCase
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("decode public cases: %v", err)
	}
	for i := range cases {
		switch cases[i].DialectName {
		case "presto":
			cases[i].Dialect = Presto
		case "spark":
			cases[i].Dialect = Spark
		case "spark_ansi":
			cases[i].Dialect = SparkANSI
		default:
			t.Fatalf("case %d: unknown dialect %q", i, cases[i].DialectName)
		}
	}
	if len(cases) == 0 {
		t.Fatal("no public cases")
	}
	return cases
}

// decimalTypeOf parses "decimal(p,s)".
func decimalTypeOf(typ string) (precision, scale int32, ok bool) {
	var p, s int32
	if n, err := fmt.Sscanf(typ, "decimal(%d,%d)", &p, &s); n != 2 || err != nil {
		return 0, 0, false
	}
	return p, s, true
}

// intBitsOf maps int8..int64 to a width.
func intBitsOf(typ string) (int, bool) {
	switch typ {
	case "int8":
		return 8, true
	case "int16":
		return 16, true
	case "int32":
		return 32, true
	case "int64":
		return 64, true
	}
	return 0, false
}
