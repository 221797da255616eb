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
)

// Sentinel causes carried by DecodeError and EncodeError. Test for them with
// errors.Is.
var (
	// ErrTruncated: the input ends before a value, header or frame it announces.
	ErrTruncated = errors.New("truncated input")
	// ErrOutOfBounds: an offset or size points outside the enclosing region.
	ErrOutOfBounds = errors.New("offset out of bounds")
	// ErrCount: an element count is negative, too large, or disagrees with another.
	ErrCount = errors.New("invalid element count")
	// ErrDecimal: a decimal's byte length or value is invalid for its type.
	ErrDecimal = errors.New("invalid decimal")
	// ErrUTF8: a STRING value is not valid UTF-8 (Arrow requires it; declare the column BINARY).
	ErrUTF8 = errors.New("string is not valid UTF-8 (declare the column BINARY to keep raw bytes)")
	// ErrLayout: bytes that cannot be a row of the schema (bad size multiple, bad header, ...).
	ErrLayout = errors.New("invalid row layout")
	// ErrUnsupportedType: the Arrow type has no row-format representation.
	ErrUnsupportedType = errors.New("unsupported type")
	// ErrValue: a value cannot be represented in the row format (e.g. out of range).
	ErrValue = errors.New("value not representable")
	// ErrInternal: a codec found its own state inconsistent (a bug in
	// rowbridge, to be reported); no result is returned with it.
	ErrInternal = errors.New("internal error")
)

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
