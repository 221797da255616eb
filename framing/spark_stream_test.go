package framing

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

var sparkCodecs = []Codec{LZ4, Snappy, Zstd, LZF}

// Known answers written by the Java libraries with Spark's settings
// (lz4-java 1.8.0, snappy-java 1.1.8.3, zstd-jni 1.5.2-5, compress-lzf
// 1.0.4): two Spark-framed copies of the 40-byte UnsafeRow (1, "abc", NULL).
const javaE1Raw = "00000028040000000000000001000000000000000300000020000000000000000000000061626300000000000000002804000000000000000100000000000000030000002000000000000000000000006162630000000000"

var javaE1 = map[Codec]string{
	LZ4:    "4c5a34426c6f636b252c0000005800000045b5cf0062000000280400010012010700630003000000200c000002003061626307000002000f2c00115000000000004c5a34426c6f636b15000000000000000000000000",
	Snappy: "82534e415050590000000001000000010000002158140000002804000901000109071800030000002000190108616263110da22c00",
	Zstd:   "28b52ffd00480401009000000028040001000300000020006162630005009e820064027601030fa008010000",
	LZF:    "5a560100260058040000002804200440000001400420000003200300202003c00002616263c00ae01e2b010000",
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

// writeStream compresses data as one stream, written in pieces of step bytes.
func writeStream(t testing.TB, c Codec, data []byte, step int, opts ...StreamOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewStreamWriter(&buf, c, opts...)
	require.NoError(t, err)
	for len(data) > 0 {
		n := min(step, len(data))
		m, err := w.Write(data[:n])
		require.NoError(t, err)
		require.Equal(t, n, m)
		data = data[n:]
	}
	require.NoError(t, w.Close())
	require.NoError(t, w.Close(), "a second Close does nothing")
	return buf.Bytes()
}

// readStream decompresses everything r holds.
func readStream(t testing.TB, r io.Reader, c Codec, opts ...StreamOption) ([]byte, error) {
	t.Helper()
	sr, err := NewStreamReader(r, c, opts...)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(sr)
}

// patched is a copy of s with b written at at.
func patched(s []byte, at int, b ...byte) []byte {
	s = bytes.Clone(s)
	copy(s[at:], b)
	return s
}

// requireStreamError requires reading stream as c to fail with a
// *CodecError of cause whose text holds msg.
func requireStreamError(t *testing.T, c Codec, stream []byte, cause error, msg, name string) {
	t.Helper()
	_, err := readStream(t, bytes.NewReader(stream), c)
	var ce *CodecError
	require.ErrorAs(t, err, &ce, name)
	require.ErrorIs(t, err, cause, name)
	require.ErrorContains(t, err, msg, name)
}

// sampleData is n bytes that compress somewhat: runs, repeats and noise.
func sampleData(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]byte, 0, n)
	for len(out) < n {
		switch rng.IntN(3) {
		case 0:
			out = append(out, bytes.Repeat([]byte{byte(rng.Uint32())}, 1+rng.IntN(40))...)
		case 1:
			if len(out) > 0 {
				start := rng.IntN(len(out))
				out = append(out, out[start:min(len(out), start+1+rng.IntN(300))]...)
			}
		default:
			for range 1 + rng.IntN(50) {
				out = append(out, byte(rng.Uint32()))
			}
		}
	}
	return out[:n]
}

func TestStreamJavaKnownAnswers(t *testing.T) {
	want := unhex(t, javaE1Raw)
	for c, s := range javaE1 {
		t.Run(c.String(), func(t *testing.T) {
			stream := unhex(t, s)
			got, err := readStream(t, bytes.NewReader(stream), c)
			require.NoError(t, err)
			require.Equal(t, want, got)
			got, err = readStream(t, bytes.NewReader(stream), Auto)
			require.NoError(t, err, "auto")
			require.Equal(t, want, got, "auto")
			twice := append(append([]byte{}, stream...), stream...)
			got, err = readStream(t, iotest.OneByteReader(bytes.NewReader(twice)), c)
			require.NoError(t, err, "concatenated, one byte at a time")
			require.Equal(t, append(append([]byte{}, want...), want...), got)
		})
	}
}

