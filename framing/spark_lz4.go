package framing

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/pierrec/lz4/v4"
	"github.com/rowbridge/rowbridge"
)

// lz4-java's LZ4BlockOutputStream, as Spark's LZ4CompressionCodec builds
// it: blocks of spark.io.compression.lz4.blockSize (32 KiB) input bytes,
// the fast compressor, an XXH32 checksum with seed 0x9747B28C, no sync
// flush. Each block is a 21-byte little-endian header and its payload:
//
//	0  8  magic "LZ4Block"
//	8  1  token: method (0x10 raw, 0x20 LZ4) | level, level = max(0, ceil(log2(blockSize)) - 10)
//	9  4  compressed length
//	13 4  uncompressed length
//	17 4  XXH32(seed 0x9747B28C) of the uncompressed bytes & 0x0FFFFFFF
//	21 .. payload: a raw LZ4 block, or the bytes themselves
//
// A header with both lengths (and the checksum) zero is the end mark that
// finish/close writes; Spark reads with stopOnEmptyBlock=false, so another
// stream may follow it.

const (
	lz4HeaderSize  = 21
	lz4MethodRaw   = 0x10
	lz4MethodLZ4   = 0x20
	lz4LevelBase   = 10
	lz4Seed        = 0x9747B28C
	lz4ChecksumMsk = 0x0FFFFFFF
)

var lz4Magic = [8]byte{'L', 'Z', '4', 'B', 'l', 'o', 'c', 'k'}

// lz4Checksum is what lz4-java stores: its XXH32 Checksum wrapper keeps 28 bits.
func lz4Checksum(b []byte) uint32 { return xxh32(b, lz4Seed) & lz4ChecksumMsk }

// lz4Level is lz4-java's compressionLevel(blockSize): the token's low nibble.
func lz4Level(blockSize int) byte {
	level := 0
	for 1<<level < blockSize {
		level++
	}
	return byte(max(0, level-lz4LevelBase))
}

// lz4Reader reads concatenated lz4-java block streams.
type lz4Reader struct {
	in     *bufio.Reader
	pos    int64 // compressed bytes consumed
	stream int   // index of the current stream: end marks read so far
	open   bool  // a block of the current stream was read and its end mark not yet
	spare  []byte
	header [lz4HeaderSize]byte
	blockOutput
}

func (r *lz4Reader) Read(p []byte) (int, error) { return r.read(p, r) }

// next reads the next block: into p when it fits (returning its length),
// else into r.out. End marks are skipped; the end of input is io.EOF when
// it falls after an end mark (or before any byte). When the block went
// into p and the block after it (not an end mark) fits in the rest of p
// too, both are read and their checksums computed in one pass: the second
// one's failure then comes with the first one's bytes, to be returned by
// the next call.
func (r *lz4Reader) next(p []byte) (int, error) {
	dst, check, at, err := r.block(p)
	if err != nil {
		return 0, err
	}
	var dst2 []byte
	var check2 uint32
	var at2 int64
	var err2 error
	if len(dst) <= len(p) && r.fitsNext(len(p)-len(dst)) {
		dst2, check2, at2, err2 = r.block(p[len(dst):])
	}
	if dst2 == nil {
		// One block (a second one's failure, if any, comes after its bytes).
		if got := lz4Checksum(dst); got != check {
			return 0, r.badChecksum(at, got, check)
		}
		n, _ := r.decoded(p, dst)
		return n, err2
	}
	got, got2 := xxh32Pair(dst, dst2, lz4Seed)
	if got &= lz4ChecksumMsk; got != check {
		return 0, r.badChecksum(at, got, check)
	}
	if got2 &= lz4ChecksumMsk; got2 != check2 {
		return len(dst), r.badChecksum(at2, got2, check2)
	}
	return len(dst) + len(dst2), nil
}

