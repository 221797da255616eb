package unsaferow

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/rowopt/rowopttest"
	"github.com/stretchr/testify/require"
)

// constructors builds each of the package's four values from a schema and
// options, releasing what it built.
var constructors = rowopttest.NewConstructors(NewDecoder, NewEncoder, NewReader, NewWriter)

// Every constructor refuses a nil schema and an option with an invalid
// value, with an error wrapping arrow.ErrInvalid that names the option,
// instead of ignoring it or panicking later.
func TestConstructorsRejectInvalidArguments(t *testing.T) {
	rowopttest.RejectsInvalidArguments(t, constructors, WithAllocator, []rowopttest.Invalid[Option]{
		{Name: "batch rows 0", Opt: WithBatchRows(0), Msg: "unsaferow: WithBatchRows(0): want at least 1 row: invalid", To: rowopttest.Reading},
		{Name: "batch rows -1", Opt: WithBatchRows(-1), Msg: "unsaferow: WithBatchRows(-1): want at least 1 row: invalid", To: rowopttest.Reading},
		{Name: "workers 0", Opt: WithWorkers(0), Msg: "unsaferow: WithWorkers(0): want at least 1 goroutine: invalid", To: rowopttest.Reading},
		{Name: "nil allocator", Opt: WithAllocator(nil), Msg: "unsaferow: WithAllocator(nil): want an allocator: invalid", To: rowopttest.All},
		{Name: "nil option", Opt: nil, Msg: "unsaferow: a nil Option: invalid", To: rowopttest.All},
		{Name: "unknown flavor", Opt: WithFlavor(Flavor(7)), Msg: "unsaferow: WithFlavor(Flavor(7)): want Spark or Velox: invalid", To: rowopttest.Encoding},
	})
	// The first bad option is the one reported.
	err := constructors["NewReader"](rowopttest.Schema, WithBatchRows(8), WithWorkers(-2), WithBatchRows(0))
	require.EqualError(t, err, "unsaferow: WithWorkers(-2): want at least 1 goroutine: invalid")
}

// An option given to a constructor it does not apply to is an error
// wrapping arrow.ErrInvalid that names the option and where it applies;
// given where it applies, it is accepted.
func TestConstructorsRejectOptionsThatDoNotApply(t *testing.T) {
	rowopttest.RejectsOptionsThatDoNotApply(t, pkgName, constructors, []rowopttest.Applies[Option]{
		{Name: "WithAllocator", Opt: WithAllocator(memory.NewGoAllocator()), To: rowopttest.All},
		{Name: "WithFraming", Opt: WithFraming(framing.Velox), To: rowopttest.Streams},
		{Name: "WithCodec", Opt: WithCodec(framing.None), To: rowopttest.Streams},
		{Name: "WithBatchRows", Opt: WithBatchRows(16), To: rowopttest.Reading},
		{Name: "WithWorkers", Opt: WithWorkers(2), To: rowopttest.Reading},
		{Name: "WithTruncate", Opt: WithTruncate(), To: rowopttest.Encoding},
		{Name: "WithFlavor", Opt: WithFlavor(Velox), To: rowopttest.Encoding},
	})
}
