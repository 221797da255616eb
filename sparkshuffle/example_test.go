package sparkshuffle_test

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// Reading the partitions of a shuffle. The files here are written as a
// Spark map task would write them: one lz4 stream of UnsafeRows per
// non-empty partition, an index, an Adler32 checksum file.
func Example() {
	dir, err := os.MkdirTemp("", "shuffle")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	schema, err := ddl.Parse("id BIGINT, name STRING")
	if err != nil {
		log.Fatal(err)
	}
	writeMapOutput(dir, schema, 3, 12, [][]string{{"a", "b"}, nil, {"c"}})
	writeMapOutput(dir, schema, 3, 7, [][]string{{"d"}, {"e"}, nil})

	set, err := sparkshuffle.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range set.Shuffles() {
		codec, _ := s.SniffCodec()
		fmt.Printf("shuffle %d: %d maps, %d partitions, %v, checksums %v\n", s.ID, len(s.Maps), s.Partitions, codec, s.Algorithms())
	}
	r, err := set.NewReader(3, schema, sparkshuffle.WithPartitions(0, 1))
	if err != nil {
		log.Fatal(err)
	}
	defer r.Release()
	for r.Next() {
		rec := r.RecordBatch()
		ids, names := rec.Column(0).(*array.Int64), rec.Column(1).(*array.String)
		for i := range int(rec.NumRows()) {
			fmt.Println(ids.Value(i), names.Value(i))
		}
	}
	if err := r.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// shuffle 3: 2 maps, 3 partitions, lz4, checksums [ADLER32]
	// 70 d
	// 120 a
	// 121 b
	// 71 e
}

// writeMapOutput writes map mapID's output: partition p holds names[p],
// with ids mapID*10 + position in the map.
func writeMapOutput(dir string, schema *arrow.Schema, shuffle int, mapID int64, names [][]string) {
	var data []byte
	var lengths, sums []int64
	n := 0
	for _, part := range names {
		var seg bytes.Buffer
		if len(part) > 0 {
			b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
			for _, name := range part {
				b.Field(0).(*array.Int64Builder).Append(mapID*10 + int64(n))
				b.Field(1).(*array.StringBuilder).Append(name)
				n++
			}
			rec := b.NewRecordBatch()
			cw, _ := framing.NewStreamWriter(&seg, framing.LZ4)
			w, _ := unsaferow.NewWriter(cw, schema)
			if err := w.Write(rec); err != nil {
				log.Fatal(err)
			}
			w.Close()
			cw.Close()
			rec.Release()
			b.Release()
		}
		data = append(data, seg.Bytes()...)
		lengths = append(lengths, int64(seg.Len()))
		sums = append(sums, sparkshuffle.Adler32.Checksum(seg.Bytes()))
	}
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	write(sparkshuffle.DataName(shuffle, mapID), data)
	write(sparkshuffle.IndexName(shuffle, mapID), sparkshuffle.AppendIndex(nil, lengths))
	write(sparkshuffle.ChecksumName(shuffle, mapID, sparkshuffle.Adler32), sparkshuffle.AppendChecksums(nil, sums))
}
