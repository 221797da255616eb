package trycast

import (
	"fmt"
	"testing"

	"github.com/rowbridge/rowbridge/internal/casttest"
)

// publicCase is one entry of testdata/trycast_cases_public.json (a copy of
// the public case file, format in docs/trycast-cases.md) with its dialect resolved.
type publicCase struct {
	casttest.Case
	Dialect Dialect
}

// Name identifies the case in test output.
func (c publicCase) Name() string {
	return fmt.Sprintf("%s/%s->%s/%q", c.DialectName, c.From, c.To, fmt.Sprint(c.Input))
}

// loadPublicCases reads every public case, with Dialect resolved.
func loadPublicCases(t testing.TB) []publicCase {
	t.Helper()
	all, err := casttest.Load("testdata/trycast_cases_public.json")
	if err != nil {
		t.Fatalf("public cases: %v", err)
	}
	cases := make([]publicCase, len(all))
	for i, c := range all {
		cases[i].Case = c
		switch c.DialectName {
		case "presto":
			cases[i].Dialect = Presto
		case "spark":
			cases[i].Dialect = Spark
		case "spark_ansi":
			cases[i].Dialect = SparkANSI
		default:
			t.Fatalf("case %d: unknown dialect %q", i, c.DialectName)
		}
	}
	if len(cases) == 0 {
		t.Fatal("no public cases")
	}
	return cases
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
