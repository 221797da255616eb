// Package rowopttest checks how the constructors of unsaferow and compactrow
// treat their options: the checks both packages' option tests share, run
// over each package's own Option values and expected messages.
package rowopttest

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// The constructors an option applies to.
var (
	All      = []string{"NewDecoder", "NewEncoder", "NewReader", "NewWriter"}
	Reading  = []string{"NewReader"}
	Streams  = []string{"NewReader", "NewWriter"}
	Encoding = []string{"NewEncoder", "NewWriter"}
)

// Schema is the one-field schema the checks construct with.
var Schema = arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)

// Constructors builds each of a package's four values from a schema and
// options, by constructor name, releasing what it built.
type Constructors[O any] map[string]func(*arrow.Schema, ...O) error

// NewConstructors returns the Constructors of a package's NewDecoder,
// NewEncoder, NewReader and NewWriter.
func NewConstructors[O, D, E, W any, R interface{ Release() }](
	newDecoder func(*arrow.Schema, ...O) (D, error),
	newEncoder func(*arrow.Schema, ...O) (E, error),
	newReader func(io.Reader, *arrow.Schema, ...O) (R, error),
	newWriter func(io.Writer, *arrow.Schema, ...O) (W, error),
) Constructors[O] {
	return Constructors[O]{
		"NewDecoder": func(s *arrow.Schema, o ...O) error { _, err := newDecoder(s, o...); return err },
		"NewEncoder": func(s *arrow.Schema, o ...O) error { _, err := newEncoder(s, o...); return err },
		"NewReader": func(s *arrow.Schema, o ...O) error {
			r, err := newReader(bytes.NewReader(nil), s, o...)
			if err == nil {
				r.Release()
			}
			return err
		},
		"NewWriter": func(s *arrow.Schema, o ...O) error { _, err := newWriter(&bytes.Buffer{}, s, o...); return err },
	}
}

// Invalid is an option with an invalid value, the whole error it gives and
// the constructors it applies to.
type Invalid[O any] struct {
	Name string
	Opt  O
	Msg  string
	To   []string
}

// RejectsInvalidArguments checks that every constructor refuses a nil
// schema and each bad option where it applies, with an error wrapping
// arrow.ErrInvalid (for bad, exactly Msg), and accepts withAllocator of a
// checked allocator, leaving zero bytes allocated.
func RejectsInvalidArguments[O any](t *testing.T, newX Constructors[O], withAllocator func(memory.Allocator) O, bad []Invalid[O]) {
	for name, newX := range newX {
		t.Run(name, func(t *testing.T) {
			err := newX(nil)
			require.Error(t, err)
			require.True(t, errors.Is(err, arrow.ErrInvalid), "%v", err)
			require.Contains(t, err.Error(), "nil schema")
			for _, tc := range bad {
				if !slices.Contains(tc.To, name) {
					continue
				}
				err := newX(Schema, tc.Opt)
				require.Error(t, err, tc.Name)
				require.True(t, errors.Is(err, arrow.ErrInvalid), "%s: %v", tc.Name, err)
				require.Equal(t, tc.Msg, err.Error(), tc.Name)
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			require.NoError(t, newX(Schema, withAllocator(mem)))
		})
	}
}

// Applies is a valid option, named as its With function, and the
// constructors it applies to.
type Applies[O any] struct {
	Name string
	Opt  O
	To   []string
}

// RejectsOptionsThatDoNotApply checks that each option is accepted by the
// constructors it applies to and refused by the others with an error
// wrapping arrow.ErrInvalid that says, after pkg's prefix, the option does
// not apply to that constructor and where it does.
func RejectsOptionsThatDoNotApply[O any](t *testing.T, pkg string, newX Constructors[O], opts []Applies[O]) {
	for name, newX := range newX {
		for _, o := range opts {
			err := newX(Schema, o.Opt)
			if slices.Contains(o.To, name) {
				require.NoError(t, err, "%s to %s", o.Name, name)
				continue
			}
			require.Error(t, err, "%s to %s", o.Name, name)
			require.True(t, errors.Is(err, arrow.ErrInvalid), "%v", err)
			require.Contains(t, err.Error(), pkg+": "+o.Name+" does not apply to "+name+" (only to ", "%v", err)
		}
	}
}
