package framing

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/klauspost/compress/snappy"
	"github.com/rowbridge/rowbridge"
)

// snappy-java's SnappyOutputStream, as Spark's SnappyCompressionCodec
// builds it (spark.io.compression.snappy.blockSize, 32 KiB): a 16-byte
// header, then chunks of a big-endian int32 length and a raw snappy block
// of up to blockSize input bytes. No checksum, no end mark. Where streams
// were concatenated, a header stands where a chunk length would; the
// reader recognises it by its first four bytes (a negative length).
//
//	0  8  magic 0x82 "SNAPPY" 0x00
//	8  4  version, BE int32 (1)
//	12 4  minimum compatible version, BE int32 (1)

const (
	snappyHeaderSize = 16
	snappyVersion    = 1
)

var snappyMagic = [8]byte{0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0}

// snappyMagicLen is the header's first four bytes read as a chunk length.
var snappyMagicLen = binary.BigEndian.Uint32(snappyMagic[:4])

// snappyReader reads concatenated snappy-java streams.
type snappyReader struct {
	in     *bufio.Reader
	pos    int64
	stream int  // index of the current stream
	begun  bool // the first header has been read
	spare  []byte
	header [snappyHeaderSize]byte
	blockOutput
}

func (r *snappyReader) Read(p []byte) (int, error) { return r.read(p, r) }

// next reads the next chunk, crossing stream headers: into p when it
// fits (returning its length), else into r.out.
func (r *snappyReader) next(p []byte) (int, error) {
	for {
		at := r.pos
		lenb := r.header[:4]
		if err := readHeader(r.in, lenb); err != nil {
			if err == io.EOF {
				return 0, io.EOF
			}
			return 0, r.fail(at, truncatedOr(err), "chunk length cut short")
		}
		r.pos += 4
		clen := binary.BigEndian.Uint32(lenb)
		if clen == snappyMagicLen || !r.begun {
			if err := r.streamHeader(at); err != nil {
				return 0, err
			}
			continue
		}
		if int32(clen) <= 0 {
			return 0, r.fail(at, rowbridge.ErrLayout, "chunk length %d (bytes % x are neither a length nor a stream header)", int32(clen), lenb)
		}
		if clen > uint32(snappy.MaxEncodedLen(snappyMaxBlockSize)) {
			return 0, r.fail(at, rowbridge.ErrOutOfBounds, "chunk of %d bytes exceeds the %d a 512 MiB block can take", clen, snappy.MaxEncodedLen(snappyMaxBlockSize))
		}
		src, err := payload(r.in, int(clen), &r.spare)
		if err != nil {
			return 0, r.fail(at, truncatedOr(err), "chunk of %d bytes cut short", clen)
		}
		r.pos += int64(clen)
		// The block's varint length, checked before anything is sized by it.
		ulen, vn := binary.Uvarint(src)
		if vn <= 0 || vn > 5 {
			return 0, r.fail(at, rowbridge.ErrLayout, "corrupt snappy block: its length varint is malformed")
		}
		if ulen > snappyMaxBlockSize || ulen > snappyMaxRatio*uint64(clen)+blockSlack {
			return 0, r.fail(at, rowbridge.ErrOutOfBounds, "snappy block of %d bytes claims %d uncompressed, more than it can hold", clen, ulen)
		}
		size := int(ulen)
		if size == 0 {
			continue // snappy-java never writes one; it holds nothing
		}
		dst := r.dest(p, size)
		got, err := snappy.Decode(dst, src)
		if err != nil {
			return 0, r.fail(at, rowbridge.ErrLayout, "corrupt snappy block: %v", err)
		}
		if len(got) != size {
			return 0, r.fail(at, rowbridge.ErrLayout, "snappy block expands to %d bytes, its length says %d", len(got), size)
		}
		return r.decoded(p, dst)
	}
}

// streamHeader reads the 12 header bytes after the 4 in r.header and
// checks the whole.
func (r *snappyReader) streamHeader(at int64) error {
	if r.begun {
		r.stream++
	}
	h := r.header[:]
	if n, err := io.ReadFull(r.in, h[4:]); err != nil {
		r.pos += int64(n)
		return r.fail(at, truncatedOr(err), "stream header cut short (%d of %d bytes)", 4+n, snappyHeaderSize)
	}
	r.pos += snappyHeaderSize - 4
	if [8]byte(h[:8]) != snappyMagic {
		what := "a stream header"
		if !r.begun {
			what = "the stream"
		}
		return r.fail(at, rowbridge.ErrLayout, "%s starts % x, not snappy-java's magic 82 53 4e 41 50 50 59 00", what, h[:8])
	}
	version := int32(binary.BigEndian.Uint32(h[8:]))
	compat := int32(binary.BigEndian.Uint32(h[12:]))
	if compat > snappyVersion || version < compat {
		return r.fail(at, rowbridge.ErrLayout, "stream header has version %d, compatible with %d (this reader reads version %d)", version, compat, snappyVersion)
	}
	r.begun = true
	return nil
}

func (r *snappyReader) fail(at int64, cause error, format string, args ...any) error {
	return &CodecError{Codec: Snappy, Offset: at, Stream: r.stream, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// snappyWriter writes one snappy-java stream.
type snappyWriter struct {
	w      io.Writer
	out    []byte
	headed bool
	blockInput
}

func newSnappyWriter(w io.Writer, o streamOptions) (*snappyWriter, error) {
	bs := o.blockSize
	if bs == 0 {
		bs = SparkSnappyBlockSize
	}
	if bs < snappyMinBlockSize || bs > snappyMaxBlockSize {
		return nil, fmt.Errorf("framing: snappy block size %d, want %d to %d (snappy-java raises smaller sizes to 1 KiB): %w", bs, snappyMinBlockSize, snappyMaxBlockSize, arrow.ErrInvalid)
	}
	return &snappyWriter{w: w, blockInput: blockInput{blockSize: bs, buf: make([]byte, 0, bs)}}, nil
}

func (w *snappyWriter) Write(p []byte) (int, error) { return w.write(p, w) }

// writeBlock writes the header if not yet written, then src as one chunk
// (src may be empty only to write the header).
func (w *snappyWriter) writeBlock(src []byte) error {
	if need := snappyHeaderSize + 4 + snappy.MaxEncodedLen(len(src)); cap(w.out) < need {
		w.out = make([]byte, 0, need)
	}
	w.out = w.out[:0]
	if !w.headed {
		w.out = append(w.out, snappyMagic[:]...)
		w.out = binary.BigEndian.AppendUint32(w.out, snappyVersion)
		w.out = binary.BigEndian.AppendUint32(w.out, snappyVersion)
		w.headed = true
	}
	if len(src) > 0 {
		head := len(w.out)
		enc := snappy.Encode(w.out[head+4:cap(w.out)], src)
		binary.BigEndian.PutUint32(w.out[head:head+4], uint32(len(enc)))
		w.out = w.out[:head+4+len(enc)]
	}
	_, err := w.w.Write(w.out)
	return err
}

// Close writes the pending chunk (and the header, which even an empty
// stream has).
func (w *snappyWriter) Close() error {
	if ok, err := w.close(w); !ok || w.headed {
		return err
	}
	return w.writeBlock(nil)
}
