// Package compute registers rowbridge's SQL casts as arrow-go compute
// functions: try_cast, sql_cast and try; and Spark's hash() as spark_hash.
// The conversions themselves live in package trycast, the hash in package
// sparkhash, both usable without a registry.
//
// Build the context's ExecCtx from compute.DefaultExecCtx() when choosing a
// registry (a zero ExecCtx breaks arrow-go's own kernels).
package compute

import (
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

var (
	functionsOnce               sync.Once
	tryCastFn, sqlCastFn, tryFn *compute.MetaFunction
	sparkHashFn                 *compute.MetaFunction
)

// functions builds the three functions once, so that every registry holds
// the same objects and try can recognise its own casts.
func functions() []*compute.MetaFunction {
	functionsOnce.Do(func() {
		tryCastFn = compute.NewMetaFunction("try_cast", compute.Unary(), compute.FunctionDoc{
			Summary:         "Cast values to another type, yielding null where a value does not convert",
			Description:     "The output type comes from SQLCastOptions.ToType; Presto nulls a nested row when an element fails, Spark only the element.",
			ArgNames:        []string{"input"},
			OptionsType:     "RowbridgeCastOptions",
			OptionsRequired: true,
		}, tryCastImpl)
		sqlCastFn = compute.NewMetaFunction("sql_cast", compute.Unary(), compute.FunctionDoc{
			Summary:         "Cast values to another type, failing on the first value that does not convert",
			Description:     "The error names the row index and the value. Spark legacy yields null instead, as its CAST does.",
			ArgNames:        []string{"input"},
			OptionsType:     "RowbridgeCastOptions",
			OptionsRequired: true,
		}, sqlCastImpl)
		tryFn = compute.NewMetaFunction("try", compute.VarArgs(0), compute.FunctionDoc{
			Summary:         "Evaluate a function, yielding null for the rows on which it fails",
			Description:     "TryOptions name the function and its options. sql_cast failures arrive as a bitmap; other element-wise (scalar) functions are retried on halves of the input to isolate the failing rows; others are refused.",
			ArgNames:        []string{"args"},
			OptionsType:     "TryOptions",
			OptionsRequired: true,
		}, tryImpl)
		sparkHashFn = compute.NewMetaFunction("spark_hash", compute.VarArgs(1), compute.FunctionDoc{
			Summary:     "Spark SQL's hash(): Murmur3_x86_32 with seed 42, folded over the arguments left to right",
			Description: "Bit-exact with Spark's Murmur3Hash, so pmod(spark_hash(keys), n) is Spark's HashPartitioning. Int32, never null; a null value leaves the running hash unchanged. Maps, unsigned integers and types Spark cannot hold are refused.",
			ArgNames:    []string{"args"},
		}, sparkHashImpl)
	})
	return []*compute.MetaFunction{tryCastFn, sqlCastFn, tryFn, sparkHashFn}
}

// Register adds try_cast, sql_cast, try and spark_hash to reg. Calling it again on the
// same registry (or a child of one that has them) does nothing; a different
// function already holding one of the names is an error.
func Register(reg compute.FunctionRegistry) error {
	for _, fn := range functions() {
		if have, ok := reg.GetFunction(fn.Name()); ok {
			if have == compute.Function(fn) {
				continue
			}
			return fmt.Errorf("%w: function %q is already registered", arrow.ErrInvalid, fn.Name())
		}
		if !reg.AddFunction(fn, false) {
			return fmt.Errorf("%w: cannot register %q", arrow.ErrInvalid, fn.Name())
		}
	}
	return nil
}
