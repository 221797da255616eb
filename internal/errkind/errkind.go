// Package errkind makes sentinel causes that are also arrow-go's error
// kinds, as arrow-go's own errors are: errors.Is(err, arrow.ErrInvalid)
// (or arrow.ErrNotImplemented) holds, and the message stays the cause's own.
package errkind

// New returns a sentinel cause whose message is msg and which errors.Is
// also finds to be kind (arrow.ErrInvalid for bad data or a bad argument,
// arrow.ErrNotImplemented for what is not supported).
func New(msg string, kind error) error { return &sentinel{msg, kind} }

type sentinel struct {
	msg  string
	kind error
}

func (s *sentinel) Error() string { return s.msg }
func (s *sentinel) Unwrap() error { return s.kind }
