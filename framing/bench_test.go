package framing

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/rowbridge/rowbridge"
)

// BenchmarkReader splits 64k rows of 64 bytes in batches of 4096.
func BenchmarkReader(b *testing.B) {
	rows := &rowbridge.Rows{Offsets: []int{0}}
	for i := range 1 << 16 {
		for j := range 64 {
			rows.Data = append(rows.Data, byte(i>>(j%3)))
		}
		rows.Offsets = append(rows.Offsets, len(rows.Data))
	}
	for _, tc := range []struct {
		f Framing
		c Codec
	}{{Spark, None}, {Velox, None}, {Velox, LZ4}, {Velox, Zstd}} {
		var buf bytes.Buffer
		w, _ := NewWriter(&buf, tc.f, tc.c)
		for range 16 { // 16 row groups of 4096 rows
			part := rowbridge.Rows{Data: rows.Data, Offsets: rows.Offsets[:4097]}
			if err := w.Write(&part); err != nil {
				b.Fatal(err)
			}
		}
		stream := buf.Bytes()
		b.Run(fmt.Sprintf("%v/%v", tc.f, tc.c), func(b *testing.B) {
			b.SetBytes(int64(16 * 4096 * 64))
			b.ReportAllocs()
			for b.Loop() {
				rd, _ := NewReader(bytes.NewReader(stream), tc.f, tc.c)
				n := 0
				for {
					got, err := rd.Next(4096)
					n += len(got)
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				if n != 16*4096 {
					b.Fatalf("read %d rows", n)
				}
			}
		})
	}
}
