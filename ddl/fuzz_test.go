package ddl

import (
	"errors"
	"testing"
)

// FuzzParse: Parse never panics, fails only with a *SyntaxError whose
// position lies within the input (or just past it), and what it accepts
// prints and parses back to the same schema.
func FuzzParse(f *testing.F) {
	for _, s := range roundTripDDL {
		f.Add(s)
	}
	for _, s := range roundTripCatalog {
		f.Add(s)
	}
	for _, s := range roundTripVelox {
		f.Add(s)
	}
	f.Add(sparkJSON)
	f.Add(`{"type":"struct","fields":[{"name":"a","type":{"type":"map","keyType":"long","valueType":"void","valueContainsNull":true}}]}`)
	f.Add("a INT, b INTT")
	f.Add("ROW(a DECIMAL(38, 0), `b` ARRAY<INT>)")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: error %T is not a *SyntaxError: %v", in, err, err)
			}
			if se.Pos < 1 || se.Pos > len([]rune(in))+1 {
				t.Fatalf("%q: position %d outside the input", in, se.Pos)
			}
			_ = se.Caret()
			return
		}
		n := Detect(in)
		text, err := Format(s, n)
		if err != nil {
			t.Fatalf("%q: format: %v", in, err)
		}
		back, err := Parse(text)
		if err != nil {
			t.Fatalf("%q -> %q: reparse: %v", in, text, err)
		}
		want := notationView(s, n)
		if !sameSchema(want, back) {
			t.Fatalf("%q -> %q: schema changed\nwant %s\n got %s", in, text, want, back)
		}
		// Every accepted schema also survives DDL, the most complete text
		// notation, up to the nullability of list elements and map values.
		ddl, err := FormatDDL(s)
		if err != nil {
			t.Fatalf("%q: FormatDDL: %v", in, err)
		}
		back, err = Parse(ddl)
		if err != nil || !sameSchema(ddlView(s), back) {
			t.Fatalf("%q -> %q: DDL round trip: %v", in, ddl, err)
		}
	})
}
