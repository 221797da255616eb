package framing_test

import (
	"bytes"
	"fmt"
	"io"

	"github.com/rowbridge/rowbridge/framing"
)

// Spark's lz4 stream, written as LZ4CompressionCodec writes it and read
// back by sniffing; two streams back to back read as one.
func ExampleNewStreamReader() {
	var spill bytes.Buffer
	for _, part := range []string{"first spill, ", "second spill"} {
		w, _ := framing.NewStreamWriter(&spill, framing.LZ4)
		_, _ = w.Write([]byte(part))
		_ = w.Close() // the end mark; spill stays open
	}
	fmt.Printf("% x\n", spill.Bytes()[:9])
	r, err := framing.NewStreamReader(&spill, framing.Auto)
	if err != nil {
		panic(err)
	}
	b, err := io.ReadAll(r)
	fmt.Printf("%q %v\n", b, err)
	// Output:
	// 4c 5a 34 42 6c 6f 63 6b 15
	// "first spill, second spill" <nil>
}
