package unsaferow_test

import (
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// Two UnsafeRows as Spark writes them (docs/row-examples.md, E1), decoded
// into one record batch. UnsafeRow bytes carry no types: the schema says
// what they hold.
func ExampleNewDecoder() {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	rows := [][]byte{
		{ // (1, "abc", NULL)
			0x04, 0, 0, 0, 0, 0, 0, 0, // null bitset: field 2
			0x01, 0, 0, 0, 0, 0, 0, 0, // i = 1
			0x03, 0, 0, 0, 0x20, 0, 0, 0, // s: size 3 at offset 32
			0, 0, 0, 0, 0, 0, 0, 0, // b: null
			'a', 'b', 'c', 0, 0, 0, 0, 0,
		},
		{ // (2, "", NULL)
			0x04, 0, 0, 0, 0, 0, 0, 0,
			0x02, 0, 0, 0, 0, 0, 0, 0,
			0x00, 0, 0, 0, 0x20, 0, 0, 0, // s: size 0
			0, 0, 0, 0, 0, 0, 0, 0,
		},
	}

	dec, err := unsaferow.NewDecoder(schema, unsaferow.WithAllocator(mem))
	if err != nil {
		log.Fatal(err)
	}
	rec, err := dec.Decode(rows)
	if err != nil {
		log.Fatal(err)
	}
	for i, col := range rec.Columns() {
		fmt.Printf("%s: %v\n", rec.ColumnName(i), col)
	}
	rec.Release()
	fmt.Println("bytes still allocated:", mem.CurrentAlloc())
	// Output:
	// i: [1 2]
	// s: ["abc" ""]
	// b: [(null) (null)]
	// bytes still allocated: 0
}
