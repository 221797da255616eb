package compute_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	rbcompute "github.com/rowbridge/rowbridge/compute"
)

// Register adds try_cast, sql_cast and try to a registry; here a child of
// arrow-go's global one, so its own functions stay callable too. The
// context carries the registry and the allocator.
func ExampleRegister() {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	reg := compute.NewChildRegistry(compute.GetFunctionRegistry())
	if err := rbcompute.Register(reg); err != nil {
		log.Fatal(err)
	}
	ectx := compute.DefaultExecCtx()
	ectx.Registry = reg
	ctx := compute.WithAllocator(compute.SetExecCtx(context.Background(), ectx), mem)

	in, _, err := array.FromJSON(mem, arrow.BinaryTypes.String, strings.NewReader(`["1", "x", "3"]`))
	if err != nil {
		log.Fatal(err)
	}
	res, err := compute.CallFunction(ctx, "try_cast", &rbcompute.SQLCastOptions{ToType: arrow.PrimitiveTypes.Int32},
		compute.NewDatumWithoutOwning(in))
	in.Release()
	if err != nil {
		log.Fatal(err)
	}
	out := res.(*compute.ArrayDatum).MakeArray()
	res.Release()
	fmt.Println(out.DataType(), out, "nulls:", out.NullN())
	out.Release()
	fmt.Println("bytes still allocated:", mem.CurrentAlloc())
	// Output:
	// int32 [1 (null) 3] nulls: 1
	// bytes still allocated: 0
}

// sql_cast fails on the first value that does not convert (in the Presto
// and Spark ANSI dialects); try around it nulls just the failing rows
// instead, which is what TRY(CAST(...)) means in SQL.
func Example_try() {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	reg := compute.NewChildRegistry(compute.GetFunctionRegistry())
	if err := rbcompute.Register(reg); err != nil {
		log.Fatal(err)
	}
	ectx := compute.DefaultExecCtx()
	ectx.Registry = reg
	ctx := compute.WithAllocator(compute.SetExecCtx(context.Background(), ectx), mem)

	in, _, err := array.FromJSON(mem, arrow.BinaryTypes.String, strings.NewReader(`["10", "ten", null, "-4"]`))
	if err != nil {
		log.Fatal(err)
	}
	arg := compute.NewDatumWithoutOwning(in)
	cast := &rbcompute.SQLCastOptions{ToType: arrow.PrimitiveTypes.Int32}

	if res, err := compute.CallFunction(ctx, "sql_cast", cast, arg); err != nil {
		fmt.Println("sql_cast:", err)
	} else {
		res.Release()
	}
	res, err := compute.CallFunction(ctx, "try", &rbcompute.TryOptions{Func: "sql_cast", Options: cast}, arg)
	in.Release()
	if err != nil {
		log.Fatal(err)
	}
	out := res.(*compute.ArrayDatum).MakeArray()
	res.Release()
	fmt.Println("try(sql_cast):", out)
	out.Release()
	fmt.Println("bytes still allocated:", mem.CurrentAlloc())
	// Output:
	// sql_cast: row 1: cannot cast utf8 value "ten" to int32 (presto)
	// try(sql_cast): [10 (null) (null) -4]
	// bytes still allocated: 0
}
