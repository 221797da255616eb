package sparkshuffle_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/sparkshuffle"
)

// Reading one reduce partition of the sample shuffle bundled with rowbridge
// (testdata/sample/shuffle: a Spark local dir with one blockmgr-* folder,
// three map outputs written by Spark's lz4 codec). The files do not record
// the rows' schema, so it is read from the schema.ddl next to them.
func ExampleSet_NewReader() {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	text, err := os.ReadFile("../testdata/sample/shuffle/schema.ddl")
	if err != nil {
		log.Fatal(err)
	}
	schema, err := ddl.Parse(strings.TrimSpace(string(text)))
	if err != nil {
		log.Fatal(err)
	}
	set, err := sparkshuffle.Open("../testdata/sample/shuffle")
	if err != nil {
		log.Fatal(err)
	}
	r, err := set.NewReader(0, schema, sparkshuffle.WithPartition(1), sparkshuffle.WithAllocator(mem))
	if err != nil {
		log.Fatal(err)
	}
	for r.Next() {
		rec := r.RecordBatch() // valid until the next Next
		ids := rec.Column(0).(*array.Int64)
		names := rec.Column(1).(*array.String)
		price, tags := rec.Column(2), rec.Column(3)
		for i := range int(rec.NumRows()) {
			fmt.Printf("%d %-10s price=%s tags=%s\n", ids.Value(i), names.Value(i), price.ValueStr(i), tags.ValueStr(i))
		}
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	r.Release()
	fmt.Println("bytes still allocated:", mem.CurrentAlloc())
	// Output:
	// 2 cappuccino price=3.75 tags=["hot","milk"]
	// 5 matcha     price=(null) tags=(null)
	// 10 cortado    price=3.2 tags=["hot","small","milk"]
	// 11 chai latte price=(null) tags=["hot","milk","spiced"]
	// bytes still allocated: 0
}

// A map output written with NewMapOutputWriter, each row sent to the
// partition given beside it, then found with Open and read back partition by
// partition.
func ExampleNewMapOutputWriter() {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	dir, err := os.MkdirTemp("", "rowbridge-shuffle")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 3, 4, 5}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"Oslo", "Lima", "", "Pune", "Kyiv"}, []bool{true, true, false, true, true})
	batch := b.NewRecordBatch()
	b.Release()

	w, err := sparkshuffle.NewMapOutputWriter(dir, 5, 42, 3, schema)
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(batch, []int32{2, 0, 2, 0, 2}); err != nil { // partition 1 stays empty
		w.Abort()
		log.Fatal(err)
	}
	batch.Release()
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println("rows per partition:", w.PartitionRows())

	set, err := sparkshuffle.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	r, err := set.NewReader(5, schema, sparkshuffle.WithAllocator(mem))
	if err != nil {
		log.Fatal(err)
	}
	for r.Next() {
		fmt.Println(r.RecordBatch().Column(0), r.RecordBatch().Column(1))
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	r.Release()
	fmt.Println("bytes still allocated:", mem.CurrentAlloc())
	// Output:
	// rows per partition: [2 0 3]
	// [2 4] ["Lima" "Pune"]
	// [1 3 5] ["Oslo" (null) "Kyiv"]
	// bytes still allocated: 0
}
