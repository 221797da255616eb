package trycast

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/rowbridge/rowbridge/internal/casttest"
)

// TestPublicCases runs every scalar case of the public case file through
// the scalar conversions and checks the value or NULL.
func TestPublicCases(t *testing.T) {
	cases := loadPublicCases(t)
	ran := 0
	for _, c := range cases {
		got, ok := evalScalarCase(t, c)
		ran++
		if c.Expected == nil {
			if ok {
				t.Errorf("%s: got %v, want NULL", c.Name(), got)
			}
			continue
		}
		if !ok {
			t.Errorf("%s: got NULL, want %v", c.Name(), c.Expected)
			continue
		}
		if !sameResult(t, c, got) {
			t.Errorf("%s: got %v, want %v (days %v micros %v)", c.Name(), got, c.Expected,
				ptrVal(c.ExpectedDays), ptrVal(c.ExpectedMicros))
		}
	}
	if ran != len(cases) {
		t.Fatalf("ran %d of %d cases", ran, len(cases))
	}
}

func ptrVal(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func inputString(t *testing.T, c publicCase) string {
	s, ok := c.Input.(string)
	if !ok {
		t.Fatalf("%s: input %T is not a string", c.Name(), c.Input)
	}
	return s
}

// inputFloat decodes a float input: a number or NaN/Infinity/-Infinity.
func inputFloat(t *testing.T, c publicCase) float64 {
	switch v := c.Input.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			t.Fatalf("%s: %v", c.Name(), err)
		}
		return f
	case string:
		switch v {
		case "NaN":
			return math.NaN()
		case "Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
	}
	t.Fatalf("%s: bad float input %v", c.Name(), c.Input)
	return 0
}

func inputInt(t *testing.T, c publicCase) int64 {
	n, ok := c.Input.(json.Number)
	if !ok {
		t.Fatalf("%s: input %T is not a number", c.Name(), c.Input)
	}
	v, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		t.Fatalf("%s: %v", c.Name(), err)
	}
	return v
}

// evalScalarCase performs the case's conversion and returns the result in
// a comparable form: int64, float64, bool, a decimal string, days or micros.
func evalScalarCase(t *testing.T, c publicCase) (any, bool) {
	d := c.Dialect
	if c.From == "string" {
		s := []byte(inputString(t, c))
		if bits, ok := intBitsOf(c.To); ok {
			return ParseInt(s, bits, d)
		}
		if p, sc, ok := casttest.Decimal(c.To); ok {
			v, ok := ParseDecimal(s, p, sc, d)
			return string(AppendDecimal(nil, v, sc, d)), ok
		}
		switch c.To {
		case "float32":
			return ParseFloat(s, 32, d)
		case "float64":
			return ParseFloat(s, 64, d)
		case "bool":
			return ParseBool(s, d)
		case "date32":
			days, ok := ParseDate(s, d)
			return int64(days), ok
		case "timestamp":
			return ParseTimestamp(s, nil, d)
		}
	}
	if fp, fs, ok := casttest.Decimal(c.From); ok {
		v, ok := ParseDecimal([]byte(inputString(t, c)), fp, fs, Presto)
		if !ok {
			t.Fatalf("%s: decimal input does not parse", c.Name())
		}
		if bits, ok := intBitsOf(c.To); ok {
			return DecimalToInt(v, fs, bits, d)
		}
	}
	if _, ok := intBitsOf(c.From); ok {
		v := inputInt(t, c)
		if bits, ok := intBitsOf(c.To); ok {
			return IntToInt(v, bits, d)
		}
		if p, sc, ok := casttest.Decimal(c.To); ok {
			n, ok := IntToDecimal(v, p, sc, d)
			return string(AppendDecimal(nil, n, sc, d)), ok
		}
	}
	if c.From == "bool" {
		var v int64
		if c.Input.(bool) {
			v = 1
		}
		if p, sc, ok := casttest.Decimal(c.To); ok {
			n, ok := IntToDecimal(v, p, sc, d)
			return string(AppendDecimal(nil, n, sc, d)), ok
		}
	}
	if c.From == "float64" || c.From == "float32" {
		f := inputFloat(t, c)
		if bits, ok := intBitsOf(c.To); ok {
			if c.From == "float32" {
				return Float32ToInt(float32(f), bits, d)
			}
			return FloatToInt(f, bits, d)
		}
		if p, sc, ok := casttest.Decimal(c.To); ok {
			var n any
			var ok bool
			if c.From == "float32" {
				v, k := Float32ToDecimal(float32(f), p, sc, d)
				n, ok = string(AppendDecimal(nil, v, sc, d)), k
			} else {
				v, k := FloatToDecimal(f, p, sc, d)
				n, ok = string(AppendDecimal(nil, v, sc, d)), k
			}
			return n, ok
		}
		switch c.To {
		case "bool":
			return FloatToBool(f, d), true
		case "float32":
			r, ok := DoubleToReal(f, d)
			return float64(r), ok
		}
	}
	t.Fatalf("%s: conversion not covered by the scalar tests", c.Name())
	return nil, false
}

func sameResult(t *testing.T, c publicCase, got any) bool {
	switch c.To {
	case "date32":
		return c.ExpectedDays != nil && got.(int64) == *c.ExpectedDays
	case "timestamp":
		return c.ExpectedMicros != nil && got.(int64) == *c.ExpectedMicros
	case "float32", "float64":
		g := got.(float64)
		switch e := c.Expected.(type) {
		case string:
			switch e {
			case "NaN":
				return math.IsNaN(g)
			case "Infinity":
				return math.IsInf(g, 1)
			case "-Infinity":
				return math.IsInf(g, -1)
			}
			return false
		case json.Number:
			bits := 64
			if c.To == "float32" {
				bits = 32
			}
			w, err := strconv.ParseFloat(string(e), bits)
			return err == nil && w == g
		}
		return false
	case "bool":
		return got == c.Expected
	}
	if _, _, ok := casttest.Decimal(c.To); ok {
		return got == c.Expected
	}
	n, ok := c.Expected.(json.Number)
	if !ok {
		return false
	}
	w, err := strconv.ParseInt(string(n), 10, 64)
	return err == nil && got.(int64) == w
}
