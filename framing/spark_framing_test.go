package framing

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/iotest"

	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

func TestSparkFramingCodecs(t *testing.T) {
	batches := []*rowbridge.Rows{makeRows(1, 7, true), makeRows(2, 0, true), makeRows(3, 3000, false)}
	want := allRows(batches...)
	for _, c := range sparkCodecs {
		t.Run(c.String(), func(t *testing.T) {
			stream := encode(t, Spark, c, batches...)
			sniffed, err := SniffCodec(stream)
			require.NoError(t, err)
			require.Equal(t, c, sniffed)
			for _, rc := range []Codec{c, Auto} {
				got, err := readAll(t, bytes.NewReader(stream), Spark, rc, 100)
				require.NoError(t, err, "%v", rc)
				require.Equal(t, want, got, "%v", rc)
			}
			got, err := readAll(t, iotest.OneByteReader(bytes.NewReader(stream)), Spark, c, 7)
			require.NoError(t, err)
			require.Equal(t, want, got, "one-byte reads")
			twice := append(bytes.Clone(stream), stream...)
			got, err = readAll(t, bytes.NewReader(twice), Spark, c, 1000)
			require.NoError(t, err)
			require.Equal(t, append(append([][]byte{}, want...), want...), got, "concatenated streams")
		})
	}
}

// A -1 size ends a stream, and another may follow (collected results
// concatenated, or a fast merge of streams that each end with -1): before,
// the Reader stopped at the first -1 and dropped the rest silently.
func TestSparkEndMarkerThenMore(t *testing.T) {
	a, b := makeRows(4, 5, true), makeRows(5, 6, true)
	end := []byte{0xff, 0xff, 0xff, 0xff}
	stream := append(append(append(encode(t, Spark, None, a), end...), encode(t, Spark, None, b)...), end...)
	got, err := readAll(t, bytes.NewReader(stream), Spark, None, 4)
	require.NoError(t, err)
	require.Equal(t, allRows(a, b), got)
	for _, c := range sparkCodecs {
		var packed []byte
		for _, part := range [][]byte{append(encode(t, Spark, None, a), end...), append(encode(t, Spark, None, b), end...)} {
			packed = append(packed, writeStream(t, c, part, 100)...)
		}
		got, err := readAll(t, bytes.NewReader(packed), Spark, c, 4)
		require.NoError(t, err, "%v", c)
		require.Equal(t, allRows(a, b), got, "%v", c)
	}
	// Only -1s, and a -1 cut short.
	got, err = readAll(t, bytes.NewReader(append(bytes.Clone(end), end...)), Spark, None, 4)
	require.NoError(t, err)
	require.Empty(t, got)
	_, err = readAll(t, bytes.NewReader(append(bytes.Clone(end), 0xff, 0xff)), Spark, None, 4)
	require.ErrorIs(t, err, rowbridge.ErrTruncated)
}

// RowOffset places each row of a batch at its size prefix, end markers
// before and between the rows counted, and Contiguous tells a batch with a
// marker between its rows from one without.
func TestSparkRowOffsets(t *testing.T) {
	end := []byte{0xff, 0xff, 0xff, 0xff}
	a, b := makeRows(3, 3, true), makeRows(2, 2, true)
	stream := append(append(append(bytes.Clone(end), encode(t, Spark, None, a)...), end...), encode(t, Spark, None, b)...)
	var want []int64 // every row's prefix
	for off := 0; off < len(stream); {
		u := binary.BigEndian.Uint32(stream[off:])
		if u != 0xffffffff {
			want = append(want, int64(off))
			off += int(u)
		}
		off += 4
	}
	require.Len(t, want, 5)
	for _, n := range []int{1, 2, 3, 5} {
		r, err := NewReader(bytes.NewReader(stream), Spark, None)
		require.NoError(t, err)
		var got []int64
		for first := 0; ; {
			rows, err := r.Next(n)
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			for i := range rows {
				got = append(got, r.RowOffset(i))
			}
			gap := first < 3 && first+len(rows) > 3 // rows 2 and 3 have a marker between them
			require.Equal(t, !gap, r.Contiguous(), "batch of %d from row %d", n, first)
			require.Equal(t, int64(-1), r.RowOffset(len(rows)))
			first += len(rows)
		}
		require.Equal(t, want, got, "batches of %d", n)
	}
}

// A codec failure inside the Spark framing is a *framing.Error (rows read,
// decompressed offset) wrapping the *CodecError (compressed offset).
func TestSparkFramingCodecError(t *testing.T) {
	rows := makeRows(6, 200, false)
	for _, c := range sparkCodecs {
		stream := encode(t, Spark, c, rows)
		cut := stream[:len(stream)*2/3]
		got, err := readAll(t, bytes.NewReader(cut), Spark, c, 10)
		var fe *Error
		require.ErrorAs(t, err, &fe, "%v", c)
		require.Equal(t, int64(len(got)), fe.RowsRead)
		var ce *CodecError
		if c == Snappy || c == LZF {
			// No end mark: a cut between chunks looks like a row cut short.
			if !errors.As(err, &ce) {
				require.ErrorIs(t, err, rowbridge.ErrTruncated, "%v", c)
				continue
			}
		}
		require.ErrorAs(t, err, &ce, "%v", c)
		require.Equal(t, c, ce.Codec)
		require.Contains(t, err.Error(), fmt.Sprintf("decompressing: %v stream: compressed byte ", c))
	}
}

// FuzzSparkFraming reads data as Spark-framed rows inside the codec
// stream mode picks: never a panic, failures are *Error with the rows
// returned before them, and a codec failure is a *CodecError inside.
func FuzzSparkFraming(f *testing.F) {
	codecs := []Codec{None, LZ4, Snappy, Zstd, LZF, Auto}
	for i, c := range codecs[:5] {
		f.Add(byte(i), encode(f, Spark, c, makeRows(uint64(i), 20, true)))
	}
	f.Add(byte(5), unhex(f, javaE1[LZ4]))
	f.Fuzz(func(t *testing.T, mode byte, data []byte) {
		c := codecs[int(mode)%len(codecs)]
		rd, err := NewReader(bytes.NewReader(data), Spark, c, WithMaxRowSize(1<<20))
		if err != nil {
			var ce *CodecError
			if c != Auto || !errors.As(err, &ce) {
				t.Fatalf("NewReader(%v): %v", c, err)
			}
			return
		}
		drainChecked(t, rd, 5)
	})
}
