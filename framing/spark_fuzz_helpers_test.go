package framing

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// fuzzStream is the body of the codec fuzz targets: data read as a stream
// of c must give bytes or a *CodecError, never a panic; and data written
// as a stream of c (with a block size from blockSel) must read back equal.
func fuzzStream(t *testing.T, c Codec, data []byte, blockSel uint16) {
	sr, err := NewStreamReader(bytes.NewReader(data), c, WithMaxZstdWindow(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(io.LimitReader(sr, 64<<20))
	if err != nil {
		var ce *CodecError
		if !errors.As(err, &ce) {
			t.Fatalf("error %v is not a *CodecError", err)
		}
		if ce.Codec != c {
			t.Fatalf("error names codec %v, want %v", ce.Codec, c)
		}
	}
	_ = out
	var opts []StreamOption
	switch c {
	case LZ4:
		opts = append(opts, WithBlockSize(lz4MinBlockSize+int(blockSel)))
	case Snappy:
		opts = append(opts, WithBlockSize(snappyMinBlockSize+int(blockSel)))
	case LZF:
		opts = append(opts, WithBlockSize(1+int(blockSel)))
	}
	var buf bytes.Buffer
	w, err := NewStreamWriter(&buf, c, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	back, err := readStream(t, bytes.NewReader(buf.Bytes()), c)
	if err != nil {
		t.Fatalf("reading back what the writer wrote: %v", err)
	}
	if !bytes.Equal(back, data) {
		t.Fatalf("round trip changed %d bytes into %d", len(data), len(back))
	}
}

// fuzzSeeds adds each codec's streams of a few inputs as seeds.
func fuzzSeeds(f *testing.F, c Codec) {
	f.Add(unhex(f, javaE1[c]), uint16(0))
	f.Add([]byte{}, uint16(1))
	for i, n := range []int{1, 100, 3000} {
		f.Add(writeStream(f, c, sampleData(uint64(i), n), n, blockOpt(c, 1<<10)...), uint16(n))
	}
}
