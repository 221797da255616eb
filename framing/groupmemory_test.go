package framing

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"strconv"
	"testing"

	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// groupMemSlack is the memory reading one group may take beyond 1.2 times
// its claimed size: codec state, the compressed bytes, the Reader's buffers.
const groupMemSlack = 4 << 20

// zstdTestFrame builds a zstd frame of n zero bytes in RLE blocks: 4 bytes
// for each 128 KiB, the densest zstd there is. windowLog > 0 writes a window
// descriptor (2^windowLog bytes); fcs writes the content size (8 bytes).
// extra RLE bytes follow the n, beyond what the frame declares.
func zstdTestFrame(n int, windowLog int, fcs bool, extra int) []byte {
	fhd := byte(0)
	if fcs {
		fhd |= 3 << 6
	}
	if windowLog == 0 {
		fhd |= 1 << 5 // single segment: the content size is the window
	}
	f := append([]byte{0x28, 0xb5, 0x2f, 0xfd}, fhd)
	if windowLog > 0 {
		f = append(f, byte(windowLog-10)<<3)
	}
	if fcs {
		f = binary.LittleEndian.AppendUint64(f, uint64(n))
	}
	for total := n + extra; ; {
		blk := min(total, 128<<10)
		total -= blk
		bh := uint32(blk)<<3 | 1<<1 // RLE
		if total == 0 {
			bh |= 1 // the last block
		}
		f = append(f, byte(bh), byte(bh>>8), byte(bh>>16), 0)
		if total == 0 {
			return f
		}
	}
}

// zlibZeros compresses n zero bytes (a multiple of 1 MiB) with zlib at its
// best ratio, cheaply: deflate blocks after a sync flush are byte-aligned,
// and a block that encodes 1 MiB of zeros after at least 32 KiB of zeros
// does so anywhere after them, so the second is repeated and the Adler-32
// (a = 1, b = n mod 65521 for zeros) written for the whole.
func zlibZeros(t testing.TB, n int) []byte {
	t.Helper()
	require.Zero(t, n%(1<<20))
	var buf bytes.Buffer
	w, err := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	require.NoError(t, err)
	zeros := make([]byte, 1<<20)
	_, err = w.Write(zeros)
	require.NoError(t, err)
	require.NoError(t, w.Flush())
	first := bytes.Clone(buf.Bytes())
	buf.Reset()
	_, err = w.Write(zeros)
	require.NoError(t, err)
	require.NoError(t, w.Flush())
	next := bytes.Clone(buf.Bytes())
	buf.Reset()
	require.NoError(t, w.Close())
	tail := buf.Bytes() // the final empty block, then the Adler-32
	out := append(first, bytes.Repeat(next, n>>20-1)...)
	out = append(out, tail[:len(tail)-4]...)
	return binary.BigEndian.AppendUint32(out, uint32(n%65521)<<16|1)
}