// fitsNext reports whether the input's next bytes are a block header, not
// an end mark, whose block fits in room bytes.
func (r *lz4Reader) fitsNext(room int) bool {
	h, err := r.in.Peek(lz4HeaderSize)
	if err != nil {
		return false
	}
	ulen := int64(int32(binary.LittleEndian.Uint32(h[13:])))
	return ulen > 0 && ulen <= int64(room)
}

func (r *lz4Reader) badChecksum(at int64, got, check uint32) error {
	return r.fail(at, rowbridge.ErrLayout, "block checksum 0x%08x, header says 0x%08x", got, check)
}

// block reads the next block, skipping end marks, into p when it fits,
// else into r.out, and returns its bytes, the checksum its header gives
// (not yet compared) and the stream offset of its header.
func (r *lz4Reader) block(p []byte) (dst []byte, check uint32, at int64, err error) {
	for {
		at = r.pos
		h := r.header[:]
		if err := readHeader(r.in, h); err != nil {
			if err == io.EOF {
				if r.open {
					return nil, 0, at, r.fail(at, rowbridge.ErrTruncated, "the stream ends without its end mark (a truncated file?)")
				}
				return nil, 0, at, io.EOF
			}
			return nil, 0, at, r.fail(at, truncatedOr(err), "block header cut short (want %d bytes)", lz4HeaderSize)
		}
		r.pos += lz4HeaderSize
		if [8]byte(h[:8]) != lz4Magic {
			return nil, 0, at, r.fail(at, rowbridge.ErrLayout, "block header starts % x, not the LZ4Block magic", h[:8])
		}
		token := h[8]
		method, level := token&0xF0, int(token&0x0F)
		clen := int64(int32(binary.LittleEndian.Uint32(h[9:])))
		ulen := int64(int32(binary.LittleEndian.Uint32(h[13:])))
		check = binary.LittleEndian.Uint32(h[17:])
		limit := int64(1) << (lz4LevelBase + level)
		switch {
		case method != lz4MethodRaw && method != lz4MethodLZ4:
			return nil, 0, at, r.fail(at, rowbridge.ErrLayout, "block token 0x%02x names no compression method (want 0x1_ raw or 0x2_ lz4)", token)
		case clen < 0 || ulen < 0:
			return nil, 0, at, r.fail(at, rowbridge.ErrLayout, "block header has a negative length (compressed %d, uncompressed %d)", clen, ulen)
		case ulen > limit:
			return nil, 0, at, r.fail(at, rowbridge.ErrOutOfBounds, "block of %d bytes exceeds the %d its token 0x%02x allows", ulen, limit, token)
		case (clen == 0) != (ulen == 0):
			return nil, 0, at, r.fail(at, rowbridge.ErrLayout, "block header has compressed length %d and uncompressed length %d (both or neither must be 0)", clen, ulen)
		case method == lz4MethodRaw && clen != ulen:
			return nil, 0, at, r.fail(at, rowbridge.ErrLayout, "raw block has differing lengths %d and %d", clen, ulen)
		case method == lz4MethodLZ4 && clen > int64(lz4.CompressBlockBound(int(ulen))):
			return nil, 0, at, r.fail(at, rowbridge.ErrOutOfBounds, "compressed length %d exceeds lz4's bound %d for %d bytes", clen, lz4.CompressBlockBound(int(ulen)), ulen)
		}
		if ulen == 0 {
			if check != 0 {
				return nil, 0, at, r.fail(at, rowbridge.ErrLayout, "end mark has checksum 0x%08x (want 0)", check)
			}
			r.stream++
			r.open = false
			continue
		}
		r.open = true
		size := int(ulen)
		if method == lz4MethodRaw {
			// The bytes themselves: read into p, or into r.out grown as
			// they arrive.
			var err error
			if len(p) >= size {
				var n int
				dst = p[:size]
				if n, err = io.ReadFull(r.in, dst); err != nil {
					dst = dst[:n]
				}
			} else {
				dst, err = appendRead(r.out[:0], r.in, size)
				r.out = dst[:0]
			}
			if err != nil {
				r.pos += int64(len(dst))
				return nil, 0, at, r.fail(at, truncatedOr(err), "raw block of %d bytes has only %d", size, len(dst))
			}
		} else {
			// The payload first, so the output is sized only for a block
			// whose compressed bytes are there.
			src, err := payload(r.in, int(clen), &r.spare)
			if err != nil {
				return nil, 0, at, r.fail(at, truncatedOr(err), "block of %d compressed bytes cut short", clen)
			}
			if int64(size) > lz4MaxRatio*clen+blockSlack {
				return nil, 0, at, r.fail(at, rowbridge.ErrLayout, "lz4 cannot expand %d bytes to the %d the header claims", clen, size)
			}
			dst = r.dest(p, size)
			n, err := lz4.UncompressBlock(src, dst)
			if err != nil {
				return nil, 0, at, r.fail(at, rowbridge.ErrLayout, "corrupt lz4 block: %v", err)
			}
			if n != size {
				return nil, 0, at, r.fail(at, rowbridge.ErrLayout, "lz4 block expands to %d bytes, header says %d", n, size)
			}
		}
		r.pos += clen
		return dst, check, at, nil
	}
}

