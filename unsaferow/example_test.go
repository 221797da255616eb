package unsaferow_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// A Spark-framed stream (a 4-byte big-endian size before each row) is
// written with NewWriter and read back batch by batch with NewReader.
func ExampleNewReader() {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)

	b := array.NewRecordBuilder(mem, schema)
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 3}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"alpha", "", "gamma"}, []bool{true, false, true})
	rec := b.NewRecordBatch()
	b.Release()

	var stream bytes.Buffer
	w, err := unsaferow.NewWriter(&stream, schema, unsaferow.WithAllocator(mem))
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	rec.Release()
	fmt.Printf("stream of %d bytes\n", stream.Len())

	r, err := unsaferow.NewReader(&stream, schema, unsaferow.WithAllocator(mem), unsaferow.WithBatchRows(2))
	if err != nil {
		log.Fatal(err)
	}
	for r.Next() {
		batch := r.RecordBatch() // valid until the next Next
		ids := batch.Column(0).(*array.Int64)
		names := batch.Column(1).(*array.String)
		fmt.Printf("batch of %d rows\n", batch.NumRows())
		for i := range int(batch.NumRows()) {
			name := "NULL"
			if names.IsValid(i) {
				name = names.Value(i)
			}
			fmt.Printf("  id=%d name=%s\n", ids.Value(i), name)
		}
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	r.Release()
	fmt.Println("bytes still allocated:", mem.CurrentAlloc())
	// Output:
	// stream of 100 bytes
	// batch of 2 rows
	//   id=1 name=alpha
	//   id=2 name=NULL
	// batch of 1 rows
	//   id=3 name=gamma
	// bytes still allocated: 0
}

// Encode turns a record batch into UnsafeRow bytes, all rows in one buffer.
// Each row is a null bitset word, one 8-byte slot per field, then the
// variable-length bytes, padded to a word; a string slot holds the offset
// (high 32 bits) and size (low 32 bits) of its bytes, little-endian.
func ExampleEncoder_Encode() {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)

	b := array.NewRecordBuilder(mem, schema)
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{7, 8}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"hello", ""}, []bool{true, false})
	rec := b.NewRecordBatch()
	b.Release()

	enc, err := unsaferow.NewEncoder(schema, unsaferow.WithAllocator(mem))
	if err != nil {
		log.Fatal(err)
	}
	rows, err := enc.Encode(rec)
	rec.Release()
	if err != nil {
		log.Fatal(err)
	}
	for i := range rows.Len() {
		fmt.Printf("row %d: %d bytes\n", i, len(rows.Row(i)))
	}
	row0 := rows.Row(0)
	for w := 0; w < len(row0); w += 8 {
		fmt.Printf("  % x\n", row0[w:w+8])
	}
	fmt.Println("bytes still allocated:", mem.CurrentAlloc())
	// Output:
	// row 0: 32 bytes
	// row 1: 24 bytes
	//   00 00 00 00 00 00 00 00
	//   07 00 00 00 00 00 00 00
	//   05 00 00 00 18 00 00 00
	//   68 65 6c 6c 6f 00 00 00
	// bytes still allocated: 0
}
