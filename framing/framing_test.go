package framing

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"
	"testing/iotest"

	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var allCodecs = []Codec{None, LZ4, Zstd, Snappy, Zlib, Gzip}

// makeRows builds n rows of varying sizes; compressible says whether the
// bytes repeat (so codecs shrink them) or are random.
func makeRows(seed uint64, n int, compressible bool) *rowbridge.Rows {
	rng := rand.New(rand.NewPCG(seed, 1))
	rows := &rowbridge.Rows{Offsets: []int{0}}
	for i := range n {
		size := 8 * rng.IntN(12)
		for j := range size {
			b := byte(i + j%5)
			if !compressible {
				b = byte(rng.Uint32())
			}
			rows.Data = append(rows.Data, b)
		}
		rows.Offsets = append(rows.Offsets, len(rows.Data))
	}
	return rows
}

// encode writes batches through a Writer and closes it (a Spark codec
// stream needs Close to end; the other streams have no trailer).
func encode(t testing.TB, f Framing, c Codec, batches ...*rowbridge.Rows) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, f, c)
	require.NoError(t, err)
	for _, b := range batches {
		require.NoError(t, w.Write(b))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// readAll reads every row, n at a time, copying them out (they are only
// valid until the next call).
func readAll(t testing.TB, r io.Reader, f Framing, c Codec, n int) ([][]byte, error) {
	t.Helper()
	rd, err := NewReader(r, f, c)
	require.NoError(t, err)
	var out [][]byte
	for {
		rows, err := rd.Next(n)
		if len(rows) > n {
			t.Fatalf("Next(%d) returned %d rows", n, len(rows))
		}
		for _, row := range rows {
			out = append(out, append([]byte{}, row...))
		}
		if err == io.EOF {
			assert.Equal(t, int64(len(out)), rd.RowsRead())
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

func allRows(batches ...*rowbridge.Rows) [][]byte {
	var out [][]byte
	for _, b := range batches {
		for i := range b.Len() {
			out = append(out, append([]byte{}, b.Row(i)...))
		}
	}
	return out
}

func TestRoundTripFramingsCodecs(t *testing.T) {
	for _, f := range []Framing{Spark, Velox} {
		for _, c := range allCodecs {
			if f == Spark && c != None {
				continue
			}
			for _, compressible := range []bool{true, false} {
				t.Run(fmt.Sprintf("%v/%v/compressible=%v", f, c, compressible), func(t *testing.T) {
					batches := []*rowbridge.Rows{makeRows(1, 7, compressible), makeRows(2, 1, compressible), makeRows(3, 40, compressible)}
					stream := encode(t, f, c, batches...)
					want := allRows(batches...)
					for _, n := range []int{1, 3, 1000} {
						got, err := readAll(t, bytes.NewReader(stream), f, c, n)
						require.NoError(t, err)
						require.Equal(t, want, got, "batch %d", n)
					}
					got, err := readAll(t, iotest.OneByteReader(bytes.NewReader(stream)), f, c, 5)
					require.NoError(t, err)
					require.Equal(t, want, got, "one-byte reads")
				})
			}
		}
	}
}

func TestVeloxGroupsAndCompressionFallback(t *testing.T) {
	batches := []*rowbridge.Rows{makeRows(1, 30, true), makeRows(2, 30, false)}
	for _, c := range allCodecs[1:] {
		stream := encode(t, Velox, c, batches...)
		// First group compresses, the random one falls back to plain.
		usize := int(binary.LittleEndian.Uint32(stream[0:]))
		csize := int(binary.LittleEndian.Uint32(stream[4:]))
		require.Equal(t, byte(1), stream[8], "%v: compressible group flag", c)
		require.LessOrEqual(t, float64(csize), MinCompressionRatio*float64(usize), "%v", c)
		second := stream[HeaderSize+csize:]
		u2 := binary.LittleEndian.Uint32(second[0:])
		require.Equal(t, u2, binary.LittleEndian.Uint32(second[4:]), "%v", c)
		require.Equal(t, byte(0), second[8], "%v: random group falls back to uncompressed", c)
		require.Len(t, second, HeaderSize+int(u2), "%v", c)
		require.Equal(t, 4*30+len(batches[1].Data), int(u2))
	}
}

func TestEmptyGroupsAndWrites(t *testing.T) {
	empty := make([]byte, HeaderSize)
	rows := makeRows(4, 3, true)
	group := encode(t, Velox, None, rows)
	stream := append(append(append(append([]byte{}, empty...), group...), empty...), empty...)
	stream = append(stream, group...)
	got, err := readAll(t, bytes.NewReader(stream), Velox, None, 2)
	require.NoError(t, err)
	require.Equal(t, append(allRows(rows), allRows(rows)...), got)

	// Only empty groups, and an empty stream.
	got, err = readAll(t, bytes.NewReader(append(empty, empty...)), Velox, None, 2)
	require.NoError(t, err)
	require.Empty(t, got)
	got, err = readAll(t, bytes.NewReader(nil), Spark, None, 2)
	require.NoError(t, err)
	require.Empty(t, got)

	// Writing no rows writes nothing; zero-length rows survive.
	require.Empty(t, encode(t, Velox, Zstd, &rowbridge.Rows{}))
	zero := &rowbridge.Rows{Offsets: []int{0, 0, 0}}
	for _, f := range []Framing{Spark, Velox} {
		got, err = readAll(t, bytes.NewReader(encode(t, f, None, zero)), f, None, 10)
		require.NoError(t, err)
		require.Equal(t, [][]byte{{}, {}}, got)
	}
}

// E1 of docs/row-examples.md: Velox serde streams with rows (1,"abc",NULL) and (2,"",NULL).
var (
	e1UnsafeRow1 = []byte{
		0x04, 0, 0, 0, 0, 0, 0, 0,
		0x01, 0, 0, 0, 0, 0, 0, 0,
		0x03, 0, 0, 0, 0x20, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		0x61, 0x62, 0x63, 0, 0, 0, 0, 0,
	}
	e1UnsafeRow2 = []byte{
		0x04, 0, 0, 0, 0, 0, 0, 0,
		0x02, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0x20, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
	}
	e1CompactRow1 = []byte{0x04, 1, 0, 0, 0, 3, 0, 0, 0, 0x61, 0x62, 0x63, 0, 0, 0, 0, 0, 0, 0, 0}
	e1CompactRow2 = []byte{0x04, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
)

func e1Stream(header []byte, rows ...[]byte) []byte {
	out := append([]byte{}, header...)
	for _, r := range rows {
		out = binary.BigEndian.AppendUint32(out, uint32(len(r)))
		out = append(out, r...)
	}
	return out
}

func TestSpecE1Streams(t *testing.T) {
	unsafeStream := e1Stream([]byte{0x50, 0, 0, 0, 0x50, 0, 0, 0, 0}, e1UnsafeRow1, e1UnsafeRow2)
	compactStream := e1Stream([]byte{0x2d, 0, 0, 0, 0x2d, 0, 0, 0, 0}, e1CompactRow1, e1CompactRow2)
	for name, tc := range map[string]struct {
		stream []byte
		rows   [][]byte
	}{
		"unsaferow":  {unsafeStream, [][]byte{e1UnsafeRow1, e1UnsafeRow2}},
		"compactrow": {compactStream, [][]byte{e1CompactRow1, e1CompactRow2}},
	} {
		got, err := readAll(t, iotest.OneByteReader(bytes.NewReader(tc.stream)), Velox, None, 10)
		require.NoError(t, err, name)
		require.Equal(t, tc.rows, got, name)
		// Our writer produces the same bytes, and the Spark framing is the
		// same records without the header.
		require.Equal(t, tc.stream, encode(t, Velox, None, rowsOf(tc.rows...)), name)
		require.Equal(t, tc.stream[HeaderSize:], encode(t, Spark, None, rowsOf(tc.rows...)), name)
	}
}

func rowsOf(rows ...[]byte) *rowbridge.Rows {
	out := &rowbridge.Rows{Offsets: []int{0}}
	for _, r := range rows {
		out.Data = append(out.Data, r...)
		out.Offsets = append(out.Offsets, len(out.Data))
	}
	return out
}

func TestTruncatedStreams(t *testing.T) {
	rows := makeRows(5, 6, true)
	for _, tc := range []struct {
		f Framing
		c Codec
	}{{Spark, None}, {Velox, None}, {Velox, Zstd}, {Velox, LZ4}} {
		stream := encode(t, tc.f, tc.c, rows, rows)
		// Where complete records end in the Spark framing.
		boundaries := map[int]int{0: 0}
		if tc.f == Spark {
			end := 0
			for i := range 2 * rows.Len() {
				end += 4 + len(rows.Row(i%rows.Len()))
				boundaries[end] = i + 1
			}
		} else {
			boundaries[len(stream)/2] = rows.Len()
		}
		for cut := range len(stream) {
			got, err := readAll(t, bytes.NewReader(stream[:cut]), tc.f, tc.c, 4)
			if n, ok := boundaries[cut]; ok {
				require.NoError(t, err, "%v/%v cut %d", tc.f, tc.c, cut)
				require.Len(t, got, n)
				continue
			}
			var fe *Error
			require.ErrorAs(t, err, &fe, "%v/%v cut %d", tc.f, tc.c, cut)
			require.ErrorIs(t, err, rowbridge.ErrTruncated)
			require.Equal(t, int64(len(got)), fe.RowsRead, "rows delivered before the error")
			require.Contains(t, err.Error(), fmt.Sprintf("after %d rows read", len(got)))
			if len(got) > 0 {
				require.Equal(t, allRows(rows, rows)[:len(got)], got)
			}
		}
	}
}

func header(usize, csize int32, flag byte) []byte {
	h := make([]byte, HeaderSize)
	binary.LittleEndian.PutUint32(h[0:], uint32(usize))
	binary.LittleEndian.PutUint32(h[4:], uint32(csize))
	h[8] = flag
	return h
}

func TestHostileHeaders(t *testing.T) {
	lz4Group := encode(t, Velox, LZ4, makeRows(6, 20, true))
	require.Equal(t, byte(1), lz4Group[8])
	zstdGroup := encode(t, Velox, Zstd, makeRows(6, 20, true))
	require.Equal(t, byte(1), zstdGroup[8])
	claim := func(group []byte, usize int32) []byte {
		out := append([]byte{}, group...)
		binary.LittleEndian.PutUint32(out, uint32(usize))
		return out
	}
	for _, tc := range []struct {
		name   string
		f      Framing
		c      Codec
		stream []byte
		cause  error
		msg    string
	}{
		{"spark size past limit", Spark, None, []byte{0x7f, 0xff, 0xff, 0xf0}, rowbridge.ErrOutOfBounds, "row size 2147483632 exceeds the 1 GiB row limit"},
		{"spark size past stream", Spark, None, []byte{0, 0, 0x10, 0, 1, 2, 3}, rowbridge.ErrTruncated, "row of 4096 bytes has only 3"},
		{"spark huge size past stream", Spark, None, []byte{0x3f, 0xff, 0xff, 0xff, 1}, rowbridge.ErrTruncated, "row of 1073741823 bytes has only 1"},
		{"negative uncompressed", Velox, None, header(-1, -1, 0), rowbridge.ErrLayout, "negative size"},
		{"negative compressed", Velox, Zstd, header(10, -5, 1), rowbridge.ErrLayout, "negative size"},
		{"group past limit", Velox, None, header(1<<30+1, 1<<30+1, 0), rowbridge.ErrOutOfBounds, "exceeds the 1 GiB limit"},
		{"group past stream", Velox, None, append(header(1<<30, 1<<30, 0), 0, 0, 0, 8), rowbridge.ErrTruncated, "row of 8 bytes has only 0"},
		{"compressed past stream", Velox, Zstd, append(header(1<<30, 1<<30, 1), 1, 2, 3), rowbridge.ErrTruncated, "compressed row group of 1073741824 bytes has only 3"},
		{"bad flag", Velox, None, header(0, 0, 2), rowbridge.ErrLayout, "compressed flag 2"},
		{"sizes differ", Velox, None, header(4, 8, 0), rowbridge.ErrLayout, "differing sizes 4 and 8"},
		{"prefix cut by group", Velox, None, append(header(2, 2, 0), 0, 0), rowbridge.ErrLayout, "ends 2 bytes into a row size prefix"},
		{"row past group", Velox, None, append(header(5, 5, 0), 0, 0, 0, 9, 1), rowbridge.ErrOutOfBounds, "row size 9 exceeds the 1 bytes left"},
		{"compressed without codec", Velox, None, lz4Group, rowbridge.ErrLayout, "no codec is configured"},
		{"lz4 claims 1 GiB", Velox, LZ4, claim(lz4Group, 1<<30), rowbridge.ErrLayout, "lz4 cannot expand"},
		{"lz4 claims more", Velox, LZ4, claim(lz4Group, int32(binary.LittleEndian.Uint32(lz4Group))+1), rowbridge.ErrLayout, "lz4"},
		{"zstd claims 1 GiB", Velox, Zstd, claim(zstdGroup, 1<<30), rowbridge.ErrLayout, "to the 1073741824 the header says"},
		{"zstd claims less", Velox, Zstd, claim(zstdGroup, 10), rowbridge.ErrLayout, "more than the 10 the header says"},
		{"wrong codec", Velox, Snappy, zstdGroup, rowbridge.ErrLayout, "snappy"},
		{"garbage zlib", Velox, Zlib, append(header(100, 4, 1), 1, 2, 3, 4), rowbridge.ErrLayout, "zlib"},
		{"garbage gzip", Velox, Gzip, append(header(100, 4, 1), 1, 2, 3, 4), rowbridge.ErrLayout, "gzip"},
		{"lz4 empty group of garbage", Velox, LZ4, append(header(0, 48, 1), bytes.Repeat([]byte{'0'}, 48)...), rowbridge.ErrLayout, "lz4"},
		{"zstd empty group of garbage", Velox, Zstd, append(header(0, 48, 1), bytes.Repeat([]byte{'0'}, 48)...), rowbridge.ErrLayout, "zstd"},
		{"zlib empty group of garbage", Velox, Zlib, append(header(0, 48, 1), bytes.Repeat([]byte{'0'}, 48)...), rowbridge.ErrLayout, "zlib"},
		{"gzip empty group of garbage", Velox, Gzip, append(header(0, 48, 1), bytes.Repeat([]byte{'0'}, 48)...), rowbridge.ErrLayout, "gzip"},
		{"snappy empty group of garbage", Velox, Snappy, append(header(0, 48, 1), bytes.Repeat([]byte{'0'}, 48)...), rowbridge.ErrLayout, "snappy"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, err := readAll(t, bytes.NewReader(tc.stream), tc.f, tc.c, 100)
			runtime.ReadMemStats(&after)
			require.Empty(t, got)
			var fe *Error
			require.ErrorAs(t, err, &fe)
			require.ErrorIs(t, err, tc.cause)
			require.Contains(t, err.Error(), tc.msg)
			require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "a claimed size must not be allocated up front")
		})
	}
}

func TestRowAfterGoodRowsThenError(t *testing.T) {
	good := encode(t, Spark, None, makeRows(7, 3, true))
	stream := append(append([]byte{}, good...), 0x7f, 0xff, 0xff, 0xf0)
	rd, err := NewReader(bytes.NewReader(stream), Spark, None)
	require.NoError(t, err)
	rows, err := rd.Next(10)
	require.NoError(t, err, "the good rows come first")
	require.Len(t, rows, 3)
	rows, err = rd.Next(10)
	require.Empty(t, rows)
	var fe *Error
	require.ErrorAs(t, err, &fe)
	require.Equal(t, int64(3), fe.RowsRead)
	require.Equal(t, int64(len(good)), fe.Offset)
	_, err2 := rd.Next(10)
	require.Equal(t, err, err2, "the error is sticky")
}

func TestSparkEndMarker(t *testing.T) {
	rows := makeRows(8, 2, true)
	stream := append(encode(t, Spark, None, rows), 0xff, 0xff, 0xff, 0xff)
	got, err := readAll(t, bytes.NewReader(stream), Spark, None, 10)
	require.NoError(t, err)
	require.Equal(t, allRows(rows), got)
}

func TestMaxRowSizeOption(t *testing.T) {
	stream := encode(t, Spark, None, rowsOf(make([]byte, 64)))
	rd, err := NewReader(bytes.NewReader(stream), Spark, None, WithMaxRowSize(32))
	require.NoError(t, err)
	_, err = rd.Next(1)
	require.ErrorContains(t, err, "row size 64 exceeds the 32-byte row limit")
}

func TestConfigErrors(t *testing.T) {
	_, err := NewWriter(io.Discard, Spark, Zlib)
	require.ErrorContains(t, err, "velox framing only")
	_, err = NewReader(bytes.NewReader(nil), Spark, Gzip)
	require.ErrorContains(t, err, "velox framing only")
	_, err = NewWriter(io.Discard, Spark, Auto)
	require.ErrorContains(t, err, "reading only")
	_, err = NewReader(bytes.NewReader(nil), Velox, LZF)
	require.ErrorContains(t, err, "spark framing only")
	_, err = NewWriter(io.Discard, Velox, Auto)
	require.ErrorContains(t, err, "spark framing only")
	_, err = NewReader(bytes.NewReader(nil), Velox, Codec(9))
	require.Error(t, err)
	_, err = NewWriter(io.Discard, Framing(7), None)
	require.Error(t, err)
}

func TestReadErrorIsKept(t *testing.T) {
	boom := errors.New("disk on fire")
	got, err := readAll(t, iotest.ErrReader(boom), Velox, None, 1)
	require.Empty(t, got)
	require.ErrorIs(t, err, boom)
}

func TestRowsReuseBuffers(t *testing.T) {
	stream := encode(t, Spark, None, makeRows(9, 200, true))
	rd, err := NewReader(bytes.NewReader(stream), Spark, None)
	require.NoError(t, err)
	_, err = rd.Next(50)
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(2, func() {
		if _, err := rd.Next(50); err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs, "steady-state Next reuses its buffers")
}

// A compressed group that holds no rows (usize 0) is read as no rows when
// its codec's bytes really expand to nothing, and refused otherwise (the
// "empty group of garbage" cases of TestHostileHeaders).
func TestCompressedEmptyGroups(t *testing.T) {
	rows := makeRows(3, 2, true)
	for _, c := range allCodecs[1:] {
		t.Run(c.String(), func(t *testing.T) {
			var empty []byte
			if c == LZ4 {
				empty = []byte{0} // a block of one token: no literals, no match
			} else {
				comp := &compressor{codec: c}
				var err error
				empty, _, err = comp.compress(nil, nil)
				require.NoError(t, err)
			}
			require.NotEmpty(t, empty)
			stream := append(header(0, int32(len(empty)), 1), empty...)
			stream = append(stream, encode(t, Velox, c, rows)...)
			got, err := readAll(t, bytes.NewReader(stream), Velox, c, 10)
			require.NoError(t, err)
			require.Equal(t, allRows(rows), got)
		})
	}
}

// A Rows larger than the group cap becomes several Velox groups, each
// within the cap (a row larger than the cap alone in its group), and reads
// back whole.
func TestWriterSplitsLargeGroups(t *testing.T) {
	rows := makeRows(11, 40, false)
	for _, c := range []Codec{None, Zstd} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, Velox, c)
		require.NoError(t, err)
		w.maxGroup = 100
		require.NoError(t, w.Write(rows))
		stream := buf.Bytes()
		groups, rest := 0, stream
		for len(rest) > 0 {
			require.GreaterOrEqual(t, len(rest), HeaderSize)
			usize := int(binary.LittleEndian.Uint32(rest[0:]))
			csize := int(binary.LittleEndian.Uint32(rest[4:]))
			require.Zero(t, rest[8], "incompressible rows are stored as they are")
			first := int(binary.BigEndian.Uint32(rest[HeaderSize:]))
			require.True(t, usize <= 100 || usize == 4+first, "group %d of %d bytes holds more than one row", groups, usize)
			rest = rest[HeaderSize+csize:]
			groups++
		}
		require.Greater(t, groups, 1, "%v", c)
		got, err := readAll(t, bytes.NewReader(stream), Velox, c, 7)
		require.NoError(t, err)
		require.Equal(t, allRows(rows), got, "%v", c)
	}
}

// A row over the 1 GiB row limit of readers is refused before anything
// is written.
func TestWriterRefusesHugeRow(t *testing.T) {
	// Only the offsets are looked at before the refusal, so Data can be short.
	rows := &rowbridge.Rows{Data: make([]byte, 1), Offsets: []int{0, 1, MaxRowSize + 2}}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Spark, None)
	require.NoError(t, err)
	require.ErrorContains(t, w.Write(rows), "row 1 of 1073741825 bytes exceeds")
	require.Zero(t, buf.Len())
}

// In the Velox framing a row must fit one group with its size prefix.
func TestWriterRefusesRowLargerThanAGroup(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Velox, None)
	require.NoError(t, err)
	w.maxGroup = 100
	fits := &rowbridge.Rows{Data: make([]byte, 96), Offsets: []int{0, 96}}
	require.NoError(t, w.Write(fits))
	require.Equal(t, HeaderSize+100, buf.Len())
	tooBig := &rowbridge.Rows{Data: make([]byte, 97), Offsets: []int{0, 97}}
	require.ErrorContains(t, w.Write(tooBig), "row 0 of 97 bytes exceeds the 96-byte row limit")
	require.Equal(t, HeaderSize+100, buf.Len(), "nothing more is written")
}

