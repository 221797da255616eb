package framing

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

// compress-lzf's layout: chunks of up to 65535 bytes, compressed when that
// saves more than 2 bytes, stored otherwise (and always under 16 bytes).
func TestLZFWriterChunks(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 15000)
	stream := writeStream(t, LZF, data, 7000)
	var types []byte
	var sizes []int
	for b := stream; len(b) > 0; {
		require.Equal(t, "ZV", string(b[:2]))
		types = append(types, b[2])
		n := int(binary.BigEndian.Uint16(b[3:]))
		if b[2] == 0 {
			sizes = append(sizes, n)
			b = b[5+n:]
		} else {
			sizes = append(sizes, int(binary.BigEndian.Uint16(b[5:])))
			b = b[7+n:]
		}
	}
	require.Equal(t, []int{65535, 65535, 18930}, sizes)
	require.Equal(t, []byte{1, 1, 1}, types)
	short := writeStream(t, LZF, []byte("aaaaaaaaaaaaaaa"), 15)
	require.Equal(t, append([]byte{'Z', 'V', 0, 0, 15}, "aaaaaaaaaaaaaaa"...), short, "under 16 bytes: stored")
}

func TestLZFCompressDecompress(t *testing.T) {
	var table [1 << lzfHashLog]int32
	for i, data := range [][]byte{
		bytes.Repeat([]byte{7}, 1000), // overlapping matches
		sampleData(1, 65535),
		[]byte("abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabc"),
		bytes.Repeat([]byte("x"), 300), // longer than the longest match
	} {
		dst := make([]byte, lzfBound(len(data)))
		n := lzfCompress(dst, data, &table)
		out := make([]byte, len(data))
		m, err := lzfDecompress(out, dst[:n])
		require.NoError(t, err, "case %d", i)
		require.Equal(t, len(data), m, "case %d", i)
		require.Equal(t, data, out, "case %d", i)
	}
}

func TestLZFReaderErrors(t *testing.T) {
	good := writeStream(t, LZF, bytes.Repeat([]byte("spark shuffle "), 100), 1400)
	for _, tc := range []struct {
		name   string
		stream []byte
		cause  error
		msg    string
	}{
		{"magic", patched(good, 0, 'Y'), rowbridge.ErrLayout, `chunk starts 59 56, not "ZV"`},
		{"type", patched(good, 2, 2), rowbridge.ErrLayout, "chunk type 2"},
		{"header cut", good[:6], rowbridge.ErrTruncated, "compressed chunk header cut short"},
		{"payload cut", good[:20], rowbridge.ErrTruncated, "compressed chunk of"},
		{"stored cut", []byte{'Z', 'V', 0, 0, 10, 1, 2}, rowbridge.ErrTruncated, "stored chunk of 10 bytes has only 2"},
		{"ulen", patched(good, 5, 0x05, 0x77), rowbridge.ErrLayout, "corrupt lzf chunk"},
		{"zero ulen", patched(good, 5, 0, 0), rowbridge.ErrLayout, "claims 0 uncompressed"},
		{"back-reference", []byte{'Z', 'V', 1, 0, 2, 0, 5, 0x20, 0x00}, rowbridge.ErrLayout, "back-reference before the start"},
		{"literal run", []byte{'Z', 'V', 1, 0, 2, 0, 5, 0x04, 'a'}, rowbridge.ErrLayout, "literal run of 5 bytes"},
		{"partial header", []byte{'Z', 'V'}, rowbridge.ErrTruncated, "chunk header cut short"},
	} {
		requireStreamError(t, LZF, tc.stream, tc.cause, tc.msg, tc.name)
	}
}

func FuzzLZFStream(f *testing.F) {
	fuzzSeeds(f, LZF)
	f.Fuzz(func(t *testing.T, data []byte, block uint16) { fuzzStream(t, LZF, data, block) })
}