// readOneGroup reads the first row of a Velox stream holding one
// compressed group with payload claiming usize bytes, and returns the
// first row (a copy), the bytes allocated meanwhile, and the error.
func readOneGroup(t *testing.T, c Codec, usize int, payload []byte) ([]byte, uint64, error) {
	t.Helper()
	stream := append(header(int32(usize), int32(len(payload)), 1), payload...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rd, err := NewReader(bytes.NewReader(stream), Velox, c)
	require.NoError(t, err)
	rows, err := rd.Next(1)
	runtime.ReadMemStats(&after)
	var first []byte
	if len(rows) > 0 {
		first = bytes.Clone(rows[0])
	}
	runtime.KeepAlive(rd)
	return first, after.TotalAlloc - before.TotalAlloc, err
}

// TestGroupMemoryBoundedByClaim reads one compressed row group per case and
// requires the bytes allocated to stay within 1.2 times what the group's
// header claims (plus a small constant), whatever the compressed bytes
// declare: the zstd group claiming 9 bytes whose frame declares a
// 64 MiB window, a 33 KB zstd group claiming 1 GiB of zeros, a 0.5 MB zlib
// group claiming 512 MiB, and a large group of each codec.
func TestGroupMemoryBoundedByClaim(t *testing.T) {
	if testgen.RaceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	// The sizes on 64-bit; a sixteenth in -short mode and on 32-bit,
	// whose address space the full sizes would crowd.
	scale := 1
	if testing.Short() || strconv.IntSize == 32 {
		scale = 16
	}
	gib, big := (1<<30)/scale, (64<<20)/scale
	zeros := make([]byte, big)
	compressed := func(c Codec, src []byte) []byte {
		comp := &compressor{codec: c}
		out, ok, err := comp.compress(nil, src)
		require.NoError(t, err)
		require.True(t, ok)
		return out
	}
	var streamZstd bytes.Buffer // no content size in the frame header
	zw, err := zstd.NewWriter(&streamZstd, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(8<<20))
	require.NoError(t, err)
	rows := bytes.Repeat(append([]byte{0, 0, 0, 12}, "twelve bytes"...), big/16)
	_, err = zw.Write(rows)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	var h zstd.Header
	require.NoError(t, h.Decode(streamZstd.Bytes()))
	require.False(t, h.HasFCS, "the streaming writer declares no content size")

	nineBytes := append([]byte{0x28, 0xb5, 0x2f, 0xfd, 0, (26 - 10) << 3}, 9<<3|1, 0, 0) // a raw block of 9 bytes, 64 MiB window
	nineBytes = append(nineBytes, 0, 0, 0, 5, 'a', 'b', 'c', 'd', 'e')

	for _, tc := range []struct {
		name    string
		c       Codec
		usize   int
		payload []byte
		first   string // the first row, when err is ""
		err     string // what the error says
	}{
		{"zstd 9-byte claim with a 64 MiB window", Zstd, 9, nineBytes, "", "67108864-byte window"},
		{"zstd 1 GiB of zeros", Zstd, gib, zstdTestFrame(gib, 0, true, 0), "", ""},
		{"zstd zeros, no content size", Zstd, big, zstdTestFrame(big, 23, false, 0), "", ""},
		{"zstd more than claimed, no content size", Zstd, big, zstdTestFrame(big, 23, false, 3<<20), "", "zstd"},
		{"zstd claim larger than the frame", Zstd, big, zstdTestFrame(big/2, 23, false, 0), "", "zstd"},
		{"zstd streamed rows", Zstd, len(rows), streamZstd.Bytes(), "twelve bytes", ""},
		{"zlib 512 MiB of zeros", Zlib, gib / 2, zlibZeros(t, gib/2), "", ""},
		{"zlib more than claimed", Zlib, big, zlibZeros(t, big+2<<20), "", "produced more than"},
		{"gzip zeros", Gzip, big, compressed(Gzip, zeros), "", ""},
		{"lz4 zeros", LZ4, big, compressed(LZ4, zeros), "", ""},
		{"snappy zeros", Snappy, big, compressed(Snappy, zeros), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, alloc, err := readOneGroup(t, tc.c, tc.usize, tc.payload)
			limit := uint64(tc.usize)*6/5 + groupMemSlack
			t.Logf("%d-byte group claiming %d: %d bytes allocated (limit %d)", len(tc.payload), tc.usize, alloc, limit)
			require.LessOrEqual(t, alloc, limit, "reading the group allocated more than 1.2x its claim")
			if tc.err != "" {
				require.Error(t, err)
				require.ErrorIs(t, err, rowbridge.ErrLayout)
				require.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.first, string(first))
		})
	}
}

