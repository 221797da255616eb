package framing

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

// The writer's frames as zstd-jni writes them at level 1: no content
// checksum, a window zstd-jni's reader takes, one frame per stream.
func TestZstdWriterFrame(t *testing.T) {
	stream := writeStream(t, Zstd, sampleData(2, 200000), 5000)
	var h zstd.Header
	require.NoError(t, h.Decode(stream))
	require.False(t, h.HasCheckSum, "zstd-jni writes no content checksum")
	require.LessOrEqual(t, h.WindowSize, uint64(zstdWindow))
	empty := writeStream(t, Zstd, nil, 1)
	require.NoError(t, h.Decode(empty))
	require.Equal(t, []byte{0x28, 0xb5, 0x2f, 0xfd}, empty[:4], "an empty stream is an empty frame")
	require.Less(t, len(empty), 16, "an empty frame is a few bytes")
}

func TestZstdReaderErrors(t *testing.T) {
	good := writeStream(t, Zstd, bytes.Repeat([]byte("spark shuffle "), 1000), 1400)
	for _, tc := range []struct {
		name   string
		stream []byte
		cause  error
	}{
		{"magic", patched(good, 0, 0x29), rowbridge.ErrLayout},
		{"cut", good[:len(good)-3], rowbridge.ErrTruncated},
		{"junk after", append(bytes.Clone(good), "junk!"...), rowbridge.ErrLayout},
	} {
		_, err := readStream(t, bytes.NewReader(tc.stream), Zstd)
		var ce *CodecError
		require.ErrorAs(t, err, &ce, tc.name)
		require.Equal(t, Zstd, ce.Codec, tc.name)
		require.ErrorIs(t, err, tc.cause, "%s: %v", tc.name, err)
		require.ErrorContains(t, err, "zstd stream: compressed byte ", tc.name)
	}
}

// A frame whose window exceeds the reader's limit is refused before its
// window is allocated.
func TestZstdWindowLimit(t *testing.T) {
	var buf bytes.Buffer
	enc, err := zstd.NewWriter(&buf, zstd.WithWindowSize(8<<20), zstd.WithEncoderConcurrency(1))
	require.NoError(t, err)
	_, err = enc.Write(sampleData(1, 10<<20))
	require.NoError(t, err)
	require.NoError(t, enc.Close())
	_, err = readStream(t, bytes.NewReader(buf.Bytes()), Zstd, WithMaxZstdWindow(1<<20))
	require.ErrorIs(t, err, rowbridge.ErrOutOfBounds)
	got, err := readStream(t, bytes.NewReader(buf.Bytes()), Zstd)
	require.NoError(t, err, "the default limit takes an 8 MiB window")
	require.Len(t, got, 10<<20)
}

func FuzzZstdStream(f *testing.F) {
	fuzzSeeds(f, Zstd)
	f.Fuzz(func(t *testing.T, data []byte, block uint16) { fuzzStream(t, Zstd, data, block) })
}

// Decoders go back to a pool when a stream ends or fails; one that failed
// reads the next stream as well as a new one.
func TestZstdDecoderReuse(t *testing.T) {
	data := sampleData(8, 100000)
	good := writeStream(t, Zstd, data, 100000)
	bad := bytes.Clone(good)
	bad[len(bad)/2] ^= 0xFF
	for range 5 {
		_, err := readStream(t, bytes.NewReader(bad[:len(bad)-10]), Zstd)
		require.Error(t, err)
		_, _ = readStream(t, bytes.NewReader(bad), Zstd)
		got, err := readStream(t, bytes.NewReader(good), Zstd)
		require.NoError(t, err)
		require.Equal(t, data, got)
	}
}
