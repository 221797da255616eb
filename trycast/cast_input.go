package trycast

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/arrowconv"
)

// Inputs that producers write for strings (pyarrow's and polars'
// string_view, dictionary-encoded columns) are cast through their dense
// utf8 or binary form: the views are gathered, or the dictionary's values
// gathered by the indices, once per array and column by column, and the
// kernels run on the result.

// denseInput returns the dense type an input of type from is cast
// through: utf8 for string_view and dictionaries of strings, binary for
// binary_view and dictionaries of binaries; false for any other type.
func denseInput(from arrow.DataType) (arrow.DataType, bool) {
	switch t := from.(type) {
	case *arrow.StringViewType:
		return arrow.BinaryTypes.String, true
	case *arrow.BinaryViewType:
		return arrow.BinaryTypes.Binary, true
	case *arrow.DictionaryType:
		switch t.ValueType.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
			return arrow.BinaryTypes.String, true
		case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
			return arrow.BinaryTypes.Binary, true
		}
	}
	return nil, false
}

// densify returns in in its dense form (see denseInput), a new reference.
func densify(mem memory.Allocator, in arrow.ArrayData) (arrow.ArrayData, error) {
	a := array.MakeFromData(in)
	defer a.Release()
	out, err := arrowconv.ConvertArray(mem, a, false)
	if err != nil {
		return nil, fmt.Errorf("%w: try_cast input %s: %v", arrow.ErrInvalid, in.DataType(), err)
	}
	d := out.Data()
	d.Retain()
	out.Release()
	return d, nil
}