func TestStreamRoundTrips(t *testing.T) {
	sizes := map[Codec][]int{LZ4: {64, 1000, 1 << 10, 32 << 10, 64 << 10}, Snappy: {1 << 10, 32 << 10, 64 << 10}, Zstd: {0}, LZF: {1, 64, 1 << 10, 32 << 10, 0xFFFF}}
	for _, c := range sparkCodecs {
		for _, bs := range sizes[c] {
			var opts []StreamOption
			if bs > 0 {
				opts = append(opts, WithBlockSize(bs))
			}
			for _, n := range []int{0, 1, 63, 64, 65, 1000, 70000, 200000} {
				t.Run(fmt.Sprintf("%v/block=%d/n=%d", c, bs, n), func(t *testing.T) {
					data := sampleData(uint64(n), n)
					stream := writeStream(t, c, data, 777, opts...)
					got, err := readStream(t, bytes.NewReader(stream), c)
					require.NoError(t, err)
					require.Equal(t, data, got)
					got, err = readStream(t, iotest.HalfReader(bytes.NewReader(stream)), Auto)
					require.NoError(t, err)
					require.Equal(t, data, got)
				})
			}
		}
	}
}

func TestStreamIncompressible(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	data := make([]byte, 100000)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	for _, c := range sparkCodecs {
		stream := writeStream(t, c, data, len(data))
		got, err := readStream(t, bytes.NewReader(stream), c)
		require.NoError(t, err, "%v", c)
		require.Equal(t, data, got, "%v", c)
	}
}

// Streams written one after another, as Spark's fast spill merge leaves
// them, read as one; empty streams among them add nothing.
func TestStreamConcatenated(t *testing.T) {
	for _, c := range sparkCodecs {
		t.Run(c.String(), func(t *testing.T) {
			var all, want []byte
			for i, n := range []int{5000, 0, 1, 40000, 0} {
				data := sampleData(uint64(i), n)
				want = append(want, data...)
				all = append(all, writeStream(t, c, data, 1000, blockOpt(c, 1<<10)...)...)
			}
			for _, r := range []io.Reader{bytes.NewReader(all), iotest.OneByteReader(bytes.NewReader(all))} {
				got, err := readStream(t, r, c)
				require.NoError(t, err)
				require.Equal(t, want, got)
			}
		})
	}
}

func blockOpt(c Codec, n int) []StreamOption {
	if c == Zstd {
		return nil
	}
	return []StreamOption{WithBlockSize(n)}
}

func TestStreamEmpty(t *testing.T) {
	for _, c := range sparkCodecs {
		for name, stream := range map[string][]byte{"0 bytes": nil, "written empty": writeStream(t, c, nil, 1)} {
			got, err := readStream(t, bytes.NewReader(stream), c)
			require.NoError(t, err, "%v %s", c, name)
			require.Empty(t, got, "%v %s", c, name)
		}
	}
	require.Equal(t, "4c5a34426c6f636b15000000000000000000000000", hex.EncodeToString(writeStream(t, LZ4, nil, 1)), "the end mark alone")
	require.Equal(t, "82534e41505059000000000100000001", hex.EncodeToString(writeStream(t, Snappy, nil, 1)), "the header alone")
	require.Empty(t, writeStream(t, LZF, nil, 1))
}

func TestStreamOptionErrors(t *testing.T) {
	for _, tc := range []struct {
		c    Codec
		opts []StreamOption
		want string
	}{
		{LZ4, []StreamOption{WithBlockSize(63)}, "lz4 block size 63"},
		{LZ4, []StreamOption{WithBlockSize(32<<20 + 1)}, "lz4 block size"},
		{Snappy, []StreamOption{WithBlockSize(1023)}, "snappy block size 1023"},
		{LZF, []StreamOption{WithBlockSize(0x10000)}, "lzf block size 65536"},
		{Zstd, []StreamOption{WithBlockSize(1 << 10)}, "zstd streams have no block size"},
		{LZ4, []StreamOption{WithBlockSize(0)}, "block size 0"},
		{Zstd, []StreamOption{WithZstdLevel(0)}, "zstd level 0"},
		{None, []StreamOption{WithBlockSize(100)}, "no block size"},
		{Auto, nil, "reading only"},
		{Zlib, nil, "Spark has no zlib codec"},
		{Gzip, nil, "Spark has no gzip codec"},
		{Codec(99), nil, "unknown codec"},
	} {
		_, err := NewStreamWriter(io.Discard, tc.c, tc.opts...)
		require.ErrorContains(t, err, tc.want, "%v", tc.c)
	}
	_, err := NewStreamReader(bytes.NewReader(nil), Gzip)
	require.ErrorContains(t, err, "Spark has no gzip codec")
	_, err = NewStreamReader(bytes.NewReader(nil), Zstd, WithMaxZstdWindow(10))
	require.ErrorContains(t, err, "zstd window limit 10")
}

