package unsaferow

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// Every constructor refuses a nil schema and an option with an invalid
// value, with an error wrapping arrow.ErrInvalid that names the option,
// instead of ignoring it or panicking later.
func TestConstructorsRejectInvalidArguments(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	constructors := map[string]func(*arrow.Schema, ...Option) error{
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
	bad := []struct {
		name string
		opts []Option
		msg  string
	}{
		{"batch rows 0", []Option{WithBatchRows(0)}, "unsaferow: WithBatchRows(0): want at least 1 row: invalid"},
		{"batch rows -1", []Option{WithBatchRows(-1)}, "unsaferow: WithBatchRows(-1): want at least 1 row: invalid"},
		{"workers 0", []Option{WithWorkers(0)}, "unsaferow: WithWorkers(0): want at least 1 goroutine: invalid"},
		{"nil allocator", []Option{WithAllocator(nil)}, "unsaferow: WithAllocator(nil): want an allocator: invalid"},
		{"nil option", []Option{nil}, "unsaferow: a nil Option: invalid"},
		{"first bad one", []Option{WithBatchRows(8), WithWorkers(-2), WithBatchRows(0)}, "unsaferow: WithWorkers(-2): want at least 1 goroutine: invalid"},
		{"unknown flavor", []Option{WithFlavor(Flavor(7))}, "unsaferow: WithFlavor(Flavor(7)): want Spark or Velox: invalid"},
	}
	for name, newX := range constructors {
		t.Run(name, func(t *testing.T) {
			err := newX(nil)
			require.Error(t, err)
			require.True(t, errors.Is(err, arrow.ErrInvalid), "%v", err)
			require.Contains(t, err.Error(), "nil schema")
			for _, tc := range bad {
				err := newX(schema, tc.opts...)
				require.Error(t, err, tc.name)
				require.True(t, errors.Is(err, arrow.ErrInvalid), "%s: %v", tc.name, err)
				require.Equal(t, tc.msg, err.Error(), tc.name)
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			require.NoError(t, newX(schema, WithAllocator(mem), WithBatchRows(1), WithWorkers(1)))
		})
	}
}
