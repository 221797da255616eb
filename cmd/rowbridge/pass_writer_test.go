package main

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

// callRecorder records each Write call: its bytes' first address and a copy.
type callRecorder struct {
	calls [][]byte
	first []*byte
	fail  error // returned by every Write when set
}

func (r *callRecorder) Write(b []byte) (int, error) {
	if r.fail != nil {
		return 0, r.fail
	}
	r.calls = append(r.calls, bytes.Clone(b))
	r.first = append(r.first, &b[0])
	return len(b), nil
}

func TestPassWriterBuffersSmallWritesAndPassesLargeOnes(t *testing.T) {
	rec := &callRecorder{}
	w := newPassWriter(rec)
	head := []byte("header")
	large := bytes.Repeat([]byte{0xAB}, passSize)
	small := bytes.Repeat([]byte{0x01}, passSize-1)

	for _, b := range [][]byte{head, large, small, small, large} {
		n, err := w.Write(b)
		require.NoError(t, err)
		require.Equal(t, len(b), n)
	}
	_, err := w.WriteString("tail")
	require.NoError(t, err)
	require.NoError(t, w.Flush())

	// The header goes out buffered before the first large write, which goes
	// out as it is (the caller's own bytes, not a copy); the two small writes
	// that follow are one buffered write, flushed before the second large one.
	require.Len(t, rec.calls, 5)
	require.Equal(t, head, rec.calls[0])
	require.Equal(t, large, rec.calls[1])
	require.Same(t, &large[0], rec.first[1])
	require.Equal(t, append(bytes.Clone(small), small...), rec.calls[2])
	require.Same(t, &large[0], rec.first[3])
	require.Equal(t, []byte("tail"), rec.calls[4])

	var want []byte
	for _, b := range [][]byte{head, large, small, small, large, []byte("tail")} {
		want = append(want, b...)
	}
	require.Equal(t, want, bytes.Join(rec.calls, nil))
}

func TestPassWriterKeepsTheErrorOfAWritePassedThrough(t *testing.T) {
	full := errors.New("no space left on device")
	rec := &callRecorder{fail: full}
	w := newPassWriter(rec)
	_, err := w.Write(make([]byte, passSize))
	require.ErrorIs(t, err, full)
	_, err = w.Write([]byte("x"))
	require.ErrorIs(t, err, full, "a later small write must not be buffered as if nothing had failed")
	require.ErrorIs(t, w.Flush(), full)
}

// shortWriter writes half of what it is given and reports no error.
type shortWriter struct{}

func (shortWriter) Write(b []byte) (int, error) { return len(b) / 2, nil }

func TestPassWriterReportsAShortWrite(t *testing.T) {
	w := newPassWriter(shortWriter{})
	n, err := w.Write(make([]byte, 2*passSize))
	require.Equal(t, passSize, n)
	require.ErrorIs(t, err, io.ErrShortWrite)
	require.ErrorIs(t, w.Flush(), io.ErrShortWrite)
}
