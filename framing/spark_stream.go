package framing

import (
	"bufio"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/errkind"
)

// Spark's stream codecs: what org.apache.spark.io.CompressionCodec wraps
// around every shuffle file segment, spill and collected result. Each codec
// lives in a file of its own (spark_lz4.go, spark_snappy.go, spark_zstd.go,
// spark_lzf.go); this file holds the dispatch, the options and the error.

// Block-size defaults and limits of the stream writers, as Spark and the
// Java libraries set them.
const (
	SparkLZ4BlockSize    = 32 << 10 // spark.io.compression.lz4.blockSize
	SparkSnappyBlockSize = 32 << 10 // spark.io.compression.snappy.blockSize
	SparkLZFBlockSize    = 0xFFFF   // compress-lzf's LZFChunk.MAX_CHUNK_LEN (Spark does not set it)
	SparkZstdLevel       = 1        // spark.io.compression.zstd.level

	lz4MinBlockSize    = 64       // lz4-java LZ4BlockOutputStream.MIN_BLOCK_SIZE
	lz4MaxBlockSize    = 32 << 20 // lz4-java: 1 << (COMPRESSION_LEVEL_BASE + 0x0F)
	snappyMinBlockSize = 1 << 10  // snappy-java SnappyOutputStream.MIN_BLOCK_SIZE
	snappyMaxBlockSize = 512 << 20
	lzfMaxChunk        = 0xFFFF // an LZF chunk's lengths are 16-bit
)

// StreamOption configures NewStreamReader and NewStreamWriter. An option
// given a value it cannot take makes the constructor fail.
type StreamOption func(*streamOptions) error

type streamOptions struct {
	blockSize int // 0: the codec's Spark default
	zstdLevel int
	maxWindow int // zstd decoder window and memory limit
}

// WithBlockSize sets the writer's block size in uncompressed bytes: lz4
// 64 B to 32 MiB (default 32 KiB; lz4-java records it in each header as
// the power of two at or above it), snappy 1 KiB to 512 MiB (default
// 32 KiB), lzf 1 to 65535 (default 65535). zstd has no blocks to set (the
// BufferedOutputStream in front of zstd-jni does not change the bytes), so
// the option is refused there. Readers accept every legal block size
// whatever this says.
func WithBlockSize(n int) StreamOption {
	return func(o *streamOptions) error {
		if n <= 0 {
			return fmt.Errorf("framing: block size %d, want a positive size: %w", n, arrow.ErrInvalid)
		}
		o.blockSize = n
		return nil
	}
}

// WithZstdLevel sets the zstd writer's compression level, as
// spark.io.compression.zstd.level does (default 1), mapped to the nearest
// level of the Go encoder (1 fastest .. 4 best of its four).
func WithZstdLevel(level int) StreamOption {
	return func(o *streamOptions) error {
		if level < 1 || level > 22 {
			return fmt.Errorf("framing: zstd level %d, want 1 to 22: %w", level, arrow.ErrInvalid)
		}
		o.zstdLevel = level
		return nil
	}
}

// WithMaxZstdWindow sets the largest zstd window (and decoder memory) a
// reader accepts (default MaxZstdWindow).
func WithMaxZstdWindow(n int) StreamOption {
	return func(o *streamOptions) error {
		if n < 1<<10 {
			return fmt.Errorf("framing: zstd window limit %d, want at least 1 KiB: %w", n, arrow.ErrInvalid)
		}
		o.maxWindow = n
		return nil
	}
}

// MaxZstdWindow is the largest zstd window a stream reader accepts by
// default: 128 MiB, the reference decoder's default limit (window log 27).
const MaxZstdWindow = 128 << 20

func newStreamOptions(opts []StreamOption) (streamOptions, error) {
	o := streamOptions{zstdLevel: SparkZstdLevel, maxWindow: MaxZstdWindow}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return o, err
		}
	}
	return o, nil
}

// CodecError reports a Spark codec stream that is corrupt or truncated:
// the codec, the byte offset in the compressed input of the block, chunk
// or frame at fault (for zstd: how far the decoder had read), and which of
// several concatenated streams it is in. Err is the cause:
// rowbridge.ErrTruncated, ErrLayout (corrupt data), ErrOutOfBounds (a
// length beyond its limit), each an arrow.ErrInvalid, or the input's own
// I/O error, which keeps its cause and is no arrow.ErrInvalid.
type CodecError struct {
	Codec  Codec
	Offset int64 // byte offset in the compressed input
	Stream int   // 0-based index among concatenated streams
	Msg    string
	Err    error
}

