package framing_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
)

// A Spark shuffle segment's layers: Spark-framed records (a big-endian size
// before each row) inside Spark's lz4 stream (lz4-java's LZ4BlockOutputStream
// blocks). Written with NewWriter over NewStreamWriter, read back with
// NewReader over NewStreamReader.
func ExampleNewStreamWriter() {
	rows := &rowbridge.Rows{}
	for _, r := range []string{"row one", "row two", "three"} {
		rows.Offsets = append(rows.Offsets, len(rows.Data))
		rows.Data = append(rows.Data, r...)
	}
	rows.Offsets = append(rows.Offsets, len(rows.Data))

	var segment bytes.Buffer
	lz4, err := framing.NewStreamWriter(&segment, framing.LZ4)
	if err != nil {
		log.Fatal(err)
	}
	w, err := framing.NewWriter(lz4, framing.Spark, framing.None)
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(rows); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	if err := lz4.Close(); err != nil { // writes lz4-java's end mark
		log.Fatal(err)
	}
	fmt.Printf("magic %q, %d bytes\n", segment.Bytes()[:8], segment.Len())

	plain, err := framing.NewStreamReader(&segment, framing.LZ4)
	if err != nil {
		log.Fatal(err)
	}
	r, err := framing.NewReader(plain, framing.Spark, framing.None)
	if err != nil {
		log.Fatal(err)
	}
	for {
		batch, err := r.Next(2) // the rows alias r's buffer until the next call
		for _, row := range batch {
			fmt.Printf("%q\n", row)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println("rows read:", r.RowsRead())
	// Output:
	// magic "LZ4Block", 73 bytes
	// "row one"
	// "row two"
	// "three"
	// rows read: 3
}