// TestStreamTruncated cuts every stream at every byte: the reader returns
// a prefix of the data and then a *CodecError (or a clean end exactly at
// a stream boundary), never a panic.
func TestStreamTruncated(t *testing.T) {
	data := sampleData(9, 3000)
	for _, c := range sparkCodecs {
		stream := writeStream(t, c, data, 3000, blockOpt(c, 1<<10)...)
		for cut := range len(stream) {
			got, err := readStream(t, bytes.NewReader(stream[:cut]), c)
			require.True(t, bytes.HasPrefix(data, got), "%v cut %d: output is not a prefix", c, cut)
			if err == nil {
				// snappy-java and LZF streams have no end mark: a cut at a
				// chunk boundary reads as a shorter stream.
				require.True(t, cut == 0 || c == LZF || c == Snappy, "%v cut at %d of %d read cleanly", c, cut, len(stream))
				continue
			}
			var ce *CodecError
			require.ErrorAs(t, err, &ce, "%v cut %d", c, cut)
			require.Equal(t, c, ce.Codec)
			require.True(t, errors.Is(err, rowbridge.ErrTruncated) || c == Zstd, "%v cut %d: %v", c, cut, err)
		}
	}
}

// TestStreamCorrupt flips bytes: a checksummed lz4 stream always fails;
// the others return an error or some bytes, never a panic.
func TestStreamCorrupt(t *testing.T) {
	data := sampleData(11, 5000)
	for _, c := range sparkCodecs {
		stream := writeStream(t, c, data, 5000, blockOpt(c, 1<<10)...)
		for i := range stream {
			bad := bytes.Clone(stream)
			bad[i] ^= 0x41
			got, err := readStream(t, bytes.NewReader(bad), c)
			if err != nil {
				var ce *CodecError
				require.ErrorAs(t, err, &ce, "%v byte %d", c, i)
				continue
			}
			if c == LZ4 {
				require.Equal(t, data, got, "lz4 byte %d: a changed stream must fail or decode the same", i)
			}
		}
	}
}

func TestStreamReaderIOError(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range sparkCodecs {
		stream := writeStream(t, c, sampleData(1, 10000), 10000, blockOpt(c, 1<<10)...)
		r := io.MultiReader(bytes.NewReader(stream[:len(stream)/2]), iotest.ErrReader(boom))
		_, err := readStream(t, r, c)
		require.ErrorIs(t, err, boom, "%v", c)
		var ce *CodecError
		require.ErrorAs(t, err, &ce, "%v", c)
	}
}

func TestStreamWriteAfterClose(t *testing.T) {
	for _, c := range sparkCodecs {
		w, err := NewStreamWriter(io.Discard, c)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		_, err = w.Write([]byte{1})
		require.Error(t, err, "%v", c)
	}
}

// TestStreamReadsIntoCaller checks the zero-copy path: a read buffer at
// least a block long gets whole blocks, and small reads get the rest.
func TestStreamReadsMixedSizes(t *testing.T) {
	data := sampleData(5, 100000)
	for _, c := range sparkCodecs {
		stream := writeStream(t, c, data, 4096)
		sr, err := NewStreamReader(bytes.NewReader(stream), c)
		require.NoError(t, err)
		var got []byte
		for i := 0; ; i++ {
			buf := make([]byte, []int{7, 70000, 1, 40000}[i%4])
			n, err := sr.Read(buf)
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
		}
		require.Equal(t, data, got, "%v", c)
	}
}

type failingWriter struct{ after int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after <= 0 {
		return 0, errors.New("disk full")
	}
	f.after--
	return len(p), nil
}

// A failed write of the destination is returned, then kept: later writes
// and Close report it and write nothing more.
func TestStreamWriterErrorsStick(t *testing.T) {
	for _, c := range sparkCodecs {
		fw := &failingWriter{after: 1}
		w, err := NewStreamWriter(fw, c, blockOpt(c, 1<<10)...)
		require.NoError(t, err)
		_, err = w.Write(sampleData(1, 1<<20))
		if c != Zstd { // zstd's encoder writes once its window fills
			require.ErrorContains(t, err, "disk full", "%v", c)
			_, err = w.Write([]byte{1})
			require.ErrorContains(t, err, "disk full", "%v: sticky", c)
		}
		require.ErrorContains(t, w.Close(), "disk full", "%v: Close", c)
	}
}
