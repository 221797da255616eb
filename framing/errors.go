package framing

import "fmt"

// Error reports a stream that is truncated or malformed: how many complete
// rows were read before the problem and where in the stream it is. Err is
// the sentinel cause (rowbridge.ErrTruncated, ErrLayout, ErrOutOfBounds,
// each an arrow.ErrInvalid), a *CodecError, or the input's own I/O error,
// so errors.Is works through it. An I/O error keeps its own cause and is
// not an arrow.ErrInvalid: the bytes were not read, so nothing says they
// are bad.
type Error struct {
	RowsRead int64 // complete rows read before the problem
	Offset   int64 // stream byte offset of the record or row-group header at fault
	Group    int64 // 0-based row group (Velox framing); -1 for Spark framing
	Msg      string
	Err      error
}

func (e *Error) Error() string {
	where := fmt.Sprintf("stream byte %d", e.Offset)
	if e.Group >= 0 {
		where += fmt.Sprintf(", row group %d", e.Group)
	}
	return fmt.Sprintf("framing: %s, after %d rows read: %s: %v", where, e.RowsRead, e.Msg, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }
