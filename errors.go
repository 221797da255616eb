// Package rowbridge moves data between the row formats of Spark (UnsafeRow)
// and Velox (CompactRow) and Apache Arrow.
//
// The codecs live in the unsaferow and compactrow packages, the schema
// language in ddl, the SQL casts in trycast and compute. This package holds
// what they share: the error types and their sentinel causes.
package rowbridge

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/errkind"
)

// Sentinel causes carried by DecodeError and EncodeError. Test for them with
// errors.Is. Each wraps arrow.ErrInvalid, as arrow-go's own errors do for
// bad data, except ErrUnsupportedType, which wraps arrow.ErrNotImplemented;
// their messages are theirs alone.
var (
	// ErrTruncated: the input ends before a value, header or frame it announces.
	ErrTruncated = invalid("truncated input")
	// ErrOutOfBounds: an offset or size points outside the enclosing region.
	ErrOutOfBounds = invalid("offset out of bounds")
	// ErrCount: an element count is negative, too large, or disagrees with another.
	ErrCount = invalid("invalid element count")
	// ErrDecimal: a decimal's byte length or value is invalid for its type.
	ErrDecimal = invalid("invalid decimal")
	// ErrUTF8: a STRING value is not valid UTF-8 (Arrow requires it; declare the column BINARY).
	ErrUTF8 = invalid("string is not valid UTF-8 (declare the column BINARY to keep raw bytes)")
	// ErrLayout: bytes that cannot be a row of the schema (bad size multiple, bad header, ...).
	ErrLayout = invalid("invalid row layout")
	// ErrUnsupportedType: the Arrow type has no row-format representation.
	ErrUnsupportedType = errkind.New("unsupported type", arrow.ErrNotImplemented)
	// ErrValue: a value cannot be represented in the row format (e.g. out of range).
	ErrValue = invalid("value not representable")
	// ErrInternal: a codec found its own state inconsistent (a bug in
	// rowbridge, to be reported); no result is returned with it. It wraps
	// arrow.ErrInvalid: the result would be invalid.
	ErrInternal = invalid("internal error")
)

// invalid is a sentinel cause: its own message, wrapping arrow.ErrInvalid.
func invalid(msg string) error { return errkind.New(msg, arrow.ErrInvalid) }

// DecodeError reports where decoding failed: the row index within the batch
// (or stream), the field path (like "m.value.a" or "arr.element"), and the
// byte offset within the row. Offset is -1 when no byte position applies.
type DecodeError struct {
	Row    int
	Field  string
	Offset int
	Err    error
}

func (e *DecodeError) Error() string {
	msg := fmt.Sprintf("row %d", e.Row)
	if e.Field != "" {
		msg += ", field " + e.Field
	}
	if e.Offset >= 0 {
		msg += fmt.Sprintf(", byte %d", e.Offset)
	}
	return msg + ": " + e.Err.Error()
}

func (e *DecodeError) Unwrap() error { return e.Err }

// Is makes every DecodeError an arrow.ErrInvalid (bytes that are not rows
// of the schema), whatever its cause.
func (e *DecodeError) Is(target error) bool { return target == arrow.ErrInvalid }

// EncodeError reports the row and field path whose value could not be encoded.
type EncodeError struct {
	Row   int
	Field string
	Err   error
}

func (e *EncodeError) Error() string {
	msg := fmt.Sprintf("row %d", e.Row)
	if e.Field != "" {
		msg += ", field " + e.Field
	}
	return msg + ": " + e.Err.Error()
}

func (e *EncodeError) Unwrap() error { return e.Err }

// Is makes an EncodeError an arrow.ErrInvalid (a value the row format
// cannot hold), unless its cause is an arrow.ErrNotImplemented.
func (e *EncodeError) Is(target error) bool {
	return target == arrow.ErrInvalid && !errors.Is(e.Err, arrow.ErrNotImplemented)
}
