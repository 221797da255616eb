package compactrow_test

import (
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/compactrow"
)

// Two CompactRows as Velox writes them (docs/row-examples.md, E1 and its
// stream), decoded into one record batch. A null fixed-width field keeps its
// bytes (zeros); a null string would take none.
func ExampleNewDecoder() {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	rows := [][]byte{
		{ // (1, "abc", NULL)
			0x04,       // null flags: field 2
			1, 0, 0, 0, // i = 1
			3, 0, 0, 0, 'a', 'b', 'c', // s: length 3, bytes
			0, 0, 0, 0, 0, 0, 0, 0, // b: null, still 8 bytes
		},
		{ // (2, "", NULL)
			0x04,
			2, 0, 0, 0,
			0, 0, 0, 0, // s: length 0
			0, 0, 0, 0, 0, 0, 0, 0,
		},
	}

	dec, err := compactrow.NewDecoder(schema, compactrow.WithAllocator(mem))
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
