package framing

import (
	"bytes"
	"errors"
	"fmt"
	"io"

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
	return nil, false, fmt.Errorf("framing: no compressor for codec %v", c.codec)
}

// decompressor expands row groups, keeping codec state between groups.
type decompressor struct {
	codec Codec
	src   bytes.Reader
	zstd  *zstd.Decoder
	zlib  io.ReadCloser
	gzip  *gzip.Reader
}

// decompress expands src into dst[:0], which must come out exactly size
// bytes long. Block codecs are checked against their expansion bound before
// dst is sized; stream codecs grow dst as they produce bytes.
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
		out, err := snappy.Decode(growTo(dst, size), src)
		if err != nil {
			return dst[:0], fmt.Errorf("%w: snappy: %v", errCorrupt, err)
		}
		return out, nil
	case Zstd, Zlib, Gzip:
		r, err := d.stream(src)
		if err != nil {
			return dst[:0], fmt.Errorf("%w: %v: %v", errCorrupt, d.codec, err)
		}
		dst, err = appendRead(dst[:0], r, size)
		if err == io.ErrUnexpectedEOF {
			return dst, fmt.Errorf("%w: %v produced %d bytes, header says %d", errCorrupt, d.codec, len(dst), size)
		}
		if err != nil {
			return dst, fmt.Errorf("%w: %v: %v", errCorrupt, d.codec, err)
		}
		// The stream must end here, and end cleanly: a decoder error after
		// the last byte (or before the first, when size is 0) is corruption too.
		var one [1]byte
		n, err := io.ReadFull(r, one[:])
		if n != 0 {
			return dst, fmt.Errorf("%w: %v produced more than the %d bytes the header says", errCorrupt, d.codec, size)
		}
		if err != io.EOF {
			return dst, fmt.Errorf("%w: %v: %v", errCorrupt, d.codec, err)
		}
		return dst, nil
	}
	return dst[:0], fmt.Errorf("%w: the row group is compressed but no codec is configured (the stream does not record it)", errCorrupt)
}

// stream returns a reader of src decompressed with a stream codec.
func (d *decompressor) stream(src []byte) (io.Reader, error) {
	d.src.Reset(src)
	var err error
	switch d.codec {
	case Zstd:
		if d.zstd == nil {
			d.zstd, err = zstd.NewReader(&d.src, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxGroupSize))
			return d.zstd, err
		}
		return d.zstd, d.zstd.Reset(&d.src)
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
