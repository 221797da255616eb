// Command arrowgen writes the Arrow IPC file of the encode memory
// benchmark (scripts/bench-encode-rss, docs/benchmarks.md): record batches
// of ROWS rows each until the file holds about SIZE bytes.
//
//	arrowgen [--size 1GiB-in-bytes] [--batch-rows 65536] [--seed 1] FILE
//
// The columns are those of a typical fact table: a BIGINT key, an INT
// category, a DOUBLE amount, a nullable STRING of 8 to 64 bytes (one in
// sixteen null), a TIMESTAMP and an ARRAY<INT> of 0 to 7 elements. The
// data is deterministic for a seed. On success it prints one line of
// key=value facts for the script: rows, batches, batch_bytes (the Arrow
// buffers of the largest batch, as a reader holds it in memory) and
// file_bytes.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

func main() {
	var o options
	flag.Int64Var(&o.size, "size", 1<<30, "bytes to write, about (the file ends after the batch that reaches it)")
	flag.IntVar(&o.batchRows, "batch-rows", 65536, "rows per record batch")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the data")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: arrowgen [--size N] [--batch-rows N] [--seed N] FILE")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || o.size < 1 || o.batchRows < 1 {
		flag.Usage()
		os.Exit(2)
	}
	o.path = flag.Arg(0)
	facts, err := generate(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "arrowgen:", err)
		os.Exit(1)
	}
	fmt.Println(facts)
}

type options struct {
	size      int64
	batchRows int
	seed      uint64
	path      string
}

// Facts are what the script needs to know of a generated file.
type Facts struct {
	Rows, Batches        int64
	BatchBytes, FileSize int64
}

func (f Facts) String() string {
	return fmt.Sprintf("rows=%d batches=%d batch_bytes=%d file_bytes=%d", f.Rows, f.Batches, f.BatchBytes, f.FileSize)
}

// Schema is the schema of the generated file.
var Schema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "category", Type: arrow.PrimitiveTypes.Int32},
	{Name: "amount", Type: arrow.PrimitiveTypes.Float64},
	{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
	{Name: "codes", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)},
}, nil)

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "

func generate(o options) (Facts, error) {
	var facts Facts
	f, err := os.Create(o.path)
	if err != nil {
		return facts, err
	}
	defer f.Close()
	mem := memory.NewGoAllocator()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(Schema), ipc.WithAllocator(mem))
	if err != nil {
		return facts, err
	}
	rng := rand.New(rand.NewPCG(o.seed, 0x5eed))
	b := array.NewRecordBuilder(mem, Schema)
	defer b.Release()
	var (
		ids   = b.Field(0).(*array.Int64Builder)
		cats  = b.Field(1).(*array.Int32Builder)
		amts  = b.Field(2).(*array.Float64Builder)
		notes = b.Field(3).(*array.StringBuilder)
		tss   = b.Field(4).(*array.TimestampBuilder)
		codes = b.Field(5).(*array.ListBuilder)
		elems = codes.ValueBuilder().(*array.Int32Builder)
		note  = make([]byte, 64)
	)
	const start = 1_700_000_000_000_000 // µs, November 2023
	for written := int64(0); written < o.size; {
		for range o.batchRows {
			ids.Append(facts.Rows)
			cats.Append(rng.Int32N(100))
			amts.Append(float64(rng.IntN(10_000_000)) / 100)
			if rng.IntN(16) == 0 {
				notes.AppendNull()
			} else {
				n := 8 + rng.IntN(57)
				for i := range n {
					note[i] = letters[rng.IntN(len(letters))]
				}
				notes.BinaryBuilder.Append(note[:n])
			}
			tss.Append(arrow.Timestamp(start + facts.Rows*1000 + rng.Int64N(1000)))
			codes.Append(true)
			for range rng.IntN(8) {
				elems.Append(rng.Int32N(1 << 20))
			}
			facts.Rows++
		}
		rec := b.NewRecordBatch()
		facts.BatchBytes = max(facts.BatchBytes, columnar.RecordBytes(rec))
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			return facts, err
		}
		facts.Batches++
		if written, err = f.Seek(0, 1); err != nil {
			return facts, err
		}
	}
	if err := w.Close(); err != nil {
		return facts, err
	}
	fi, err := f.Stat()
	if err != nil {
		return facts, err
	}
	facts.FileSize = fi.Size()
	return facts, f.Close()
}
