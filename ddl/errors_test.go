package ddl

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSyntaxErrorPositions(t *testing.T) {
	cases := []struct {
		in  string
		pos int
		msg string
	}{
		{"a INTT", 3, `unknown type "INTT"`},
		{"a INT, b", 9, "expected a type, found end of input"},
		{"a INT b STRING", 7, `expected "," or end of input after column "a"`},
		{"a ARRAY<INT", 12, `expected ">" after the array element type`},
		{"a ARRAY<INT NOT NULL>", 13, `expected ">"`},
		{"a MAP<INT>", 10, `expected "," after the map key type`},
		{"a DECIMAL(39,0)", 11, "decimal precision 39 is out of range [1, 38]"},
		{"a DECIMAL(0)", 11, "decimal precision 0 is out of range"},
		{"a DECIMAL(5,6)", 13, "decimal scale 6 is out of range [0, 5]"},
		{"a DECIMAL(5,-1)", 13, "unexpected character '-'"},
		{"a STRUCT<x INT,>", 16, "expected a field name"},
		{"`unterminated INT", 1, "unterminated quoted name"},
		{"a INT COMMENT 'open", 15, "unterminated string"},
		{"a INT NOT", 10, "expected NULL after NOT"},
		{"ROW(a BIGINT", 13, `expected "," or ")"`},
		{"ROW(a BIGINT))", 14, "unexpected \")\" after the end of the schema"},
		{"ROW(a FOO)", 7, `unknown type "FOO"`},
		{"struct<a int,b:strin>", 16, `unknown type "strin"`},
		{"struct<a:int", 13, `expected "," or ">"`},
		{"é ARRAY<>", 9, "expected a type"}, // positions count characters, not bytes
		{"a INT;", 6, "unexpected character ';'"},
		{"a VARCHAR(x)", 11, "expected a positive length"},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		var se *SyntaxError
		require.True(t, errors.As(err, &se), "%q: %v", c.in, err)
		assert.Equal(t, c.pos, se.Pos, "%q: %v", c.in, err)
		assert.Contains(t, se.Msg, c.msg, c.in)
		assert.Equal(t, c.in, se.Input)
	}
}

func TestNestingLimit(t *testing.T) {
	// maxDepth types in all: maxDepth-1 arrays around an INT.
	in := "a " + strings.Repeat("ARRAY<", maxDepth-1) + "INT" + strings.Repeat(">", maxDepth-1)
	_, err := Parse(in)
	require.NoError(t, err)
	in = "a " + strings.Repeat("ARRAY<", maxDepth) + "INT" + strings.Repeat(">", maxDepth)
	_, err = Parse(in)
	var se *SyntaxError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, 3+6*maxDepth, se.Pos)
	assert.Contains(t, se.Msg, "nested deeper")
}

func TestParseVeloxAndCatalogDemandTheirKeyword(t *testing.T) {
	_, err := ParseVelox("a BIGINT")
	var se *SyntaxError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, 1, se.Pos)
	_, err = ParseCatalog("ROW(a BIGINT)")
	require.True(t, errors.As(err, &se))
	assert.Equal(t, 1, se.Pos)
	_, err = ParseType("INT INT")
	require.True(t, errors.As(err, &se))
	assert.Equal(t, 5, se.Pos)
}

func TestSyntaxErrorText(t *testing.T) {
	_, err := Parse("a INT, b INTT")
	require.Error(t, err)
	assert.Equal(t, `ddl: column 10: unknown type "INTT"`, err.Error())
	se := err.(*SyntaxError)
	assert.Equal(t, "a INT, b INTT\n         ^", se.Caret())

	_, err = Parse("a INT,\n\tb INTT")
	require.Error(t, err)
	assert.Equal(t, `ddl: line 2, column 4: unknown type "INTT"`, err.Error())
	assert.Equal(t, "\tb INTT\n\t  ^", err.(*SyntaxError).Caret())

	_, err = Parse("a ARRAY<")
	require.Error(t, err)
	assert.Equal(t, "a ARRAY<\n        ^", err.(*SyntaxError).Caret())
}
