package compute

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/trycast"
	"github.com/stretchr/testify/require"
)

// TestCastsTakeDictionaryAndViewStrings: try_cast and sql_cast accept
// dictionary<utf8> and string_view inputs through arrow-go's registry;
// sql_cast's error quotes the failing row's value.
func TestCastsTakeDictionaryAndViewStrings(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := testCtx(t, mem)
	vals, _, err := array.FromJSON(mem, arrow.BinaryTypes.String, strings.NewReader(`["7", "bad"]`))
	require.NoError(t, err)
	defer vals.Release()
	idx, _, err := array.FromJSON(mem, arrow.PrimitiveTypes.Uint8, strings.NewReader(`[0, null, 1, 0]`))
	require.NoError(t, err)
	defer idx.Release()
	dict := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint8, ValueType: arrow.BinaryTypes.String}, idx, vals)
	defer dict.Release()
	vb := array.NewStringViewBuilder(mem)
	defer vb.Release()
	vb.AppendValues([]string{"7", "", "bad", "7"}, []bool{true, false, true, true})
	view := vb.NewArray()
	defer view.Release()

	for _, in := range []arrow.Array{dict, view} {
		opts := &SQLCastOptions{ToType: arrow.PrimitiveTypes.Int64, Dialect: trycast.SparkANSI}
		arg := compute.NewDatum(in)
		defer arg.Release()
		out, err := call(ctx, "try_cast", opts, arg)
		require.NoError(t, err, "%s", in.DataType())
		got := out.(*compute.ArrayDatum).MakeArray()
		require.Equal(t, "[7 (null) (null) 7]", got.String(), "%s", in.DataType())
		got.Release()
		out.Release()

		_, err = call(ctx, "sql_cast", opts, arg)
		require.ErrorContains(t, err, `row 2: cannot cast`, "%s", in.DataType())
		require.ErrorContains(t, err, `value "bad" to int64`, "%s", in.DataType())
	}
}
