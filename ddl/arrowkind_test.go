package ddl

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

// TestErrorsWrapArrowSentinels: every error of the package is an
// arrow.ErrInvalid (bad schema text, a bad notation, duplicate names) or
// an arrow.ErrNotImplemented (an Arrow type Spark has no counterpart for),
// as arrow-go's own errors are; a parse error stays a *SyntaxError whose
// message does not change.
func TestErrorsWrapArrowSentinels(t *testing.T) {
	second := func(_ any, err error) error { return err }
	time32 := arrow.NewSchema([]arrow.Field{{Name: "t", Type: arrow.FixedWidthTypes.Time32s}}, nil)
	dup := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}, {Name: "A", Type: arrow.PrimitiveTypes.Int32}}, nil)
	wide := arrow.NewSchema([]arrow.Field{{Name: "d", Type: &arrow.Decimal256Type{Precision: 50, Scale: 2}}}, nil)
	ok := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)
	for _, tc := range []struct {
		name   string
		err    error
		kind   error
		syntax bool
	}{
		{"DDL", second(Parse("a INT,")), arrow.ErrInvalid, true},
		{"DDL type", second(Parse("a DECIMAL(50, 2)")), arrow.ErrInvalid, true},
		{"DDL duplicate", second(Parse("a INT, A INT")), arrow.ErrInvalid, true},
		{"catalog", second(ParseCatalog("a int not nul")), arrow.ErrInvalid, true},
		{"velox", second(ParseVelox("ROW<a:")), arrow.ErrInvalid, true},
		{"JSON", second(ParseJSON(`{"type":"struct","fields":[{"name":"a"}]}`)), arrow.ErrInvalid, true},
		{"ParseType", second(ParseType("MAP<INT>")), arrow.ErrInvalid, true},
		{"Format notation", second(Format(ok, Notation(99))), arrow.ErrInvalid, false},
		{"FormatType notation", second(FormatType(arrow.PrimitiveTypes.Int32, Notation(99))), arrow.ErrInvalid, false},
		{"Format time32", second(Format(time32, NotationDDL)), arrow.ErrNotImplemented, false},
		{"Normalize time32", second(Normalize(time32)), arrow.ErrNotImplemented, false},
		{"Normalize decimal(50)", second(Normalize(wide)), arrow.ErrNotImplemented, false},
		{"Normalize duplicate", second(Normalize(dup)), arrow.ErrInvalid, false},
	} {
		require.Error(t, tc.err, tc.name)
		require.ErrorIs(t, tc.err, tc.kind, "%s: %v", tc.name, tc.err)
		var se *SyntaxError
		require.Equal(t, tc.syntax, errors.As(tc.err, &se), "%s: %v", tc.name, tc.err)
		if tc.syntax {
			require.NotContains(t, tc.err.Error(), "invalid", tc.name)
		}
	}
}