// TestZstdGroupFrames reads zstd groups of several frames, skippable frames
// and frames without a content size, and refuses what does not add up to
// the claim.
func TestZstdGroupFrames(t *testing.T) {
	a, b := makeRows(11, 30, true), makeRows(12, 7, false)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	require.NoError(t, err)
	ra, rb := records(a), records(b)
	fa, fb := enc.EncodeAll(ra, nil), enc.EncodeAll(rb, nil)
	var streamed bytes.Buffer
	zw, err := zstd.NewWriter(&streamed, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(true))
	require.NoError(t, err)
	_, err = zw.Write(rb)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	skippable := []byte{0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'x', 'y', 'z'}
	want := append(allRows(a), allRows(b)...)
	group := func(usize int, parts ...[]byte) []byte {
		p := bytes.Join(parts, nil)
		return append(header(int32(usize), int32(len(p)), 1), p...)
	}
	n := len(ra) + len(rb)
	for _, tc := range []struct {
		name   string
		stream []byte
		err    string
		want   [][]byte // when not the rows of a, then b
	}{
		{"two frames", group(n, fa, fb), "", nil},
		{"skippable frames", group(n, skippable, fa, skippable, fb), "", nil},
		{"last frame without content size", group(n, fa, streamed.Bytes()), "", nil},
		{"frame without content size before another", group(n, streamed.Bytes(), fa), "", append(allRows(b), allRows(a)...)},
		{"claim short of the frames", group(n-1, fa, fb), "zstd produced more than the " + strconv.Itoa(n-1) + " bytes", nil},
		{"claim short of the first frame", group(len(ra)-1, fa, fb), "more than the " + strconv.Itoa(len(ra)-1) + " the header says", nil},
		{"claim past the frames", group(n+4, fa, fb), "zstd produced " + strconv.Itoa(n) + " bytes, header says " + strconv.Itoa(n+4), nil},
		{"skippable frame cut", group(n, fa, fb, skippable[:9]), "skippable frame of 3 bytes has only 1", nil},
		{"frame cut in a block", group(n, fa, fb[:len(fb)-5]), "zstd block of", nil},
		{"garbage after the frames", group(n, fa, fb, []byte("garbage")), "zstd frame header", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(t, bytes.NewReader(tc.stream), Velox, Zstd, 1000)
			if tc.err == "" {
				require.NoError(t, err)
				if tc.want != nil {
					require.Equal(t, tc.want, got)
				} else {
					require.Equal(t, want, got)
				}
				return
			}
			require.ErrorIs(t, err, rowbridge.ErrLayout)
			require.Contains(t, err.Error(), tc.err)
		})
	}
}

// records frames rows as a Velox group's records: a big-endian uint32 size
// before each row.
func records(rows *rowbridge.Rows) []byte {
	var out []byte
	for i := range len(rows.Offsets) - 1 {
		row := rows.Data[rows.Offsets[i]:rows.Offsets[i+1]]
		out = binary.BigEndian.AppendUint32(out, uint32(len(row)))
		out = append(out, row...)
	}
	return out
}

// TestZstdRefusedBeforeAllocating: a zstd group whose frame header or
// block headers contradict the claim is refused before the claimed size is
// allocated.
func TestZstdRefusedBeforeAllocating(t *testing.T) {
	if testgen.RaceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	const claim = 64 << 20
	frame := zstdTestFrame(claim, 0, true, 0) // 64 MiB of zeros, content size declared
	for _, tc := range []struct {
		name    string
		payload []byte
		err     string
	}{
		{"content size short of the claim", append(skippable(1100), zstdTestFrame(claim/2, 0, true, 0)...), "zstd frame declares 33554432 bytes, header says 67108864"},
		{"content size past the claim", append(zstdTestFrame(claim+1, 0, true, 0), bytes.Repeat([]byte{0}, 64)...), "zstd frame declares 67108865 bytes, more than the 67108864"},
		{"window past 8 MiB and the claim", zstdTestFrame(claim, 27, false, 0), "zstd frame declares a 134217728-byte window for at most 67108864 bytes"},
		{"frame cut short", frame[:len(frame)-1], "zstd block of 1 bytes has only 0"},
		{"reserved block type", append(bytes.Clone(frame[:13]), append([]byte{7, 0, 0}, frame[13:]...)...), "reserved type"},
		{"not zstd", bytes.Repeat([]byte{0x55}, 4096), "zstd frame header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, alloc, err := readOneGroup(t, Zstd, claim, tc.payload)
			require.ErrorIs(t, err, rowbridge.ErrLayout)
			require.Contains(t, err.Error(), tc.err)
			require.Less(t, alloc, uint64(1<<20), "refused after allocating %d bytes", alloc)
		})
	}
}

// skippable returns a skippable zstd frame of n bytes of user data.
func skippable(n int) []byte {
	f := binary.LittleEndian.AppendUint32([]byte{0x50, 0x2a, 0x4d, 0x18}, uint32(n))
	return append(f, make([]byte, n)...)
}
