package compute

import (
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/zonecache"
	"github.com/rowbridge/rowbridge/trycast"
)

func TestRegisterIdempotent(t *testing.T) {
	reg := compute.NewRegistry()
	for i := 0; i < 2; i++ {
		if err := Register(reg); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	for _, name := range []string{"try_cast", "sql_cast", "try", "spark_hash"} {
		if _, ok := reg.GetFunction(name); !ok {
			t.Errorf("%s not registered", name)
		}
	}
	if err := Register(compute.NewChildRegistry(reg)); err != nil {
		t.Errorf("child of a registry that has them: %v", err)
	}
	other := compute.NewRegistry()
	other.AddFunction(compute.NewMetaFunction("try_cast", compute.Unary(), compute.FunctionDoc{ArgNames: []string{"x"}},
		func(context.Context, compute.FunctionOptions, ...compute.Datum) (compute.Datum, error) {
			return nil, nil
		}), false)
	if err := Register(other); err == nil {
		t.Error("a foreign try_cast was overwritten or accepted")
	}
}

func TestOptionErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := testCtx(t, mem)
	in := fromJSON(t, mem, arrow.BinaryTypes.String, `["1"]`)
	defer in.Release()
	arg := compute.NewDatumWithoutOwning(in)
	for name, opts := range map[string]compute.FunctionOptions{
		"nil":       nil,
		"no type":   &SQLCastOptions{},
		"bad zone":  &SQLCastOptions{ToType: arrow.PrimitiveTypes.Int32, TimeZone: "Mars/Olympus"},
		"wrong opt": &TryOptions{Func: "x"},
		"dialect":   &SQLCastOptions{ToType: arrow.PrimitiveTypes.Int32, Dialect: trycast.SparkANSI + 1},
	} {
		for _, fn := range []string{"try_cast", "sql_cast"} {
			res, err := compute.CallFunction(ctx, fn, opts, arg)
			if err == nil {
				res.Release()
				t.Errorf("%s %s: no error", fn, name)
			} else if !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("%s %s: %v is no arrow.ErrInvalid", fn, name, err)
			}
		}
	}
	res, err := compute.CallFunction(ctx, "try_cast", &SQLCastOptions{ToType: arrow.FixedWidthTypes.Date32}, arg)
	if err != nil {
		t.Fatal(err)
	}
	res.Release()
	if _, err := compute.CallFunction(ctx, "try_cast", &SQLCastOptions{ToType: arrow.FixedWidthTypes.Time32s}, arg); !errors.Is(err, arrow.ErrNotImplemented) {
		t.Errorf("unsupported pair: %v", err)
	}
	if _, err := compute.CallFunction(ctx, "try", &TryOptions{Func: "no_such_function"}, arg); err == nil {
		t.Error("try of an unknown function: no error")
	}
	if _, err := compute.CallFunction(ctx, "try", &SQLCastOptions{}, arg); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("try with cast options: %v, want an arrow.ErrInvalid", err)
	}
}

// TestSessionZoneUsesTrycastCache: the session zone of the options comes
// from trycast's one zone cache (compute kept a second, unbounded one).
func TestSessionZoneUsesTrycastCache(t *testing.T) {
	_, opts, err := castOptions("try_cast", &SQLCastOptions{ToType: arrow.PrimitiveTypes.Int32, TimeZone: "Asia/Kathmandu"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := zonecache.Load("Asia/Kathmandu")
	if err != nil {
		t.Fatal(err)
	}
	if opts.TimeZone != want {
		t.Errorf("session zone %p (%v), want trycast's cached %p", opts.TimeZone, opts.TimeZone, want)
	}
}
