package framing

import (
	"bytes"
	"encoding/binary"
	"io"
	"runtime"
	"testing"

	"github.com/pierrec/lz4/v4"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

func TestLZ4Level(t *testing.T) {
	for bs, want := range map[int]byte{64: 0, 1024: 0, 1025: 1, 32 << 10: 5, 64 << 10: 6, 100000: 7, 32 << 20: 15} {
		require.Equal(t, want, lz4Level(bs), "block size %d", bs)
	}
}

// lz4-java's block layout: full blocks of the block size, the rest last,
// the token's level from the block size, raw blocks for what does not
// compress, then the end mark.
func TestLZ4WriterBlocks(t *testing.T) {
	data := bytes.Repeat([]byte("abcdefgh"), 200)
	stream := writeStream(t, LZ4, data, 333, WithBlockSize(1000))
	var ulens []int
	for b := stream; len(b) > 0; {
		require.Equal(t, "LZ4Block", string(b[:8]))
		require.Equal(t, byte(0), b[8]&0x0F, "level of 1000-byte blocks")
		clen := int(binary.LittleEndian.Uint32(b[9:]))
		ulen := int(binary.LittleEndian.Uint32(b[13:]))
		if ulen > 0 {
			require.Equal(t, byte(0x20), b[8]&0xF0, "repeats compress")
			require.Equal(t, lz4Checksum(data[sum(ulens):sum(ulens)+ulen]), binary.LittleEndian.Uint32(b[17:]))
		}
		ulens = append(ulens, ulen)
		b = b[21+clen:]
	}
	require.Equal(t, []int{1000, 600, 0}, ulens)

	stream = writeStream(t, LZ4, bytes.Clone(unhex(t, "00112233445566778899aabbccddeeff")), 16)
	require.Equal(t, byte(0x15), stream[8], "16 bytes do not compress: a raw block")
	require.Equal(t, 21+16+21, len(stream))
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func TestLZ4ReaderErrors(t *testing.T) {
	good := writeStream(t, LZ4, bytes.Repeat([]byte("spark shuffle "), 100), 1400)
	withHeader := func(edit func(h []byte)) []byte {
		b := bytes.Clone(good)
		edit(b[:21])
		return b
	}
	le := binary.LittleEndian.PutUint32
	for _, tc := range []struct {
		name   string
		stream []byte
		cause  error
		msg    string
	}{
		{"magic", withHeader(func(h []byte) { h[0] = 'X' }), rowbridge.ErrLayout, "block header starts 58 5a 34 42 6c 6f 63 6b, not the LZ4Block magic"},
		{"method", withHeader(func(h []byte) { h[8] = 0x35 }), rowbridge.ErrLayout, "block token 0x35 names no compression method"},
		{"level", withHeader(func(h []byte) { h[8] = 0x20 }), rowbridge.ErrOutOfBounds, "block of 1400 bytes exceeds the 1024 its token 0x20 allows"},
		{"negative", withHeader(func(h []byte) { le(h[9:], 0xFFFFFFF0) }), rowbridge.ErrLayout, "negative length"},
		{"bound", withHeader(func(h []byte) { le(h[9:], 1500) }), rowbridge.ErrOutOfBounds, "compressed length 1500 exceeds lz4's bound 1421 for 1400 bytes"},
		{"zero one", withHeader(func(h []byte) { le(h[13:], 0) }), rowbridge.ErrLayout, "both or neither must be 0"},
		{"raw lengths", withHeader(func(h []byte) { h[8] = 0x11 }), rowbridge.ErrLayout, "raw block has differing lengths"},
		{"checksum", withHeader(func(h []byte) { h[17] ^= 1 }), rowbridge.ErrLayout, "block checksum 0x"},
		{"ulen", withHeader(func(h []byte) { le(h[13:], 1399) }), rowbridge.ErrLayout, "corrupt lz4 block"},
		{"end mark checksum", append(bytes.Clone(good[:len(good)-4]), 1, 0, 0, 0), rowbridge.ErrLayout, "end mark has checksum 0x00000001"},
		{"no end mark", good[:len(good)-21], rowbridge.ErrTruncated, "the stream ends without its end mark"},
		{"partial header", good[:10], rowbridge.ErrTruncated, "block header cut short"},
		{"payload", good[:30], rowbridge.ErrTruncated, "compressed bytes cut short"},
		{"garbage after", append(bytes.Clone(good), "junk"...), rowbridge.ErrTruncated, "block header cut short"},
		{"other data after", append(bytes.Clone(good), bytes.Repeat([]byte{'x'}, 21)...), rowbridge.ErrLayout, "not the LZ4Block magic"},
	} {
		requireStreamError(t, LZ4, tc.stream, tc.cause, tc.msg, tc.name)
	}
	// The offset and stream index say where: the second stream's first block.
	two := append(bytes.Clone(good), withHeader(func(h []byte) { h[17] ^= 1 })...)
	_, err := readStream(t, bytes.NewReader(two), LZ4)
	var ce *CodecError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, int64(len(good)), ce.Offset)
	require.Equal(t, 1, ce.Stream)
	require.ErrorContains(t, err, "lz4 stream: compressed byte ")
	require.ErrorContains(t, err, "(stream 2 of the concatenation)")
}

// A header that declares 32 MiB costs memory only as its bytes arrive.
func TestLZ4HostileLengthsAllocateLittle(t *testing.T) {
	for _, token := range []byte{0x2F, 0x1F} {
		h := make([]byte, 21, 1000)
		clen := 32 << 20
		if token == 0x2F {
			clen = lz4.CompressBlockBound(32 << 20)
		}
		putLZ4Header(h, token, clen, 32<<20, 0)
		h = append(h, make([]byte, 500)...)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := readStream(t, bytes.NewReader(h), LZ4)
		runtime.ReadMemStats(&after)
		require.ErrorIs(t, err, rowbridge.ErrTruncated)
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "token 0x%02x", token)
	}
}

func FuzzLZ4Stream(f *testing.F) {
	fuzzSeeds(f, LZ4)
	f.Fuzz(func(t *testing.T, data []byte, block uint16) { fuzzStream(t, LZ4, data, block) })
}

// TestLZ4PairedBlocksFailAsSingle reads lz4 streams with one byte changed
// two ways: through reads with room for one block (each block checked
// alone) and with room for many (two blocks read and checked together).
// Both must deliver the same bytes before the same error, so the bytes of
// a good block come before a bad one's error, and none of a bad block.
func TestLZ4PairedBlocksFailAsSingle(t *testing.T) {
	data := sampleData(12, 6000)
	stream := writeStream(t, LZ4, data, len(data), WithBlockSize(1<<10))
	for i := range stream {
		bad := bytes.Clone(stream)
		bad[i] ^= 0x41
		one, errOne := readChunks(t, bad, 1<<10)
		many, errMany := readChunks(t, bad, 8<<10)
		require.Equal(t, one, many, "byte %d: the bytes before the error", i)
		if errOne == nil {
			require.NoError(t, errMany, "byte %d", i)
			continue
		}
		require.EqualError(t, errMany, errOne.Error(), "byte %d", i)
		require.True(t, bytes.Equal(data[:len(one)], one), "byte %d: only good blocks come out", i)
	}
}

// readChunks reads an lz4 stream with reads of n bytes.
func readChunks(t *testing.T, stream []byte, n int) ([]byte, error) {
	sr, err := NewStreamReader(bytes.NewReader(stream), LZ4)
	require.NoError(t, err)
	var got []byte
	buf := make([]byte, n)
	for {
		m, err := sr.Read(buf)
		got = append(got, buf[:m]...)
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
	}
}
