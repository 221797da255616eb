package framing

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Expansion bounds of the block codecs, used to refuse a header whose
// uncompressed size the compressed bytes cannot produce before allocating
// it. An LZ4 length byte yields at most 255 bytes; a snappy copy op of two
// or more bytes yields at most 64.
const (
	lz4MaxRatio    = 255
	snappyMaxRatio = 32
	blockSlack     = 64
)

// Expansion bounds of the stream codecs. Deflate (zlib, gzip) yields at
// most 258 bytes per 2 bits, 1032 per byte. Zstd's densest block is an RLE
// block, 4 bytes (3 of header, 1 of value) for 128 KiB.
const (
	deflateMaxRatio = 1032
	zstdMaxRatio    = zstdMaxBlock / 4
)

// Zstd frame limits (RFC 8878). A block yields at most 128 KiB; the RFC
// asks decoders to support windows of up to 8 MiB and encoders not to need
// more.
const (
	zstdMaxBlock      = 128 << 10
	zstdWindowSupport = 8 << 20
	zstdSlack         = zstdMaxBlock + 16 // what one block past a frame's content size takes before the decoder stops it
)

// errCorrupt marks data a codec rejected.
var errCorrupt = errors.New("corrupt compressed row group")

// compressor compresses row groups, keeping codec state between groups.
type compressor struct {
	codec Codec
	lz4   lz4.Compressor
	zstd  *zstd.Encoder
	zlib  *zlib.Writer
	gzip  *gzip.Writer
	out   bytes.Buffer
}

// compress appends src compressed to dst. ok is false when the codec
// declined (LZ4 reports incompressible input that way).
func (c *compressor) compress(dst, src []byte) (out []byte, ok bool, err error) {
	switch c.codec {
	case LZ4:
		dst = growTo(dst, lz4.CompressBlockBound(len(src)))
		n, err := c.lz4.CompressBlock(src, dst)
		if err != nil || n == 0 {
			return dst[:0], false, err
		}
		return dst[:n], true, nil
	case Snappy:
		return snappy.Encode(dst[:cap(dst)], src), true, nil
	case Zstd:
		if c.zstd == nil {
			if c.zstd, err = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1)); err != nil {
				return nil, false, err
			}
		}
		return c.zstd.EncodeAll(src, dst[:0]), true, nil
	case Zlib, Gzip:
		c.out.Reset()
		var w io.WriteCloser
		if c.codec == Zlib {
			if c.zlib == nil {
				c.zlib = zlib.NewWriter(&c.out)
			} else {
				c.zlib.Reset(&c.out)
			}
			w = c.zlib
		} else {
			if c.gzip == nil {
				c.gzip = gzip.NewWriter(&c.out)
			} else {
				c.gzip.Reset(&c.out)
			}
			w = c.gzip
		}
		if _, err := w.Write(src); err != nil {
			return nil, false, err
		}
		if err := w.Close(); err != nil {
			return nil, false, err
		}
		return append(dst[:0], c.out.Bytes()...), true, nil
	}
	return nil, false, fmt.Errorf("framing: no compressor for codec %v: %w", c.codec, arrow.ErrNotImplemented)
}

// decompressor expands row groups, keeping codec state between groups.
type decompressor struct {
	codec   Codec
	src     bytes.Reader
	zstd    *zstd.Decoder
	zlib    io.ReadCloser
	gzip    *gzip.Reader
	patched []byte // a zstd frame given the content size its header lacks
}