func (r *lz4Reader) fail(at int64, cause error, format string, args ...any) error {
	return &CodecError{Codec: LZ4, Offset: at, Stream: r.stream, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// lz4Writer writes one lz4-java block stream.
type lz4Writer struct {
	w     io.Writer
	level byte
	out   []byte         // header and payload of one block
	comp  *lz4Compressor // from lz4Compressors at the first block, back at Close
	blockInput
}

func newLZ4Writer(w io.Writer, o streamOptions) (*lz4Writer, error) {
	bs := o.blockSize
	if bs == 0 {
		bs = SparkLZ4BlockSize
	}
	if bs < lz4MinBlockSize || bs > lz4MaxBlockSize {
		return nil, fmt.Errorf("framing: lz4 block size %d, want %d to %d (lz4-java's limits): %w", bs, lz4MinBlockSize, lz4MaxBlockSize, arrow.ErrInvalid)
	}
	return &lz4Writer{w: w, level: lz4Level(bs), blockInput: blockInput{blockSize: bs, buf: make([]byte, 0, bs)}}, nil
}

func (w *lz4Writer) Write(p []byte) (int, error) { return w.write(p, w) }

// writeBlock writes src as one block, LZ4-compressed unless that does not
// make it smaller (lz4-java's rule), then raw.
func (w *lz4Writer) writeBlock(src []byte) error {
	w.out = growTo(w.out, lz4HeaderSize+lz4CompressBound(len(src)))
	if w.comp == nil {
		w.comp = lz4Compressors.Get().(*lz4Compressor)
	}
	n := w.comp.compress(src, w.out[lz4HeaderSize:])
	method := byte(lz4MethodLZ4)
	if n >= len(src) {
		method = lz4MethodRaw
		n = copy(w.out[lz4HeaderSize:], src)
	}
	putLZ4Header(w.out, method|w.level, n, len(src), lz4Checksum(src))
	_, err := w.w.Write(w.out[:lz4HeaderSize+n])
	return err
}

func putLZ4Header(h []byte, token byte, clen, ulen int, check uint32) {
	copy(h, lz4Magic[:])
	h[8] = token
	binary.LittleEndian.PutUint32(h[9:], uint32(clen))
	binary.LittleEndian.PutUint32(h[13:], uint32(ulen))
	binary.LittleEndian.PutUint32(h[17:], check)
}

// Close writes the pending block and the end mark (lz4-java's finish).
func (w *lz4Writer) Close() error {
	ok, err := w.close(w)
	if w.comp != nil {
		lz4Compressors.Put(w.comp)
		w.comp = nil
	}
	if !ok {
		return err
	}
	var end [lz4HeaderSize]byte
	putLZ4Header(end[:], lz4MethodRaw|w.level, 0, 0, 0)
	_, err = w.w.Write(end[:])
	return err
}
