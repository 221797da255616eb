package framing

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/klauspost/compress/snappy"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

// snappy-java's layout: the header once, then chunks of up to the block size.
func TestSnappyWriterChunks(t *testing.T) {
	data := sampleData(4, 2500)
	stream := writeStream(t, Snappy, data, 100, WithBlockSize(1<<10))
	require.Equal(t, "82534e41505059000000000100000001", hex.EncodeToString(stream[:16]))
	var sizes []int
	for b := stream[16:]; len(b) > 0; {
		n := int(binary.BigEndian.Uint32(b))
		size, err := snappy.DecodedLen(b[4 : 4+n])
		require.NoError(t, err)
		sizes = append(sizes, size)
		b = b[4+n:]
	}
	require.Equal(t, []int{1024, 1024, 452}, sizes)
}

func TestSnappyReaderErrors(t *testing.T) {
	good := writeStream(t, Snappy, bytes.Repeat([]byte("spark shuffle "), 100), 1400)
	for _, tc := range []struct {
		name   string
		stream []byte
		cause  error
		msg    string
	}{
		{"magic", patched(good, 1, 'X'), rowbridge.ErrLayout, "the stream starts 82 58 4e 41 50 50 59 00, not snappy-java's magic"},
		{"version", patched(good, 12, 0, 0, 0, 2), rowbridge.ErrLayout, "compatible with 2"},
		{"short header", good[:10], rowbridge.ErrTruncated, "stream header cut short (10 of 16 bytes)"},
		{"length cut", good[:18], rowbridge.ErrTruncated, "chunk length cut short"},
		{"chunk cut", good[:30], rowbridge.ErrTruncated, "chunk of"},
		{"zero chunk", patched(good, 16, 0, 0, 0, 0), rowbridge.ErrLayout, "chunk length 0"},
		{"negative chunk", patched(good, 16, 0xF0, 0, 0, 0), rowbridge.ErrLayout, "chunk length -268435456"},
		{"huge chunk", patched(good, 16, 0x7F, 0, 0, 0), rowbridge.ErrOutOfBounds, "exceeds the"},
		{"varint", patched(good, 20, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F), rowbridge.ErrOutOfBounds, "claims"},
		{"body", patched(good, 22, 0xFE, 0xFF, 0xFF), rowbridge.ErrLayout, "corrupt snappy block"},
		{"not snappy", []byte("hello world, a text file!"), rowbridge.ErrLayout, "not snappy-java's magic"},
		{"bad second header", append(bytes.Clone(good), 0x82, 'S', 'N', 'A', 'X', 'X', 'X', 0, 0, 0, 0, 1, 0, 0, 0, 1), rowbridge.ErrLayout, "a stream header starts"},
	} {
		requireStreamError(t, Snappy, tc.stream, tc.cause, tc.msg, tc.name)
	}
	two := append(bytes.Clone(good), good...)
	two[len(good)+20] = 0xFF // the second stream's first block
	_, err := readStream(t, bytes.NewReader(two), Snappy)
	var ce *CodecError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, int64(len(good)+16), ce.Offset)
	require.Equal(t, 1, ce.Stream)
}

func FuzzSnappyStream(f *testing.F) {
	fuzzSeeds(f, Snappy)
	f.Fuzz(func(t *testing.T, data []byte, block uint16) { fuzzStream(t, Snappy, data, block) })
}
