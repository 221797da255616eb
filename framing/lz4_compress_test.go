package framing

import (
	"bytes"
	"math/rand"
	"os"
	"testing"

	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"
)

// pierrecBlock is what github.com/pierrec/lz4/v4's fast compressor (the
// writer's before lz4Compressor) makes of src, nil where it would have
// written the block raw.
func pierrecBlock(t testing.TB, src []byte) []byte {
	t.Helper()
	var c lz4.Compressor
	dst := make([]byte, lz4.CompressBlockBound(len(src)))
	n, err := c.CompressBlock(src, dst)
	if err != nil {
		t.Fatalf("pierrec/lz4: %v", err)
	}
	return dst[:n]
}

// ourBlock is what c makes of src, checked to expand back to it.
func ourBlock(t testing.TB, c *lz4Compressor, src []byte) []byte {
	t.Helper()
	dst := make([]byte, lz4CompressBound(len(src)))
	for i := range dst {
		dst[i] = 0xA5 // stale bytes must not leak into the block
	}
	n := c.compress(src, dst)
	back := make([]byte, len(src))
	m, err := lz4.UncompressBlock(dst[:n], back)
	if err != nil || m != len(src) || !bytes.Equal(back, src) {
		t.Fatalf("block of %d bytes does not expand back (%d bytes, %v)", len(src), m, err)
	}
	return dst[:n]
}

// compressibleInputs are inputs of every kind the compressor meets:
// random bytes, runs, small alphabets, repeated records with changing
// fields, at sizes around the format's limits (13 to 15 bytes, where the
// last literals start) and blocks above 64 KiB (the window).
func compressibleInputs(r *rand.Rand) [][]byte {
	var ins [][]byte
	sizes := []int{0, 1, 4, 5, 12, 13, 14, 15, 16, 17, 20, 31, 64, 255, 270, 1000, 4096, 32 << 10, 65535, 65536, 65537, 100000, 200000}
	for _, n := range sizes {
		random := make([]byte, n)
		r.Read(random)
		zeros := make([]byte, n)
		alpha := make([]byte, n)
		for i := range alpha {
			alpha[i] = "ab"[r.Intn(2)]
		}
		words := make([]byte, 0, n)
		for len(words) < n {
			words = append(words, []string{"spark ", "shuffle ", "row ", "bridge ", "\x00\x00\x00\x07"}[r.Intn(5)]...)
		}
		words = words[:n]
		records := make([]byte, 0, n)
		for i := 0; len(records) < n; i++ {
			// An UnsafeRow-like record: a length, a null bitset, fixed
			// fields that count, a field that is random.
			records = append(records, 0, 0, 0, 48, 0, 0, 0, 0, 0, 0, 0, 0, byte(i), byte(i>>8), 0, 0, 0, 0, 0, 0)
			records = append(records, byte(r.Intn(256)), byte(r.Intn(4)), 0, 0, 0, 0, 0, 0)
			records = append(records, bytes.Repeat([]byte{byte(i % 7)}, 20)...)
		}
		records = records[:n]
		mixed := bytes.Clone(records)
		if n > 0 {
			copy(mixed[n/2:], random[:n/4])
		}
		ins = append(ins, random, zeros, alpha, words, records, mixed)
	}
	return ins
}

// TestLZ4CompressMatchesPierrec: our compressor makes the very blocks
// pierrec/lz4's fast compressor made, on random and compressible inputs
// of many sizes, with one compressor reused across all of them (its table
// of other blocks must not change a block), and the blocks expand back.
func TestLZ4CompressMatchesPierrec(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	c := new(lz4Compressor)
	for i, src := range compressibleInputs(r) {
		want := pierrecBlock(t, src)
		got := ourBlock(t, c, src)
		if len(want) == 0 {
			// pierrec gives up (returns 0) only where the block would
			// not be smaller; then the writer writes it raw either way.
			require.GreaterOrEqual(t, len(got), len(src), "input %d (%d bytes)", i, len(src))
			continue
		}
		require.True(t, bytes.Equal(want, got), "input %d (%d bytes): %d bytes, pierrec %d", i, len(src), len(got), len(want))
	}
}

