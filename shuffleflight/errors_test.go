package shuffleflight_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// TestConstructorErrorsWrapArrowSentinels: every way New refuses its
// arguments or options wraps arrow.ErrInvalid (a type no row format
// carries: arrow.ErrNotImplemented), as arrow-go's own errors do.
func TestConstructorErrorsWrapArrowSentinels(t *testing.T) {
	mem := checkedMem(t)
	fx := writeRandomShuffle(t, mem, 1, 3, 1, 2, framing.None, sparkshuffle.Adler32)
	schemas := map[int]*arrow.Schema{fx.id: fx.schema}
	wide := make([]arrow.Field, 700)
	for i := range wide {
		wide[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: arrow.PrimitiveTypes.Int32}
	}
	time32 := arrow.NewSchema([]arrow.Field{{Name: "t", Type: arrow.FixedWidthTypes.Time32s}}, nil)
	newServer := func(schemas map[int]*arrow.Schema, opts ...shuffleflight.Option) error {
		_, err := shuffleflight.New(fx.set, schemas, opts...)
		return err
	}
	for _, tc := range []struct {
		name string
		err  error
		kind error
	}{
		{"no shuffle", newServer(nil), arrow.ErrInvalid},
		{"nil schema", newServer(map[int]*arrow.Schema{fx.id: nil}), arrow.ErrInvalid},
		{"unknown shuffle", newServer(map[int]*arrow.Schema{fx.id + 1: fx.schema}), arrow.ErrInvalid},
		{"unsupported type", newServer(map[int]*arrow.Schema{fx.id: time32}), arrow.ErrNotImplemented},
		{"no room for a batch", newServer(map[int]*arrow.Schema{fx.id: arrow.NewSchema(wide, nil)}, shuffleflight.WithMaxMessageSize(64<<10)), arrow.ErrInvalid},
		{"WithAllocator(nil)", newServer(schemas, shuffleflight.WithAllocator(nil)), arrow.ErrInvalid},
		{"WithMaxMessageSize", newServer(schemas, shuffleflight.WithMaxMessageSize(10)), arrow.ErrInvalid},
		{"WithToken", newServer(schemas, shuffleflight.WithToken("a b")), arrow.ErrInvalid},
		{"WithLogger(nil)", newServer(schemas, shuffleflight.WithLogger(nil)), arrow.ErrInvalid},
		{"WithLocation", newServer(schemas, shuffleflight.WithLocation("not a uri")), arrow.ErrInvalid},
		{"WithReadOptions", newServer(schemas, shuffleflight.WithReadOptions(sparkshuffle.WithBatchRows(0))), arrow.ErrInvalid},
	} {
		require.Error(t, tc.err, tc.name)
		require.ErrorIs(t, tc.err, tc.kind, "%s: %v", tc.name, tc.err)
	}
	_, err := shuffleflight.New(fx.set, schemas, shuffleflight.WithAllocator(mem))
	require.NoError(t, err, "the same arguments, none of them bad")
}
