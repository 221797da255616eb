package sparkhash

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
)

// TypeError reports a column (or nested field) whose Arrow type Spark's hash
// does not accept. It matches arrow.ErrNotImplemented and
// rowbridge.ErrUnsupportedType under errors.Is.
type TypeError struct {
	Path   string         // field path, like "col 2" or "col 0.element.b"
	Type   arrow.DataType // the refused type
	Reason string         // why, and what to do instead
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("sparkhash: %s: type %s cannot be hashed: %s", e.Path, e.Type, e.Reason)
}

// Is makes errors.Is(err, arrow.ErrNotImplemented) and
// errors.Is(err, rowbridge.ErrUnsupportedType) hold.
func (e *TypeError) Is(target error) bool {
	return target == arrow.ErrNotImplemented || target == rowbridge.ErrUnsupportedType
}

// errLength reports columns whose lengths disagree with the output.
var errLength = errors.New("length mismatch")