// decompress expands src into dst, reusing its memory, and returns exactly
// size bytes (the size the group's header claims) or an error. Every codec
// first checks that src can expand to size at all (its largest expansion
// ratio), then writes straight into one buffer of size bytes (plus, for
// zstd, one block of slack): no decoder window, history or growing buffer
// is sized by anything but the claim, so a group costs its claimed size
// once, whatever its compressed bytes declare.
func (d *decompressor) decompress(dst, src []byte, size int) ([]byte, error) {
	switch d.codec {
	case LZ4:
		if int64(size) > lz4MaxRatio*int64(len(src))+blockSlack {
			return dst[:0], fmt.Errorf("%w: lz4 cannot expand %d bytes to the %d the header claims", errCorrupt, len(src), size)
		}
		// The lz4 library needs room for at least one byte (it crashes on an
		// empty destination); a group that claims 0 bytes must then produce 0.
		dst = growTo(dst, max(size, 1))
		n, err := lz4.UncompressBlock(src, dst)
		if err != nil {
			return dst[:0], fmt.Errorf("%w: %v", errCorrupt, err) // the lz4 error names lz4
		}
		if n != size {
			return dst[:0], fmt.Errorf("%w: lz4 produced %d bytes, header says %d", errCorrupt, n, size)
		}
		return dst[:size], nil
	case Snappy:
		n, err := snappy.DecodedLen(src)
		if err != nil {
			return dst[:0], fmt.Errorf("%w: snappy: %v", errCorrupt, err)
		}
		if n != size {
			return dst[:0], fmt.Errorf("%w: snappy block holds %d bytes, header says %d", errCorrupt, n, size)
		}
		if int64(size) > snappyMaxRatio*int64(len(src))+blockSlack {
			return dst[:0], fmt.Errorf("%w: snappy cannot expand %d bytes to the %d the header claims", errCorrupt, len(src), size)
		}
		// snappy.Decode writes into dst when it holds the decoded length,
		// which DecodedLen has just checked is size.
		out, err := snappy.Decode(growTo(dst, size), src)
		if err != nil {
			return dst[:0], fmt.Errorf("%w: snappy: %v", errCorrupt, err)
		}
		return out, nil
	case Zstd:
		return d.zstdGroup(dst, src, size)
	case Zlib, Gzip:
		if int64(size) > deflateMaxRatio*int64(len(src))+blockSlack {
			return dst[:0], fmt.Errorf("%w: %v cannot expand %d bytes to the %d the header says", errCorrupt, d.codec, len(src), size)
		}
		r, err := d.stream(src)
		if err != nil {
			return dst[:0], fmt.Errorf("%w: %v: %v", errCorrupt, d.codec, err)
		}
		// The inflater keeps only its 32 KiB window; it writes straight
		// into dst.
		dst = growTo(dst, size)
		n, err := io.ReadFull(r, dst)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return dst[:0], fmt.Errorf("%w: %v produced %d bytes, header says %d", errCorrupt, d.codec, n, size)
		}
		if err != nil {
			return dst[:0], fmt.Errorf("%w: %v: %v", errCorrupt, d.codec, err)
		}
		// The stream must end here, and end cleanly: a decoder error after
		// the last byte (or before the first, when size is 0) is corruption too.
		var one [1]byte
		n, err = io.ReadFull(r, one[:])
		if n != 0 {
			return dst[:0], fmt.Errorf("%w: %v produced more than the %d bytes the header says", errCorrupt, d.codec, size)
		}
		if err != io.EOF {
			return dst[:0], fmt.Errorf("%w: %v: %v", errCorrupt, d.codec, err)
		}
		return dst, nil
	}
	return dst[:0], fmt.Errorf("%w: the row group is compressed but no codec is configured (the stream does not record it)", errCorrupt)
}

// zstdGroup expands the zstd frames in src into dst, which must come out
// exactly size bytes long.
//
// It decodes frame by frame with DecodeAll into one buffer of size bytes
// plus zstdSlack, which the decoder uses as its history too, so it
// allocates no window: the memory is the claim, whatever window a frame
// declares. Before decoding a frame it checks its header: the content size
// must fit what is left of the claim, and the window may exceed that only
// up to the 8 MiB every encoder may assume (a frame for 9 bytes with a
// 64 MiB window is refused).
//
// A frame whose header leaves out its content size (klauspost's EncodeAll
// does for under 256 bytes, streaming encoders always) gets the rest of the
// claim written in as its content size. The decoder stops a frame only
// after the block that passes its content size, or the buffer's capacity,
// and appends that block first: with a content size no larger than the
// claim, the block lands in the slack instead of reallocating the buffer.
// Such a frame followed by more frames may well be shorter; then it is
// decoded again with the size it came to, which also checks its checksum.
func (d *decompressor) zstdGroup(dst, src []byte, size int) ([]byte, error) {
	if int64(size) > zstdMaxRatio*int64(len(src))+blockSlack {
		return dst[:0], fmt.Errorf("%w: zstd cannot expand %d bytes to the %d the header says", errCorrupt, len(src), size)
	}
	if d.zstd == nil {
		var err error
		d.zstd, err = zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderLowmem(true),
			zstd.WithDecodeAllCapLimit(true),
			// The claim bounds the memory; these only keep the decoder
			// from refusing what the claim allows.
			zstd.WithDecoderMaxWindow(math.MaxInt32),
			zstd.WithDecoderMaxMemory(math.MaxInt32))
		if err != nil {
			return dst[:0], fmt.Errorf("%w: zstd: %v", errCorrupt, err)
		}
	}
	// The buffer is allocated once the first frame's header and blocks
	// have been checked.
	full := size + zstdSlack
	var out []byte
	for in := src; len(in) > 0; {
		left := size - len(out)
		h, frame, rest, err := zstdFrame(in, left)
		if err != nil {
			return dst[:0], err
		}
		in = rest
		if h.Skippable {
			continue
		}
		if h.HasFCS && len(rest) == 0 && h.FrameContentSize < uint64(left) {
			return dst[:0], fmt.Errorf("%w: zstd frame declares %d bytes, header says %d", errCorrupt, h.FrameContentSize, left)
		}
		if out == nil {
			out = growTo(dst, full)[:0:full]
		}
		input := frame
		if !h.HasFCS {
			input = d.declareContentSize(frame, h.HeaderSize, left)
		}
		next, err := d.zstd.DecodeAll(input, out)
		if !h.HasFCS && len(rest) > 0 && errors.Is(err, zstd.ErrFrameSizeMismatch) && len(next) < len(out)+left {
			input = d.declareContentSize(frame, h.HeaderSize, len(next)-len(out))
			next, err = d.zstd.DecodeAll(input, out)
		}
		switch {
		case errors.Is(err, zstd.ErrFrameSizeExceeded) || err == nil && len(next) > size:
			return dst[:0], fmt.Errorf("%w: zstd produced more than the %d bytes the header says", errCorrupt, size)
		case errors.Is(err, zstd.ErrFrameSizeMismatch) && !h.HasFCS:
			return dst[:0], fmt.Errorf("%w: zstd produced %d bytes, header says %d", errCorrupt, len(next), size)
		case err != nil:
			return dst[:0], fmt.Errorf("%w: zstd: %v", errCorrupt, err)
		}
		out = next
	}
	if len(out) != size {
		return dst[:0], fmt.Errorf("%w: zstd produced %d bytes, header says %d", errCorrupt, len(out), size)
	}
	if out == nil { // no frames, for an empty group
		return dst[:0], nil
	}
	return out, nil
}