func (e *CodecError) Error() string {
	msg := fmt.Sprintf("%v stream: compressed byte %d", e.Codec, e.Offset)
	if e.Stream > 0 {
		msg += fmt.Sprintf(" (stream %d of the concatenation)", e.Stream+1)
	}
	msg += ": " + e.Msg
	if e.Err != nil && !isSentinel(e.Err) {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *CodecError) Unwrap() error { return e.Err }

// isSentinel says whether err is one of rowbridge's causes, which the
// message already explains.
func isSentinel(err error) bool {
	return err == rowbridge.ErrTruncated || err == rowbridge.ErrLayout || err == rowbridge.ErrOutOfBounds
}

// NewStreamReader returns the decompressed bytes of a Spark codec stream:
// r may hold several complete streams back to back (Spark's fast spill
// merge concatenates them), and 0 bytes are an empty stream. c is None (r
// itself), LZ4, Snappy, Zstd, LZF, or Auto, which sniffs the codec from the
// first bytes (see SniffCodec) and so may read from r before returning.
// Corrupt or truncated input gives a *CodecError from Read.
func NewStreamReader(r io.Reader, c Codec, opts ...StreamOption) (io.Reader, error) {
	o, err := newStreamOptions(opts)
	if err != nil {
		return nil, err
	}
	if err := sparkCodec(c, true); err != nil {
		return nil, err
	}
	if c == None {
		return r, nil
	}
	br, ok := r.(*bufio.Reader)
	if !ok || br.Size() < streamBufferSize {
		br = bufio.NewReaderSize(r, streamBufferSize)
	}
	if c == Auto {
		head, err := br.Peek(sniffLen)
		if err != nil && err != io.EOF {
			return nil, &CodecError{Codec: Auto, Msg: "reading the first bytes", Err: err}
		}
		if c, err = SniffCodec(head); err != nil {
			return nil, err
		}
		if c == None {
			return br, nil
		}
	}
	switch c {
	case LZ4:
		return &lz4Reader{in: br}, nil
	case Snappy:
		return &snappyReader{in: br}, nil
	case Zstd:
		return newZstdReader(br, o)
	default:
		return &lzfReader{in: br}, nil
	}
}

// NewStreamWriter returns a writer of one Spark codec stream to w, built
// as Spark's CompressionCodec configures the Java library (see the codec
// files and WithBlockSize). Close ends the stream (lz4 writes its end
// mark, snappy its header if nothing was written) without closing w.
func NewStreamWriter(w io.Writer, c Codec, opts ...StreamOption) (io.WriteCloser, error) {
	o, err := newStreamOptions(opts)
	if err != nil {
		return nil, err
	}
	if err := sparkCodec(c, false); err != nil {
		return nil, err
	}
	switch c {
	case None:
		if o.blockSize != 0 {
			return nil, fmt.Errorf("framing: an uncompressed stream has no block size: %w", arrow.ErrInvalid)
		}
		return nopCloser{w}, nil
	case LZ4:
		return newLZ4Writer(w, o)
	case Snappy:
		return newSnappyWriter(w, o)
	case Zstd:
		return newZstdWriter(w, o)
	default:
		return newLZFWriter(w, o)
	}
}

// sparkCodec refuses the codecs Spark has no stream for.
func sparkCodec(c Codec, reading bool) error {
	switch c {
	case None, LZ4, Snappy, Zstd, LZF:
		return nil
	case Auto:
		if reading {
			return nil
		}
		return fmt.Errorf("framing: codec auto applies to reading only (name the codec to write): %w", arrow.ErrInvalid)
	case Zlib, Gzip:
		return fmt.Errorf("framing: Spark has no %v codec (its streams are lz4, snappy, zstd or lzf); %v applies to the velox framing only: %w", c, c, arrow.ErrInvalid)
	}
	return fmt.Errorf("framing: unknown codec %v: %w", c, arrow.ErrInvalid)
}

// streamBufferSize is the input buffer of a stream reader: a Spark block
// (32 KiB and its header) is decompressed straight from it.
const streamBufferSize = 64 << 10

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// readHeader reads a fixed-size block header into h. At a clean end of
// input (no byte of a header) it returns io.EOF; part of a header is
// io.ErrUnexpectedEOF.
func readHeader(in *bufio.Reader, h []byte) error {
	n, err := io.ReadFull(in, h)
	if err == io.EOF && n == 0 {
		return io.EOF
	}
	return err
}

// payload returns the next n bytes of in: a view of in's buffer when they
// fit (valid until the next read of in), else a copy in *spare, grown as
// the bytes arrive so a hostile length costs memory only as its bytes do.
func payload(in *bufio.Reader, n int, spare *[]byte) ([]byte, error) {
	if n <= in.Size() {
		b, err := in.Peek(n)
		if err != nil {
			return nil, err
		}
		in.Discard(n)
		return b, nil
	}
	var err error
	*spare, err = appendRead((*spare)[:0], in, n)
	return *spare, err
}

// truncatedOr maps a short read to ErrTruncated and keeps I/O errors.
func truncatedOr(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return rowbridge.ErrTruncated
	}
	return err
}

