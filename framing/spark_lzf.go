package framing

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
)

// compress-lzf's LZFOutputStream, as Spark's LZFCompressionCodec builds it
// (finishing a chunk on flush): a sequence of chunks of up to 65535 input
// bytes, no stream header, no checksum, no end mark, so concatenated
// streams are just more chunks. A chunk is
//
//	"ZV" 0x00 len(BE uint16) bytes...               stored
//	"ZV" 0x01 clen(BE uint16) ulen(BE uint16) lzf...  compressed
//
// and the compressed payload is Marc Lehmann's LZF: a control byte below
// 32 is a run of control+1 literals; above, control>>5 is the match length
// less 2 (7: add the next byte) and the low 5 bits with the next byte are
// the distance less 1. No maintained Go module implements it, so it is here.

const (
	lzfStoredHeader     = 5
	lzfCompressedHeader = 7
	lzfMinToCompress    = 16      // compress-lzf's ChunkEncoder.MIN_BLOCK_TO_COMPRESS
	lzfMaxOff           = 1 << 13 // back-references reach 8 KiB
	lzfMaxRef           = 264     // longest match: 2 + 7 + 255
	lzfMaxLit           = 32      // longest literal run
	lzfHashLog          = 14      // compress-lzf's hash table for 64 KiB chunks
	lzfHashMul          = 0x9E3779B1
)

// lzfReader reads LZF chunks.
type lzfReader struct {
	in     *bufio.Reader
	pos    int64
	header [lzfCompressedHeader]byte
	blockOutput
}

func (r *lzfReader) Read(p []byte) (int, error) { return r.read(p, r) }

// next reads the next chunk: into p when it fits (returning its length),
// else into r.out.
func (r *lzfReader) next(p []byte) (int, error) {
	for {
		at := r.pos
		h := r.header[:lzfStoredHeader]
		if err := readHeader(r.in, h); err != nil {
			if err == io.EOF {
				return 0, io.EOF
			}
			return 0, r.fail(at, truncatedOr(err), "chunk header cut short")
		}
		if h[0] != 'Z' || h[1] != 'V' {
			return 0, r.fail(at, rowbridge.ErrLayout, "chunk starts % x, not \"ZV\"", h[:2])
		}
		var clen, ulen int
		switch h[2] {
		case 0:
			clen = int(binary.BigEndian.Uint16(h[3:]))
			ulen = clen
		case 1:
			h = r.header[:]
			if n, err := io.ReadFull(r.in, h[lzfStoredHeader:]); err != nil {
				r.pos += int64(lzfStoredHeader + n)
				return 0, r.fail(at, truncatedOr(err), "compressed chunk header cut short")
			}
			clen = int(binary.BigEndian.Uint16(h[3:]))
			ulen = int(binary.BigEndian.Uint16(h[5:]))
		default:
			return 0, r.fail(at, rowbridge.ErrLayout, "chunk type %d (want 0 stored or 1 compressed)", h[2])
		}
		r.pos += int64(len(h))
		if ulen == 0 {
			if clen != 0 {
				return 0, r.fail(at, rowbridge.ErrLayout, "compressed chunk of %d bytes claims 0 uncompressed", clen)
			}
			continue
		}
		dst := r.dest(p, ulen)
		if h[2] == 0 {
			if n, err := io.ReadFull(r.in, dst); err != nil {
				r.pos += int64(n)
				return 0, r.fail(at, truncatedOr(err), "stored chunk of %d bytes has only %d", ulen, n)
			}
		} else {
			src, err := r.in.Peek(clen) // clen < 64 KiB, within the input buffer
			if err != nil {
				return 0, r.fail(at, truncatedOr(err), "compressed chunk of %d bytes has only %d", clen, len(src))
			}
			r.in.Discard(clen)
			n, err := lzfDecompress(dst, src)
			if err != nil {
				return 0, r.fail(at, rowbridge.ErrLayout, "corrupt lzf chunk: %v", err)
			}
			if n != ulen {
				return 0, r.fail(at, rowbridge.ErrLayout, "lzf chunk expands to %d bytes, header says %d", n, ulen)
			}
		}
		r.pos += int64(clen)
		return r.decoded(p, dst)
	}
}

