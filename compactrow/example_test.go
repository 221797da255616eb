package compactrow_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/compactrow"
	"github.com/rowbridge/rowbridge/framing"
)

// A Velox-framed stream (row groups, here lz4-compressed) is written with
// NewWriter and read back batch by batch with NewReader. The codec is not
// recorded in the stream: the reader must be told it too. (A group this
// small does not shrink enough and is stored uncompressed, flagged in its
// 9-byte header.)
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
	w, err := compactrow.NewWriter(&stream, schema, compactrow.WithAllocator(mem),
		compactrow.WithFraming(framing.Velox), compactrow.WithCodec(framing.LZ4))
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

	r, err := compactrow.NewReader(&stream, schema, compactrow.WithAllocator(mem),
		compactrow.WithFraming(framing.Velox), compactrow.WithCodec(framing.LZ4), compactrow.WithBatchRows(2))
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
	// stream of 66 bytes
	// batch of 2 rows
	//   id=1 name=alpha
	//   id=2 name=NULL
	// batch of 1 rows
	//   id=3 name=gamma
	// bytes still allocated: 0
}

// Encode turns a record batch into CompactRow bytes, all rows in one buffer.
// A row is its null flags (one bit per field), then the fields in order with
// no padding: fixed-width ones always, a string as a 4-byte little-endian
// length and its bytes, and nothing for a null string.
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

	enc, err := compactrow.NewEncoder(schema, compactrow.WithAllocator(mem))
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
	fmt.Printf("row 0: % x\n", rows.Row(0))
	fmt.Println("bytes still allocated:", mem.CurrentAlloc())
	// Output:
	// row 0: 18 bytes
	// row 1: 9 bytes
	// row 0: 00 07 00 00 00 00 00 00 00 05 00 00 00 68 65 6c 6c 6f
	// bytes still allocated: 0
}
