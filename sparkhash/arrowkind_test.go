package sparkhash

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

// TestErrorsWrapArrowSentinels: every constructor and hash error is an
// arrow.ErrInvalid (a bad argument, columns of unequal length, a missing
// buffer) or an arrow.ErrNotImplemented (a type Spark does not hash), as
// arrow-go's own errors are.
func TestErrorsWrapArrowSentinels(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	b := array.NewInt32Builder(mem)
	b.AppendValues([]int32{1, 2, 3}, nil)
	ints := b.NewArray()
	b.Release()
	defer ints.Release()
	second := func(_ any, err error) error { return err }
	hp, err := NewHashPartitioner(4, []int{2})
	require.NoError(t, err)
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)
	times := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.FixedWidthTypes.Time32s}, {Name: "b", Type: arrow.PrimitiveTypes.Int32}, {Name: "c", Type: arrow.PrimitiveTypes.Int32}}, nil)
	for _, tc := range []struct {
		name string
		err  error
		kind error
	}{
		{"NewPartitioner(0)", second(NewPartitioner(0, nil)), arrow.ErrInvalid},
		{"NewHashPartitioner(0)", second(NewHashPartitioner(0, []int{0})), arrow.ErrInvalid},
		{"no keys", second(NewHashPartitioner(4, nil)), arrow.ErrInvalid},
		{"negative key", second(NewHashPartitioner(4, []int{-1})), arrow.ErrInvalid},
		{"round-robin start", second(NewRoundRobinPartitioner(3, 3)), arrow.ErrInvalid},
		{"SparkRoundRobinStart", second(SparkRoundRobinStart(0, 0)), arrow.ErrInvalid},
		{"SparkRoundRobinStartLegacy", second(SparkRoundRobinStartLegacy(0, -1)), arrow.ErrInvalid},
		{"key out of range", hp.CheckSchema(schema), arrow.ErrInvalid},
		{"key type", mustPartitioner(t, 0).CheckSchema(times), arrow.ErrNotImplemented},
		{"Check", Check("col 0", arrow.FixedWidthTypes.Time32s), arrow.ErrNotImplemented},
		{"HashInto lengths", HashInto(make([]int32, 2), []arrow.Array{ints}, Seed), arrow.ErrInvalid},
		{"Fold lengths", Fold(make([]int32, 5), ints), arrow.ErrInvalid},
		{"Hash of no column", second(Hash(mem, nil, Seed)), arrow.ErrInvalid},
	} {
		require.Error(t, tc.err, tc.name)
		require.ErrorIs(t, tc.err, tc.kind, "%s: %v", tc.name, tc.err)
		if tc.kind == arrow.ErrNotImplemented {
			require.ErrorIs(t, tc.err, rowbridge.ErrUnsupportedType, tc.name)
			require.False(t, errors.Is(tc.err, arrow.ErrInvalid), tc.name)
		}
	}
}

func mustPartitioner(t *testing.T, key int) *HashPartitioner {
	t.Helper()
	p, err := NewHashPartitioner(4, []int{key})
	require.NoError(t, err)
	return p
}
