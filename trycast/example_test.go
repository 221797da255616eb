package trycast_test

import (
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/trycast"
)

// try_cast of a string column to int32: a value that does not convert
// becomes null instead of failing the cast. The dialects differ on what
// converts: Spark's legacy cast truncates "12.5" to 12, Presto rejects it;
// Presto trims the Unicode space of "\u00a07", Spark does not.
func ExampleCast() {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	b := array.NewStringBuilder(mem)
	b.AppendValues([]string{"42", " -7 ", "12.5", "", "abc", "2147483648", "\u00a07"}, nil)
	b.AppendNull()
	strs := b.NewStringArray()
	b.Release()

	for _, d := range []trycast.Dialect{trycast.Presto, trycast.Spark} {
		ints, err := trycast.Cast(mem, strs, arrow.PrimitiveTypes.Int32, trycast.Options{Dialect: d})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%v nulls=%d\n", ints, ints.NullN())
		ints.Release()
	}

	// CastWithFailures also tells failures apart from null inputs.
	ints, failed, err := trycast.CastWithFailures(mem, strs, arrow.PrimitiveTypes.Int32, trycast.Options{Dialect: trycast.Presto})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("failed rows: %d, the first is row %d (%q)\n", failed.Count, failed.First, strs.Value(failed.First))
	ints.Release()
	strs.Release()
	fmt.Println("bytes still allocated:", mem.CurrentAlloc())
	// Output:
	// [42 -7 (null) (null) (null) (null) 7 (null)] nulls=5
	// [42 -7 12 (null) (null) (null) (null) (null)] nulls=5
	// failed rows: 4, the first is row 2 ("12.5")
	// bytes still allocated: 0
}
