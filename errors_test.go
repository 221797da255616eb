package rowbridge

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

// sentinels are the package's sentinel causes by name, with the arrow-go
// sentinel each wraps.
var sentinels = map[string]struct {
	err, kind error
}{
	"ErrTruncated":       {ErrTruncated, arrow.ErrInvalid},
	"ErrOutOfBounds":     {ErrOutOfBounds, arrow.ErrInvalid},
	"ErrCount":           {ErrCount, arrow.ErrInvalid},
	"ErrDecimal":         {ErrDecimal, arrow.ErrInvalid},
	"ErrUTF8":            {ErrUTF8, arrow.ErrInvalid},
	"ErrLayout":          {ErrLayout, arrow.ErrInvalid},
	"ErrUnsupportedType": {ErrUnsupportedType, arrow.ErrNotImplemented},
	"ErrValue":           {ErrValue, arrow.ErrInvalid},
	"ErrInternal":        {ErrInternal, arrow.ErrInvalid},
}

// exportedErrVars lists the exported package-level variables named Err...
// declared in the package's non-test files, so that a new sentinel cannot
// be added without this test knowing its arrow-go kind.
func exportedErrVars(t *testing.T) []string {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		require.NoError(t, err)
		files = append(files, f)
	}
	var names []string
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if n.IsExported() && strings.HasPrefix(n.Name, "Err") {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}

// Every error the library returns wraps arrow.ErrInvalid or
// arrow.ErrNotImplemented, as arrow-go's own do: each sentinel cause (its
// message unchanged), and DecodeError and EncodeError whatever their cause.
func TestErrorsWrapArrowSentinels(t *testing.T) {
	names := exportedErrVars(t)
	require.Len(t, names, len(sentinels), "sentinels declared: %v", names)
	for _, name := range names {
		s, ok := sentinels[name]
		require.True(t, ok, "sentinel %s has no arrow-go kind in this test", name)
		require.ErrorIs(t, s.err, s.kind, name)
		other := arrow.ErrInvalid
		if s.kind == arrow.ErrInvalid {
			other = arrow.ErrNotImplemented
		}
		require.NotErrorIs(t, s.err, other, name)
		require.NotContains(t, s.err.Error(), "invalid:", "%s: the message stays the cause's own", name)
	}
	require.Equal(t, "truncated input", ErrTruncated.Error())

	plain := errors.New("some cause")
	de := &DecodeError{Row: 3, Field: "a", Offset: 8, Err: plain}
	require.ErrorIs(t, de, arrow.ErrInvalid)
	require.ErrorIs(t, de, plain)
	require.Equal(t, "row 3, field a, byte 8: some cause", de.Error())
	require.ErrorIs(t, &DecodeError{Err: ErrTruncated}, ErrTruncated)

	ee := &EncodeError{Row: 1, Field: "b", Err: plain}
	require.ErrorIs(t, ee, arrow.ErrInvalid)
	unsupported := &EncodeError{Field: "t", Err: ErrUnsupportedType}
	require.ErrorIs(t, unsupported, arrow.ErrNotImplemented)
	require.NotErrorIs(t, unsupported, arrow.ErrInvalid)
}