func (r *lzfReader) fail(at int64, cause error, format string, args ...any) error {
	return &CodecError{Codec: LZF, Offset: at, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// lzfDecompress expands the LZF data src into dst, returning the bytes
// written; producing more than len(dst), or a reference before the start,
// is an error.
func lzfDecompress(dst, src []byte) (int, error) {
	ip, op := 0, 0
	for ip < len(src) {
		ctrl := int(src[ip])
		ip++
		if ctrl < 32 {
			n := ctrl + 1
			if n > len(src)-ip {
				return op, fmt.Errorf("literal run of %d bytes at byte %d passes the end of the chunk", n, ip-1)
			}
			if n > len(dst)-op {
				return op, fmt.Errorf("output passes the %d bytes the header declares", len(dst))
			}
			copy(dst[op:], src[ip:ip+n])
			ip += n
			op += n
			continue
		}
		n := ctrl >> 5
		if n == 7 {
			if ip >= len(src) {
				return op, fmt.Errorf("match length at byte %d passes the end of the chunk", ip-1)
			}
			n += int(src[ip])
			ip++
		}
		n += 2
		if ip >= len(src) {
			return op, fmt.Errorf("match distance at byte %d passes the end of the chunk", ip-1)
		}
		ref := op - (ctrl&0x1f)<<8 - int(src[ip]) - 1
		ip++
		if ref < 0 {
			return op, fmt.Errorf("back-reference before the start of the chunk (output byte %d, distance %d)", op, op-ref)
		}
		if n > len(dst)-op {
			return op, fmt.Errorf("output passes the %d bytes the header declares", len(dst))
		}
		if op-ref >= n {
			copy(dst[op:op+n], dst[ref:ref+n])
		} else {
			for i := range n { // overlapping: a repeat of the last op-ref bytes
				dst[op+i] = dst[ref+i]
			}
		}
		op += n
	}
	return op, nil
}

// lzfCompress compresses src (at most 65535 bytes) into dst, which must
// hold lzfBound(len(src)) bytes, and returns the compressed length. It is
// liblzf's greedy hash-chain-free compressor: one candidate per 3-byte
// hash, the distance capped at 8 KiB.
func lzfCompress(dst, src []byte, table *[1 << lzfHashLog]int32) int {
	clear(table[:])
	n := len(src)
	ip, op, lit := 0, 1, 0 // dst[op-lit-1] is the control byte of the open literal run
	for ip+2 < n {
		v := uint32(src[ip])<<16 | uint32(src[ip+1])<<8 | uint32(src[ip+2])
		h := (v * lzfHashMul) >> (32 - lzfHashLog)
		ref := int(table[h]) - 1
		table[h] = int32(ip + 1)
		if off := ip - ref - 1; ref >= 0 && off < lzfMaxOff && src[ref] == src[ip] && src[ref+1] == src[ip+1] && src[ref+2] == src[ip+2] {
			maxLen := min(n-ip, lzfMaxRef)
			l := 3
			for l < maxLen && src[ref+l] == src[ip+l] {
				l++
			}
			if lit > 0 {
				dst[op-lit-1] = byte(lit - 1)
			} else {
				op-- // no literals: drop the reserved control byte
			}
			code := l - 2
			if code < 7 {
				dst[op] = byte(off>>8 | code<<5)
				op++
			} else {
				dst[op] = byte(off>>8 | 7<<5)
				dst[op+1] = byte(code - 7)
				op += 2
			}
			dst[op] = byte(off)
			op += 2 // and reserve the next run's control byte
			lit = 0
			// Index the match's last positions so the next one can refer there.
			for end := ip + l; ip+1 < end; {
				ip++
				if ip+2 < n {
					v := uint32(src[ip])<<16 | uint32(src[ip+1])<<8 | uint32(src[ip+2])
					table[(v*lzfHashMul)>>(32-lzfHashLog)] = int32(ip + 1)
				}
			}
			ip++
			continue
		}
		dst[op] = src[ip]
		op++
		ip++
		if lit++; lit == lzfMaxLit {
			dst[op-lit-1] = lzfMaxLit - 1
			lit = 0
			op++
		}
	}
	for ; ip < n; ip++ {
		dst[op] = src[ip]
		op++
		if lit++; lit == lzfMaxLit {
			dst[op-lit-1] = lzfMaxLit - 1
			lit = 0
			op++
		}
	}
	if lit > 0 {
		dst[op-lit-1] = byte(lit - 1)
	} else {
		op--
	}
	return op
}

// lzfBound is the most lzfCompress writes for n bytes: all literals, a
// control byte per 32 of them and one reserved.
func lzfBound(n int) int { return n + n/lzfMaxLit + 2 }

// lzfWriter writes LZF chunks of up to blockSize bytes.
type lzfWriter struct {
	w     io.Writer
	out   []byte
	table *[1 << lzfHashLog]int32
	blockInput
}

func newLZFWriter(w io.Writer, o streamOptions) (*lzfWriter, error) {
	bs := o.blockSize
	if bs == 0 {
		bs = SparkLZFBlockSize
	}
	if bs > lzfMaxChunk {
		return nil, fmt.Errorf("framing: lzf block size %d, want at most %d (an LZF chunk's lengths are 16-bit): %w", bs, lzfMaxChunk, arrow.ErrInvalid)
	}
	return &lzfWriter{w: w, table: new([1 << lzfHashLog]int32), out: make([]byte, lzfCompressedHeader+lzfBound(bs)),
		blockInput: blockInput{blockSize: bs, buf: make([]byte, 0, bs)}}, nil
}

func (w *lzfWriter) Write(p []byte) (int, error) { return w.write(p, w) }

// writeBlock writes src as one chunk, compressed when that saves more than
// 2 bytes (compress-lzf's rule), else stored.
func (w *lzfWriter) writeBlock(src []byte) error {
	out := w.out
	out[0], out[1] = 'Z', 'V'
	if len(src) >= lzfMinToCompress {
		if n := lzfCompress(out[lzfCompressedHeader:], src, w.table); n < len(src)-2 {
			out[2] = 1
			binary.BigEndian.PutUint16(out[3:], uint16(n))
			binary.BigEndian.PutUint16(out[5:], uint16(len(src)))
			_, err := w.w.Write(out[:lzfCompressedHeader+n])
			return err
		}
	}
	out[2] = 0
	binary.BigEndian.PutUint16(out[3:], uint16(len(src)))
	n := copy(out[lzfStoredHeader:], src)
	_, err := w.w.Write(out[:lzfStoredHeader+n])
	return err
}

// Close writes the pending chunk; an empty stream is 0 bytes, as
// LZFOutputStream writes it.
func (w *lzfWriter) Close() error {
	_, err := w.close(w)
	return err
}