// maxWriteRecorder records the largest Write it is given.
type maxWriteRecorder struct {
	bytes.Buffer
	largest int
}

func (m *maxWriteRecorder) Write(p []byte) (int, error) {
	m.largest = max(m.largest, len(p))
	return m.Buffer.Write(p)
}

// The Spark framing copies a batch's records out a chunk at a time, not
// all at once (a second copy of every row of the batch in memory), and
// writes the same bytes.
func TestSparkWriterCopiesInChunks(t *testing.T) {
	rows := &rowbridge.Rows{Offsets: []int{0}}
	var want []byte
	for i := range 40000 { // 40000 rows of 96 bytes: 3.8 MiB of records
		row := bytes.Repeat([]byte{byte(i)}, 96)
		rows.Data = append(rows.Data, row...)
		rows.Offsets = append(rows.Offsets, len(rows.Data))
		want = binary.BigEndian.AppendUint32(want, 96)
		want = append(want, row...)
	}
	var out maxWriteRecorder
	w, err := NewWriter(&out, Spark, None)
	require.NoError(t, err)
	require.NoError(t, w.Write(rows))
	require.NoError(t, w.Close())
	require.Equal(t, want, out.Bytes())
	require.LessOrEqual(t, out.largest, sparkChunkBytes)
	require.LessOrEqual(t, cap(w.buf), sparkChunkBytes, "the copy buffer is a chunk")
}