// zstdFrame splits the first zstd frame off in, checking its header
// against left, the bytes the group's claim leaves, and walking its block
// headers to its end.
func zstdFrame(in []byte, left int) (h zstd.Header, frame, rest []byte, err error) {
	if err := h.Decode(in); err != nil {
		return h, nil, nil, fmt.Errorf("%w: zstd frame header: %v", errCorrupt, err)
	}
	if h.Skippable {
		end := int64(h.HeaderSize) + int64(h.SkippableSize)
		if end > int64(len(in)) {
			return h, nil, nil, fmt.Errorf("%w: zstd skippable frame of %d bytes has only %d", errCorrupt, h.SkippableSize, len(in)-h.HeaderSize)
		}
		return h, in[:end], in[end:], nil
	}
	if h.HasFCS && h.FrameContentSize > uint64(left) {
		return h, nil, nil, fmt.Errorf("%w: zstd frame declares %d bytes, more than the %d the header says", errCorrupt, h.FrameContentSize, left)
	}
	if !h.SingleSegment && h.WindowSize > uint64(max(left, zstdWindowSupport)) {
		return h, nil, nil, fmt.Errorf("%w: zstd frame declares a %d-byte window for at most %d bytes", errCorrupt, h.WindowSize, left)
	}
	end := h.HeaderSize
	for last := false; !last; {
		if len(in)-end < 3 {
			return h, nil, nil, fmt.Errorf("%w: zstd frame ends inside a block header", errCorrupt)
		}
		bh := uint32(in[end]) | uint32(in[end+1])<<8 | uint32(in[end+2])<<16
		end += 3
		last = bh&1 != 0
		n := int(bh >> 3)
		switch (bh >> 1) & 3 {
		case 1: // RLE: one byte, repeated n times
			n = 1
		case 3:
			return h, nil, nil, fmt.Errorf("%w: zstd block of the reserved type", errCorrupt)
		}
		if n > len(in)-end {
			return h, nil, nil, fmt.Errorf("%w: zstd block of %d bytes has only %d", errCorrupt, n, len(in)-end)
		}
		end += n
	}
	if h.HasCheckSum {
		if len(in)-end < 4 {
			return h, nil, nil, fmt.Errorf("%w: zstd frame ends inside its checksum", errCorrupt)
		}
		end += 4
	}
	return h, in[:end], in[end:], nil
}

// declareContentSize returns the frame, whose header of headerSize bytes
// has no content size (so no single-segment flag either), with content size
// n written into its header (8 bytes, flag 3). The content checksum covers
// the decoded bytes, not the header, so it stays valid. It copies into a
// buffer the decompressor keeps: writers that know the size of a large
// group (folly, libzstd one-shot, Arrow C++, klauspost EncodeAll) declare
// it, so the copy is small or rare.
func (d *decompressor) declareContentSize(frame []byte, headerSize, n int) []byte {
	p := growTo(d.patched, len(frame)+8)
	copy(p, frame[:headerSize])
	p[4] |= 3 << 6 // Frame_Content_Size_flag: 8 bytes
	binary.LittleEndian.PutUint64(p[headerSize:], uint64(n))
	copy(p[headerSize+8:], frame[headerSize:])
	d.patched = p
	return p
}

// stream returns a reader of src decompressed with zlib or gzip.
func (d *decompressor) stream(src []byte) (io.Reader, error) {
	d.src.Reset(src)
	var err error
	switch d.codec {
	case Zlib:
		if d.zlib == nil {
			d.zlib, err = zlib.NewReader(&d.src)
			return d.zlib, err
		}
		return d.zlib, d.zlib.(zlib.Resetter).Reset(&d.src, nil)
	default:
		if d.gzip == nil {
			d.gzip, err = gzip.NewReader(&d.src)
			if err != nil {
				d.gzip = nil
			}
			return d.gzip, err
		}
		return d.gzip, d.gzip.Reset(&d.src)
	}
}

// growTo returns b resized to n bytes, reallocating only when needed.
func growTo(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
