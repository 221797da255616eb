package framing

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"syscall"
	"testing"
	"testing/iotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

// TestErrorsWrapArrowSentinels: a bad argument or option and a bad stream
// (an *Error or a *CodecError, whatever its sentinel cause) wrap
// arrow.ErrInvalid, as arrow-go's own errors do; a failure of the input
// itself keeps its own cause and is no arrow.ErrInvalid.
func TestErrorsWrapArrowSentinels(t *testing.T) {
	empty := func() io.Reader { return bytes.NewReader(nil) }
	readAll := func(r io.Reader, err error) error {
		if err != nil {
			return err
		}
		_, err = io.ReadAll(r)
		return err
	}
	nextRows := func(r *Reader, err error) error {
		if err != nil {
			return err
		}
		_, err = r.Next(10)
		return err
	}
	closedWrite := func(c Codec) error {
		w, err := NewStreamWriter(io.Discard, c)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		_, err = w.Write([]byte("x"))
		return err
	}
	for _, tc := range []struct {
		name string
		err  error
		kind error
	}{
		{"ParseFraming", second(ParseFraming("json")), arrow.ErrInvalid},
		{"ParseCodec", second(ParseCodec("brotli")), arrow.ErrInvalid},
		{"unknown framing", second(NewReader(empty(), Framing(7), None)), arrow.ErrInvalid},
		{"unknown codec", second(NewReader(empty(), Velox, Codec(99))), arrow.ErrInvalid},
		{"spark-only codec in velox", second(NewReader(empty(), Velox, LZF)), arrow.ErrInvalid},
		{"velox-only codec in spark", second(NewWriter(io.Discard, Spark, Gzip)), arrow.ErrInvalid},
		{"auto for writing", second(NewWriter(io.Discard, Spark, Auto)), arrow.ErrInvalid},
		{"block size 0", second(NewStreamWriter(io.Discard, LZ4, WithBlockSize(0))), arrow.ErrInvalid},
		{"lz4 block size", second(NewStreamWriter(io.Discard, LZ4, WithBlockSize(1))), arrow.ErrInvalid},
		{"snappy block size", second(NewStreamWriter(io.Discard, Snappy, WithBlockSize(1))), arrow.ErrInvalid},
		{"lzf block size", second(NewStreamWriter(io.Discard, LZF, WithBlockSize(1<<20))), arrow.ErrInvalid},
		{"zstd block size", second(NewStreamWriter(io.Discard, Zstd, WithBlockSize(1<<16))), arrow.ErrInvalid},
		{"uncompressed block size", second(NewStreamWriter(io.Discard, None, WithBlockSize(1<<16))), arrow.ErrInvalid},
		{"zstd level", second(NewStreamWriter(io.Discard, Zstd, WithZstdLevel(99))), arrow.ErrInvalid},
		{"zstd window", second(NewStreamReader(empty(), Zstd, WithMaxZstdWindow(10))), arrow.ErrInvalid},
		{"lz4 write after close", closedWrite(LZ4), arrow.ErrInvalid},
		{"zstd write after close", closedWrite(Zstd), arrow.ErrInvalid},
		{"truncated spark row", nextRows(NewReader(bytes.NewReader([]byte{0, 0, 0, 9, 1}), Spark, None)), arrow.ErrInvalid},
		{"bad velox header", nextRows(NewReader(bytes.NewReader([]byte{1, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0}), Velox, None)), arrow.ErrInvalid},
		{"corrupt lz4 stream", readAll(NewStreamReader(bytes.NewReader([]byte("LZ4Block-this is not a block header")), LZ4)), arrow.ErrInvalid},
		{"corrupt zstd stream", readAll(NewStreamReader(bytes.NewReader([]byte{0x28, 0xb5, 0x2f, 0xfd, 0xff, 0xff, 0xff}), Zstd)), arrow.ErrInvalid},
		{"codec inside framing", nextRows(NewReader(bytes.NewReader([]byte("LZ4Block-this is not a block header")), Spark, LZ4)), arrow.ErrInvalid},
	} {
		require.Error(t, tc.err, tc.name)
		require.ErrorIs(t, tc.err, tc.kind, "%s: %v", tc.name, tc.err)
	}

	var fe *Error
	require.ErrorAs(t, nextRows(NewReader(bytes.NewReader([]byte{0, 0, 0, 9, 1}), Spark, None)), &fe)
	require.ErrorIs(t, fe, rowbridge.ErrTruncated)
	var ce *CodecError
	require.ErrorAs(t, readAll(NewStreamReader(bytes.NewReader([]byte("LZ4Block-this is not a block header")), LZ4)), &ce)

	// The input's own failure is neither rowbridge's nor arrow-go's kind.
	eio := &fs.PathError{Op: "read", Path: "map_0.data", Err: syscall.EIO}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"spark framing", nextRows(NewReader(iotest.ErrReader(eio), Spark, None))},
		{"velox framing", nextRows(NewReader(iotest.ErrReader(eio), Velox, None))},
		{"lz4 stream", readAll(NewStreamReader(iotest.ErrReader(eio), LZ4))},
		{"zstd stream", readAll(NewStreamReader(iotest.ErrReader(eio), Zstd))},
	} {
		require.ErrorIs(t, tc.err, syscall.EIO, tc.name)
		require.False(t, errors.Is(tc.err, arrow.ErrInvalid), "%s: %v is an I/O error, not bad data", tc.name, tc.err)
	}
}

func second[T any](_ T, err error) error { return err }
