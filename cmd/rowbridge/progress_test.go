package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"
)

func TestCountingReaderCounts(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), 1000)
	var totals []int64
	// OneByteReader and HalfReader make many short reads, each counted.
	cr := &countingReader{r: iotest.HalfReader(bytes.NewReader(data)), onRead: func(n int64) { totals = append(totals, n) }}
	got, err := io.ReadAll(cr)
	require.NoError(t, err)
	require.Equal(t, data, got)
	require.Equal(t, int64(len(data)), cr.n)
	require.Greater(t, len(totals), 1)
	for i := 1; i < len(totals); i++ {
		require.Greater(t, totals[i], totals[i-1], "totals only grow")
	}
	require.Equal(t, int64(len(data)), totals[len(totals)-1])

	cr = &countingReader{r: iotest.OneByteReader(strings.NewReader("abc"))}
	_, err = io.Copy(io.Discard, cr)
	require.NoError(t, err)
	require.Equal(t, int64(3), cr.n)

	// A read that fails after some bytes still counts them.
	cr = &countingReader{r: iotest.TimeoutReader(iotest.OneByteReader(strings.NewReader("xy")))}
	buf := make([]byte, 4)
	n, err := cr.Read(buf)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	_, err = cr.Read(buf)
	require.ErrorIs(t, err, iotest.ErrTimeout)
	require.Equal(t, int64(1), cr.n)
}

func TestInputSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in.bin")
	require.NoError(t, os.WriteFile(path, make([]byte, 1234), 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	require.Equal(t, int64(1234), inputSize(f))
	_, err = f.Seek(34, io.SeekStart)
	require.NoError(t, err)
	require.Equal(t, int64(1200), inputSize(f), "what is left to read")

	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	require.Equal(t, int64(-1), inputSize(r), "a pipe has no size")
	require.Equal(t, int64(-1), inputSize(bytes.NewReader(nil)))
}

// A file or pipe as stderr is not a terminal: no bar, and the input is not
// even wrapped.
func TestNoProgressWhenStderrIsNotATerminal(t *testing.T) {
	errFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	require.NoError(t, err)
	defer errFile.Close()
	in := bytes.NewReader(sampleRows)
	for _, stderr := range []io.Writer{errFile, &bytes.Buffer{}} {
		p, r := startProgress(&env{stderr: stderr}, "decode", in, false)
		require.Nil(t, p)
		require.Same(t, in, r)
	}

	// A whole decode and encode with that stderr write nothing to it.
	var arrowOut, rowsOut bytes.Buffer
	code := run([]string{"decode", "--format", "unsaferow", sampleSchemaFlag}, bytes.NewReader(sampleRows), &arrowOut, errFile)
	require.Equal(t, 0, code)
	code = run([]string{"encode", "--format", "unsaferow"}, bytes.NewReader(arrowOut.Bytes()), &rowsOut, errFile)
	require.Equal(t, 0, code)
	require.Equal(t, sampleRows, rowsOut.Bytes())
	written, err := os.ReadFile(errFile.Name())
	require.NoError(t, err)
	require.Empty(t, written)

	_, stderr, code := cli(t, sampleRows, "decode", "--no-progress", "--format", "unsaferow", sampleSchemaFlag)
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr)
}

// The bar itself, drawn into a buffer, shows bytes and rows and is erased
// at the end; without its delay passing it draws nothing.
func TestProgressDrawsAndErases(t *testing.T) {
	for _, total := range []int64{1000, -1} {
		var out bytes.Buffer
		p := newProgress(&out, "decode", total, 0, 0)
		p.setBytes(500)
		p.addRows(7)
		p.setBytes(1000)
		p.done()
		text := out.String()
		require.Contains(t, text, "decode: 0 rows", "total %d", total)
		require.Contains(t, text, "decode: 7 rows", "total %d", total)
		require.Contains(t, text, "500 B", "total %d", total)
		require.True(t, strings.HasSuffix(text, "\r"), "the line is cleared at the end: %q", text)
	}

	// All bytes read early (an Arrow file is read whole): the bar stays up
	// while the rows are written.
	var out bytes.Buffer
	p := newProgress(&out, "encode", 1000, 0, 0)
	p.setBytes(1000)
	p.addRows(5)
	require.Contains(t, out.String(), "encode: 5 rows")
	require.Contains(t, out.String(), "999 B/1.0 kB")
	p.done()
	require.True(t, strings.HasSuffix(out.String(), "\r"))

	out.Reset()
	p = newProgress(&out, "encode", 1000, progressDelay, 0)
	p.setBytes(1000)
	p.addRows(3)
	p.done()
	require.Empty(t, out.String())

	var nilProgress *progress
	nilProgress.setBytes(1)
	nilProgress.addRows(1)
	nilProgress.done()
}

// Bytes read before the bar appears count toward its rate over the whole
// time they took, not as if read the moment it appeared.
func TestProgressRateCountsFromStart(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, "decode", 1<<30, 100*time.Millisecond, 0)
	p.setBytes(30 << 20)
	require.Empty(t, out.String(), "nothing is drawn before the delay")
	time.Sleep(120 * time.Millisecond)
	p.setBytes(31 << 20)
	text := out.String()
	m := regexp.MustCompile(`, ([0-9.]+) ([kMGT]?B)/s\)`).FindStringSubmatch(text)
	require.NotNil(t, m, "the bar shows a rate: %q", text)
	rate, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	unit := map[string]float64{"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}[m[2]]
	// 31 MiB over at least 120 ms is at most about 271 MB/s.
	require.Less(t, rate*unit, 300e6, "rate %s %s/s in %q", m[1], m[2], text)
	p.done()
}
