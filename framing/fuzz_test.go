package framing

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzReader feeds arbitrary bytes to both framings and every codec: the
// reader must never panic and must fail only with *Error (or io.EOF).
func FuzzReader(f *testing.F) {
	f.Add(byte(0), e1Stream(nil, e1UnsafeRow1, e1UnsafeRow2))
	f.Add(byte(1), e1Stream([]byte{0x50, 0, 0, 0, 0x50, 0, 0, 0, 0}, e1UnsafeRow1, e1UnsafeRow2))
	f.Add(byte(1), e1Stream([]byte{0x2d, 0, 0, 0, 0x2d, 0, 0, 0, 0}, e1CompactRow1, e1CompactRow2))
	for i, c := range allCodecs[1:] {
		f.Add(byte(3+2*i), encode(f, Velox, c, makeRows(1, 5, true)))
	}
	f.Add(byte(1), header(-1, 4, 1))
	f.Add(byte(0), []byte{0xff, 0xff, 0xff, 0xfe, 0})
	f.Fuzz(func(t *testing.T, mode byte, data []byte) {
		fr, c := Framing(mode&1), Codec(mode>>1)%Codec(len(allCodecs))
		if fr == Spark {
			c = None
		}
		rd, err := NewReader(bytes.NewReader(data), fr, c, WithMaxGroupSize(1<<20), WithMaxRowSize(1<<20))
		if err != nil {
			t.Fatal(err)
		}
		drainChecked(t, rd, 3)
	})
}

// drainChecked reads rd n rows at a time to its end: a failure must be a
// *Error that counts the rows returned before it.
func drainChecked(t *testing.T, rd *Reader, n int) {
	t.Helper()
	var total int64
	for {
		rows, err := rd.Next(n)
		total += int64(len(rows))
		if err == io.EOF {
			return
		}
		if err != nil {
			var fe *Error
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *framing.Error", err)
			}
			if fe.RowsRead != total {
				t.Fatalf("error says %d rows read, %d were returned", fe.RowsRead, total)
			}
			return
		}
	}
}
