package framing

import (
	"bytes"
	"io"
	"testing"
)

// benchRowStream is about 4 MiB of Spark-framed rows of the shapes Spark
// shuffles: fixed-width columns with some repetition.
func benchRowStream() []byte {
	rows := makeRows(1, 60000, true)
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Spark, None)
	_ = w.Write(rows)
	return buf.Bytes()
}

func BenchmarkStreamReader(b *testing.B) {
	raw := benchRowStream()
	for _, c := range sparkCodecs {
		stream := writeStream(b, c, raw, 1<<20)
		b.Run(c.String(), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			buf := make([]byte, 64<<10)
			for b.Loop() {
				sr, err := NewStreamReader(bytes.NewReader(stream), c)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{sr}, buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkStreamWriter(b *testing.B) {
	raw := benchRowStream()
	for _, c := range sparkCodecs {
		b.Run(c.String(), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				w, err := NewStreamWriter(io.Discard, c)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := w.Write(raw); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