// TestLZ4WriterStreamsMatchPierrec: whole lz4-java streams of the writer,
// 32 KiB blocks, are the blocks pierrec made, block by block.
func TestLZ4WriterStreamsMatchPierrec(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	var data []byte
	for _, in := range compressibleInputs(r) {
		data = append(data, in...)
	}
	stream := writeStream(t, LZ4, data, 10000)
	for b, at := stream, 0; len(b) > lz4HeaderSize; {
		clen := int(uint32(b[9]) | uint32(b[10])<<8 | uint32(b[11])<<16 | uint32(b[12])<<24)
		ulen := int(uint32(b[13]) | uint32(b[14])<<8 | uint32(b[15])<<16 | uint32(b[16])<<24)
		src := data[at : at+ulen]
		want := pierrecBlock(t, src)
		if len(want) == 0 || len(want) >= len(src) {
			require.Equal(t, byte(lz4MethodRaw), b[8]&0xF0, "block at %d", at)
			require.Equal(t, src, b[lz4HeaderSize:lz4HeaderSize+clen])
		} else {
			require.Equal(t, byte(lz4MethodLZ4), b[8]&0xF0, "block at %d", at)
			require.True(t, bytes.Equal(want, b[lz4HeaderSize:lz4HeaderSize+clen]), "block at %d", at)
		}
		at += ulen
		b = b[lz4HeaderSize+clen:]
	}
	back, err := readStream(t, bytes.NewReader(stream), LZ4)
	require.NoError(t, err)
	require.True(t, bytes.Equal(data, back))
}

// FuzzLZ4Compress: any input compresses to the block pierrec made and
// round-trips through the lz4 stream reader, alone and after a block of
// other bytes (so the table holds entries of another block).
func FuzzLZ4Compress(f *testing.F) {
	r := rand.New(rand.NewSource(4))
	for _, in := range compressibleInputs(r) {
		if len(in) <= 4096 {
			f.Add(in, uint16(len(in)/3))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		c := new(lz4Compressor)
		cut := min(int(split), len(data))
		for _, src := range [][]byte{data[:cut], data[cut:], data} {
			want := pierrecBlock(t, src)
			got := ourBlock(t, c, src)
			if len(want) > 0 && !bytes.Equal(want, got) {
				t.Fatalf("%d bytes: block of %d bytes, pierrec %d", len(src), len(got), len(want))
			}
		}
		var buf bytes.Buffer
		w, err := NewStreamWriter(&buf, LZ4, WithBlockSize(lz4MinBlockSize+int(split)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		back, err := readStream(t, bytes.NewReader(buf.Bytes()), LZ4)
		if err != nil || !bytes.Equal(back, data) {
			t.Fatalf("round trip of %d bytes: %d bytes back, %v", len(data), len(back), err)
		}
	})
}

// BenchmarkLZ4Compress: 32 KiB blocks of UnsafeRow-like records (or of
// the file $LZ4_BENCH_INPUT), ours against pierrec/lz4's fast compressor.
func BenchmarkLZ4Compress(b *testing.B) {
	var src []byte
	for _, in := range compressibleInputs(rand.New(rand.NewSource(5))) {
		if len(in) == 200000 {
			src = append(src, in...)
		}
	}
	if f := os.Getenv("LZ4_BENCH_INPUT"); f != "" {
		// Real row bytes, such as a partition of a map output.
		in, err := os.ReadFile(f)
		require.NoError(b, err)
		src = in
	}
	const block = 32 << 10
	dst := make([]byte, lz4CompressBound(block))
	b.Run("ours", func(b *testing.B) {
		c := new(lz4Compressor)
		b.SetBytes(block)
		for i := 0; b.Loop(); i++ {
			at := (i * block) % (len(src) - block)
			c.compress(src[at:at+block], dst)
		}
	})
	b.Run("pierrec", func(b *testing.B) {
		var c lz4.Compressor
		b.SetBytes(block)
		for i := 0; b.Loop(); i++ {
			at := (i * block) % (len(src) - block)
			c.CompressBlock(src[at:at+block], dst)
		}
	})
}
