package framing

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/klauspost/compress/zstd"
	"github.com/rowbridge/rowbridge"
)

// zstd-jni's ZstdOutputStreamNoFinalizer, as Spark's ZStdCompressionCodec
// builds it (level spark.io.compression.zstd.level = 1, behind a 32 KiB
// BufferedOutputStream, which changes no byte): one standard zstd frame per
// stream (magic 28 B5 2F FD), no content checksum, closed at close; flush
// ends blocks, not the frame. Concatenated streams are consecutive frames.
// An empty stream is 0 bytes (zstd-jni before 1.5.5-1) or an empty frame.

// zstdWindow is the window zstd-jni uses at level 1 for input of unknown
// size (window log 19); the writer keeps to it so readers need no more.
const zstdWindow = 1 << 19

// zstdReader reads consecutive zstd frames through klauspost's decoder,
// run synchronously, with the window and memory capped.
type zstdReader struct {
	count  countingReader
	dec    *zstd.Decoder // nil once released
	pooled bool          // dec has the default limits and goes back to zstdDecoders
	err    error
}

// zstdDecoders keeps decoders with the default limits between streams: a
// decoder's tables and window buffers cost about a megabyte, more than a
// small shuffle segment holds.
var zstdDecoders sync.Pool

func newZstdReader(in io.Reader, o streamOptions) (*zstdReader, error) {
	r := &zstdReader{count: countingReader{r: in}, pooled: o.maxWindow == MaxZstdWindow}
	if r.pooled {
		if dec, ok := zstdDecoders.Get().(*zstd.Decoder); ok {
			if err := dec.Reset(&r.count); err == nil {
				r.dec = dec
				return r, nil
			}
		}
	}
	dec, err := zstd.NewReader(&r.count, zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxWindow(uint64(o.maxWindow)), zstd.WithDecoderMaxMemory(uint64(o.maxWindow)))
	if err != nil {
		return nil, err
	}
	r.dec = dec
	return r, nil
}

// release hands the decoder back once the stream has ended or failed.
func (r *zstdReader) release() {
	if r.pooled && r.dec.Reset(nil) == nil {
		zstdDecoders.Put(r.dec)
	}
	r.dec = nil
}

func (r *zstdReader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.dec.Read(p)
	if err != nil && err != io.EOF {
		var ce *CodecError
		if r.count.err != nil && errors.Is(err, r.count.err) {
			err = &CodecError{Codec: Zstd, Offset: r.count.n, Msg: "reading", Err: r.count.err}
		} else if !errors.As(err, &ce) {
			cause := rowbridge.ErrLayout
			if errors.Is(err, io.ErrUnexpectedEOF) {
				cause = rowbridge.ErrTruncated
			} else if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
				cause = rowbridge.ErrOutOfBounds
			}
			err = &CodecError{Codec: Zstd, Offset: r.count.n, Msg: fmt.Sprintf("corrupt or truncated zstd frame at or before this byte: %v", err), Err: cause}
		}
	}
	if err != nil {
		r.err = err
		r.release()
	}
	return n, err
}

// countingReader counts the bytes read through it and keeps the input's
// own error apart from the decoder's.
type countingReader struct {
	r   io.Reader
	n   int64
	err error
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// zstdWriter writes one zstd frame per stream.
type zstdWriter struct {
	enc    *zstd.Encoder
	closed bool
}

func newZstdWriter(w io.Writer, o streamOptions) (*zstdWriter, error) {
	if o.blockSize != 0 {
		return nil, fmt.Errorf("framing: zstd streams have no block size (zstd-jni's buffer size changes no byte): %w", arrow.ErrInvalid)
	}
	enc, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(o.zstdLevel)),
		zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(false), zstd.WithWindowSize(zstdWindow),
		zstd.WithZeroFrames(true))
	if err != nil {
		return nil, err
	}
	return &zstdWriter{enc: enc}, nil
}

func (w *zstdWriter) Write(p []byte) (int, error) {
	if w.closed {
		return 0, errWriteClosed
	}
	return w.enc.Write(p)
}

// Close ends the frame; an empty stream is an empty frame, as zstd-jni
// 1.5.5-1 and later write it.
func (w *zstdWriter) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	return w.enc.Close()
}
