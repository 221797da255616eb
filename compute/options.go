package compute

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/rowbridge/rowbridge/internal/zonecache"
	"github.com/rowbridge/rowbridge/trycast"
)

// SQLCastOptions configure try_cast and sql_cast.
type SQLCastOptions struct {
	// ToType is the output type; it is required.
	ToType arrow.DataType
	// Dialect selects Presto, Spark (legacy) or Spark ANSI semantics.
	Dialect trycast.Dialect
	// TimeZone is the session zone as an IANA name ("" = UTC): it places
	// strings without a zone cast to timestamp and renders timestamps as text.
	TimeZone string
}

// TypeName names the options type for arrow-go's FunctionOptions.
func (*SQLCastOptions) TypeName() string { return "RowbridgeCastOptions" }

// TryOptions name the function that try evaluates and its options.
type TryOptions struct {
	Func    string
	Options compute.FunctionOptions
}

// TypeName names the options type for arrow-go's FunctionOptions.
func (*TryOptions) TypeName() string { return "TryOptions" }

// castOptions checks the options of try_cast or sql_cast and resolves them
// to trycast options.
func castOptions(name string, opts compute.FunctionOptions) (*SQLCastOptions, trycast.Options, error) {
	o, ok := opts.(*SQLCastOptions)
	if !ok || o == nil {
		return nil, trycast.Options{}, fmt.Errorf("%w: %s needs *compute.SQLCastOptions, got %T", arrow.ErrInvalid, name, opts)
	}
	if o.ToType == nil {
		return nil, trycast.Options{}, fmt.Errorf("%w: %s needs SQLCastOptions.ToType", arrow.ErrInvalid, name)
	}
	loc, err := zonecache.Load(o.TimeZone)
	if err != nil {
		return nil, trycast.Options{}, fmt.Errorf("%w: %s time zone: %v", arrow.ErrInvalid, name, err)
	}
	return o, trycast.Options{Dialect: o.Dialect, TimeZone: loc}, nil
}