// errWriteClosed is a Write after Close.
var errWriteClosed = errkind.New("framing: write to a closed stream", arrow.ErrInvalid)

// blockOutput serves Read from a codec's decoded blocks: a block that fits
// the caller's buffer is decoded straight into it, any other into out and
// copied out from there.
type blockOutput struct {
	out []byte
	off int // out[off:] is still to be returned
	err error
}

// blockDecoder decodes the next block of a stream: into p when it fits
// (returning its length), else into its blockOutput's out (returning 0).
type blockDecoder interface {
	next(p []byte) (int, error)
}

func (b *blockOutput) read(p []byte, d blockDecoder) (int, error) {
	for b.off == len(b.out) {
		if b.err != nil {
			return 0, b.err
		}
		if len(p) == 0 {
			return 0, nil
		}
		b.out, b.off = b.out[:0], 0
		n, err := d.next(p)
		if err != nil {
			b.err = err
		}
		if n > 0 {
			return n, nil
		}
	}
	n := copy(p, b.out[b.off:])
	b.off += n
	return n, nil
}

// dest is where a block of size bytes is decoded: p when it fits, else
// out grown to size (left empty until the block is good).
func (b *blockOutput) dest(p []byte, size int) []byte {
	if len(p) >= size {
		return p[:size]
	}
	b.out = growTo(b.out, size)[:0]
	return b.out[:size]
}

// decoded ends the next call for a good block in dst (from dest, or read
// into p or out): its length when it went into p, else 0 with dst left in
// out to be copied out.
func (b *blockOutput) decoded(p, dst []byte) (int, error) {
	if len(p) >= len(dst) {
		b.out, b.off = b.out[:0], 0
		return len(dst), nil
	}
	b.out, b.off = dst, 0
	return 0, nil
}

// blockInput cuts the bytes written to a codec's writer into blocks of
// blockSize; a whole block of a long Write is encoded in place.
type blockInput struct {
	blockSize int
	buf       []byte // pending input, less than a block
	closed    bool
	err       error
}

// blockEncoder writes one block.
type blockEncoder interface {
	writeBlock(src []byte) error
}

func (b *blockInput) write(p []byte, e blockEncoder) (int, error) {
	if b.closed {
		return 0, errWriteClosed
	}
	if b.err != nil {
		return 0, b.err
	}
	written := 0
	for len(p) > 0 {
		if len(b.buf) == 0 && len(p) >= b.blockSize {
			if b.err = e.writeBlock(p[:b.blockSize]); b.err != nil {
				return written, b.err
			}
			p, written = p[b.blockSize:], written+b.blockSize
			continue
		}
		n := min(len(p), b.blockSize-len(b.buf))
		b.buf = append(b.buf, p[:n]...)
		p, written = p[n:], written+n
		if len(b.buf) == b.blockSize {
			if b.err = e.writeBlock(b.buf); b.err != nil {
				return written, b.err
			}
			b.buf = b.buf[:0]
		}
	}
	return written, nil
}

// close writes the pending block; ok is false when the stream was closed
// already (or failed before), so the codec writes no end of its own.
func (b *blockInput) close(e blockEncoder) (ok bool, err error) {
	if b.closed {
		return false, nil
	}
	b.closed = true
	if b.err != nil {
		return false, b.err
	}
	if len(b.buf) > 0 {
		if err := e.writeBlock(b.buf); err != nil {
			return false, err
		}
	}
	return true, nil
}
