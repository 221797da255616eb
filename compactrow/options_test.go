package compactrow

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/stretchr/testify/require"
)

// constructors builds each of the package's four values from a schema and
// options, releasing what it built.
var constructors = map[string]func(*arrow.Schema, ...Option) error{
	"NewDecoder": func(s *arrow.Schema, o ...Option) error { _, err := NewDecoder(s, o...); return err },
	"NewEncoder": func(s *arrow.Schema, o ...Option) error { _, err := NewEncoder(s, o...); return err },
	"NewReader": func(s *arrow.Schema, o ...Option) error {
		r, err := NewReader(bytes.NewReader(nil), s, o...)
		if err == nil {
			r.Release()
		}
		return err
	},
	"NewWriter": func(s *arrow.Schema, o ...Option) error { _, err := NewWriter(&bytes.Buffer{}, s, o...); return err },
}

var (
	all       = []string{"NewDecoder", "NewEncoder", "NewReader", "NewWriter"}
	reading   = []string{"NewReader"}
	streams   = []string{"NewReader", "NewWriter"}
	encoding  = []string{"NewEncoder", "NewWriter"}
	optSchema = arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
)

// Every constructor refuses a nil schema and an option with an invalid
// value, with an error wrapping arrow.ErrInvalid that names the option,
// instead of ignoring it or panicking later.
func TestConstructorsRejectInvalidArguments(t *testing.T) {
	bad := []struct {
		name string
		opt  Option
		msg  string
		to   []string // the constructors the option applies to
	}{
		{"batch rows 0", WithBatchRows(0), "compactrow: WithBatchRows(0): want at least 1 row: invalid", reading},
		{"batch rows -1", WithBatchRows(-1), "compactrow: WithBatchRows(-1): want at least 1 row: invalid", reading},
		{"workers 0", WithWorkers(0), "compactrow: WithWorkers(0): want at least 1 goroutine: invalid", reading},
		{"nil allocator", WithAllocator(nil), "compactrow: WithAllocator(nil): want an allocator: invalid", all},
		{"nil option", nil, "compactrow: a nil Option: invalid", all},
	}
	for name, newX := range constructors {
		t.Run(name, func(t *testing.T) {
			err := newX(nil)
			require.Error(t, err)
			require.True(t, errors.Is(err, arrow.ErrInvalid), "%v", err)
			require.Contains(t, err.Error(), "nil schema")
			for _, tc := range bad {
				if !slices.Contains(tc.to, name) {
					continue
				}
				err := newX(optSchema, tc.opt)
				require.Error(t, err, tc.name)
				require.True(t, errors.Is(err, arrow.ErrInvalid), "%s: %v", tc.name, err)
				require.Equal(t, tc.msg, err.Error(), tc.name)
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			require.NoError(t, newX(optSchema, WithAllocator(mem)))
		})
	}
	// The first bad option is the one reported.
	err := constructors["NewReader"](optSchema, WithBatchRows(8), WithWorkers(-2), WithBatchRows(0))
	require.EqualError(t, err, "compactrow: WithWorkers(-2): want at least 1 goroutine: invalid")
}

// An option given to a constructor it does not apply to is an error
// wrapping arrow.ErrInvalid that names the option and where it applies;
// given where it applies, it is accepted.
func TestConstructorsRejectOptionsThatDoNotApply(t *testing.T) {
	opts := []struct {
		name string
		opt  Option
		to   []string
	}{
		{"WithAllocator", WithAllocator(memory.NewGoAllocator()), all},
		{"WithFraming", WithFraming(framing.Velox), streams},
		{"WithCodec", WithCodec(framing.None), streams},
		{"WithBatchRows", WithBatchRows(16), reading},
		{"WithWorkers", WithWorkers(2), reading},
		{"WithTruncate", WithTruncate(), encoding},
	}
	for name, newX := range constructors {
		for _, o := range opts {
			err := newX(optSchema, o.opt)
			if slices.Contains(o.to, name) {
				require.NoError(t, err, "%s to %s", o.name, name)
				continue
			}
			require.Error(t, err, "%s to %s", o.name, name)
			require.True(t, errors.Is(err, arrow.ErrInvalid), "%v", err)
			require.Contains(t, err.Error(), "compactrow: "+o.name+" does not apply to "+name+" (only to ", "%v", err)
		}
	}
}
