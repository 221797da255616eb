package trycast

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestStringInputsProducersWrite: string_view, binary_view and
// dictionary-encoded strings (any index type, any string value type) cast
// as their dense values do, failures and the failing value's text included.
func TestStringInputsProducersWrite(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	long := "a value longer than twelve bytes"
	vals := []any{" 12 ", "x", nil, "", "-7", long}
	wantJSON := `[12, null, null, null, -7, null]`
	var inputs []arrow.Array
	defer func() {
		for _, a := range inputs {
			a.Release()
		}
	}()
	for _, dt := range []arrow.DataType{arrow.BinaryTypes.StringView, arrow.BinaryTypes.BinaryView} {
		inputs = append(inputs, stringArray(t, mem, dt, vals))
	}
	for _, it := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Int64} {
		for _, vt := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.Binary} {
			d := stringArray(t, mem, vt, []any{"-7", " 12 ", "x", "", long})
			idx, _, err := array.FromJSON(mem, it, strings.NewReader(`[1, 2, null, 3, 0, 4]`))
			require.NoError(t, err)
			inputs = append(inputs, array.NewDictionaryArray(&arrow.DictionaryType{IndexType: it, ValueType: vt}, idx, d))
			idx.Release()
			d.Release()
		}
	}
	want, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Int32, strings.NewReader(wantJSON))
	require.NoError(t, err)
	defer want.Release()
	for _, in := range inputs {
		require.True(t, CanCast(in.DataType(), arrow.PrimitiveTypes.Int32), "%s", in.DataType())
		out, f, err := CastWithFailures(mem, in, arrow.PrimitiveTypes.Int32, Options{Dialect: SparkANSI})
		require.NoError(t, err, "%s", in.DataType())
		require.NoError(t, array.ValidateFull(out))
		require.True(t, array.Equal(want, out), "%s: got %v", in.DataType(), out)
		require.Equal(t, 1, f.First, "%s", in.DataType())
		require.Equal(t, 3, f.Count, "%s", in.DataType()) // "x", "", the long one; the null row is no failure
		require.Equal(t, `"x"`, NewValueError(in, f.First, 0, arrow.PrimitiveTypes.Int32, SparkANSI).Value)
		out.Release()

		// To utf8: the dense values themselves.
		s, err := Cast(mem, in, arrow.BinaryTypes.String, Options{})
		require.NoError(t, err, "%s", in.DataType())
		require.Equal(t, "a value longer than twelve bytes", s.(*array.String).Value(5))
		s.Release()
	}
	require.False(t, CanCast(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.PrimitiveTypes.Int32},
		arrow.PrimitiveTypes.Int64), "dictionaries of other types are not read")
}

// stringArray builds an array of dt (a string or binary type) from vals,
// nil being null.
func stringArray(t *testing.T, mem memory.Allocator, dt arrow.DataType, vals []any) arrow.Array {
	t.Helper()
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for _, v := range vals {
		if v == nil {
			b.AppendNull()
			continue
		}
		switch b := b.(type) {
		case *array.StringBuilder:
			b.Append(v.(string))
		case *array.LargeStringBuilder:
			b.Append(v.(string))
		case *array.StringViewBuilder:
			b.Append(v.(string))
		case *array.BinaryBuilder:
			b.Append([]byte(v.(string)))
		case *array.BinaryViewBuilder:
			b.Append([]byte(v.(string)))
		}
	}
	return b.NewArray()
}
