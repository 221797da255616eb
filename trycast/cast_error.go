package trycast

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// ValueError is the error of a strict SQL CAST: the first row whose value
// did not convert. errors.Is matches rowbridge.ErrValue and arrow.ErrInvalid.
type ValueError struct {
	// Row is the row index within the whole input (across chunks).
	Row int
	// Value is the input value as text (strings quoted, long ones cut).
	Value   string
	From    arrow.DataType
	To      arrow.DataType
	Dialect Dialect
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("row %d: cannot cast %s value %s to %s (%s)", e.Row, e.From, e.Value, e.To, e.Dialect)
}

func (e *ValueError) Unwrap() []error { return []error{rowbridge.ErrValue, arrow.ErrInvalid} }

// maxQuoted bounds how much of a failing string an error repeats.
const maxQuoted = 64

// NewValueError describes row i of arr failing to cast to to; base is the
// index of arr's first row within the caller's whole input.
func NewValueError(arr arrow.Array, i, base int, to arrow.DataType, d Dialect) *ValueError {
	return &ValueError{Row: base + i, Value: valueText(arr, i), From: arr.DataType(), To: to, Dialect: d}
}

func valueText(arr arrow.Array, i int) string {
	var b []byte
	switch a := arr.(type) {
	case *array.String:
		b = []byte(a.Value(i))
	case *array.LargeString:
		b = []byte(a.Value(i))
	case *array.Binary:
		b = a.Value(i)
	case *array.LargeBinary:
		b = a.Value(i)
	case *array.StringView:
		b = []byte(a.Value(i))
	case *array.BinaryView:
		b = a.Value(i)
	case *array.Dictionary:
		return valueText(a.Dictionary(), a.GetValueIndex(i))
	default:
		if b, ok := columnar.AppendDecimalText(nil, arr, i); ok {
			return string(b)
		}
		return arr.ValueStr(i)
	}
	if len(b) > maxQuoted {
		return strconv.Quote(string(b[:maxQuoted])) + "..."
	}
	return strconv.Quote(string(b))
}

// ErrOffsetOverflow is the cause of an OffsetOverflowError: the output's
// 32-bit offsets cannot address its data.
var ErrOffsetOverflow = errors.New("output data exceeds what 32-bit offsets address")

// OffsetOverflowError reports a cast to string or binary (int32 offsets)
// whose output data would pass Limit bytes (2^31-1) in one array: Row is
// the first top-level row whose value does not fit. Cast to large_string
// or large_binary, or cast smaller pieces. errors.Is matches
// ErrOffsetOverflow and arrow.ErrInvalid.
type OffsetOverflowError struct {
	Row   int
	Limit int64
	To    arrow.DataType
}

func (e *OffsetOverflowError) Error() string {
	return fmt.Sprintf("row %d: cast to %s: %v (%d bytes); cast to the large type or in smaller pieces",
		e.Row, e.To, ErrOffsetOverflow, e.Limit)
}

func (e *OffsetOverflowError) Unwrap() []error { return []error{ErrOffsetOverflow, arrow.ErrInvalid} }
