package framing

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

func TestSniffCodec(t *testing.T) {
	be := func(sizes ...uint32) []byte {
		var b []byte
		for _, s := range sizes {
			b = binary.BigEndian.AppendUint32(b, s)
		}
		return append(b, make([]byte, 8)...)
	}
	for _, tc := range []struct {
		name string
		head []byte
		want Codec
	}{
		{"empty", nil, None},
		{"lz4", unhex(t, javaE1[LZ4]), LZ4},
		{"snappy", unhex(t, javaE1[Snappy]), Snappy},
		{"zstd", unhex(t, javaE1[Zstd]), Zstd},
		{"zstd skippable", []byte{0x5A, 0x2A, 0x4D, 0x18, 0, 0, 0, 0}, Zstd},
		{"lzf", unhex(t, javaE1[LZF]), LZF},
		{"lzf stored", []byte{'Z', 'V', 0, 0, 1, 'x'}, LZF},
		{"lz4 cut short", []byte("LZ4B"), LZ4},
		{"rows", unhex(t, javaE1Raw), None},
		{"empty row", be(0), None},
		{"collected, no rows", []byte{0xFF, 0xFF, 0xFF, 0xFF}, None},
		{"collected, then rows", be(0xFFFFFFFF, 40), None},
		{"big row", be(600 << 20), None},
	} {
		got, err := SniffCodec(tc.head)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, got, tc.name)
	}
}

func TestSniffCodecErrors(t *testing.T) {
	velox := make([]byte, 9)
	binary.LittleEndian.PutUint32(velox, 100)
	binary.LittleEndian.PutUint32(velox[4:], 60)
	velox[8] = 1
	for _, tc := range []struct {
		name string
		head []byte
		msg  string
	}{
		{"arrow file", []byte("ARROW1\x00\x00\xff\xff\xff\xff"), "the stream starts 41 52 52 4f 57 31 00 00 ff ff ff ff, which is no Spark codec (lz4, snappy, zstd, lzf) and no uncompressed UnsafeRow record: it looks like an Arrow IPC file"},
		{"arrow stream", []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x78, 0, 0, 0, 0x10, 0}, "it looks like an Arrow IPC stream"},
		{"gzip", []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0}, "it looks like a gzip file"},
		{"parquet", []byte("PAR1\x15\x00"), "it looks like a Parquet file"},
		{"zlib", []byte{0x78, 0x9c, 1, 2, 3, 4}, "it looks like a zlib stream"},
		{"lz4 frame", []byte{0x04, 0x22, 0x4D, 0x18, 0x64, 0x40}, "an LZ4 frame"},
		{"snappy framing", []byte{0xFF, 0x06, 0, 0, 's', 'N', 'a', 'P', 'p', 'Y'}, "the snappy framing format"},
		{"velox", velox, "Velox row groups (read them with --framing velox)"},
		{"text", []byte("hello, world\n"), "68 65 6c 6c 6f 2c 20 77 6f 72 6c 64 0a, which is no Spark codec"},
		{"odd size", []byte{0, 0, 0, 45, 1, 2, 3, 4}, "a first size of 45 is not a multiple of 8"},
		{"tiny", []byte{0, 1}, "the stream is 2 bytes (00 01)"},
	} {
		_, err := SniffCodec(tc.head)
		var ce *CodecError
		require.ErrorAs(t, err, &ce, tc.name)
		require.Equal(t, Auto, ce.Codec)
		require.ErrorIs(t, err, rowbridge.ErrLayout, tc.name)
		require.ErrorContains(t, err, tc.msg, tc.name)
	}
	// Through the reader: the error comes from the constructor.
	_, err := NewStreamReader(bytes.NewReader([]byte("PAR1 and more bytes")), Auto)
	require.ErrorContains(t, err, "auto stream: compressed byte 0: the stream starts 50 41 52 31")
}

func TestSniffReaderKeepsBytes(t *testing.T) {
	rows := unhex(t, javaE1Raw)
	got, err := readStream(t, bytes.NewReader(rows), Auto)
	require.NoError(t, err)
	require.Equal(t, rows, got, "an uncompressed stream passes through whole")
}

// FuzzSniff: any head sniffs to a codec or a *CodecError, and a stream
// that starts with it reads (or fails) without a panic.
func FuzzSniff(f *testing.F) {
	for _, s := range javaE1 {
		f.Add(unhex(f, s))
	}
	f.Add(unhex(f, javaE1Raw))
	f.Add([]byte("ARROW1\x00\x00"))
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x78, 0, 0, 0})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := SniffCodec(data)
		if err != nil {
			var ce *CodecError
			if !errors.As(err, &ce) {
				t.Fatalf("sniff error %v is not a *CodecError", err)
			}
			return
		}
		if c == Auto || c == Zlib || c == Gzip {
			t.Fatalf("sniffed %v", c)
		}
		sr, err := NewStreamReader(bytes.NewReader(data), Auto)
		if err != nil {
			t.Fatalf("SniffCodec said %v, NewStreamReader failed: %v", c, err)
		}
		buf := make([]byte, 4096)
		for {
			if _, err := sr.Read(buf); err != nil {
				return
			}
		}
	})
}
