package trycast

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestErrorsWrapArrowSentinels: every error of the package is an
// arrow.ErrInvalid (bad options, a value a strict cast refuses, an output
// too large for its offsets) or an arrow.ErrNotImplemented (a pair it
// does not cast), as arrow-go's own casts' errors are.
func TestErrorsWrapArrowSentinels(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewStringBuilder(mem)
	b.AppendValues([]string{"1", "x"}, nil)
	strs := b.NewArray()
	b.Release()
	defer strs.Release()
	cast := func(to arrow.DataType, opts Options) error {
		out, err := Cast(mem, strs, to, opts)
		if err == nil {
			out.Release()
		}
		return err
	}
	i64 := arrow.PrimitiveTypes.Int64
	for _, tc := range []struct {
		name string
		err  error
		kind error
	}{
		{"no target type", cast(nil, Options{}), arrow.ErrInvalid},
		{"unknown dialect", cast(i64, Options{Dialect: SparkANSI + 1}), arrow.ErrInvalid},
		{"unsupported pair", cast(arrow.FixedWidthTypes.Time32s, Options{}), arrow.ErrNotImplemented},
		{"CheckCast", CheckCast(i64, arrow.FixedWidthTypes.MonthInterval), arrow.ErrNotImplemented},
		{"ValueError", NewValueError(strs, 1, 0, i64, SparkANSI), arrow.ErrInvalid},
		{"OffsetOverflowError", &OffsetOverflowError{Row: 3, Limit: 1 << 31, To: arrow.BinaryTypes.String}, arrow.ErrInvalid},
	} {
		require.Error(t, tc.err, tc.name)
		require.ErrorIs(t, tc.err, tc.kind, "%s: %v", tc.name, tc.err)
		other := arrow.ErrInvalid
		if tc.kind == arrow.ErrInvalid {
			other = arrow.ErrNotImplemented
		}
		require.False(t, errors.Is(tc.err, other), "%s: %v is both kinds", tc.name, tc.err)
	}
	require.NoError(t, cast(i64, Options{Dialect: SparkANSI}), "the last dialect is one")
}
