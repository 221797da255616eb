package ipcverify

import (
	"encoding/binary"
	"errors"
	"io"
	"strconv"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Bounds on the window a zstd frame in a compressed buffer may declare:
// arrow-go's decoder allocates the window before it decodes a byte, so a
// frame header of a few bytes could otherwise make it allocate up to its
// default limits (512 MiB, or 64 GiB for a single-segment frame). A buffer
// may use a window of its uncompressed length or up to minZstdWindow
// (arrow-go's and the zstd command's default levels use 8 MiB), never more
// than maxZstdWindow (what zstd's highest level uses without long mode).
const (
	minZstdWindow = 8 << 20
	maxZstdWindow = 128 << 20
)

// checkCompressed checks the buffers of a compressed batch in its body,
// read through body at input offset bodyBase. arrow-go reads each buffer's
// 8-byte uncompressed length, allocates that much and decompresses into it;
// so each prefix must be -1 (stored uncompressed) or a length the buffer
// really decompresses to.
func checkCompressed(m *message, body io.ReaderAt, bodyBase int64) error {
	rb := m.batch
	if rb == nil || rb.codec == codecNone {
		return nil
	}
	var d decompressor
	defer d.close()
	for i := range rb.nBuffers {
		off, length := rb.buffer(i)
		where := func(format string, args ...any) *Error {
			return errorAt(bodyBase+off, format, args...).within("compressed buffer " + strconv.Itoa(i))
		}
		need, isBitmap := rb.bitmapNeeds[i]
		if length == 0 {
			if isBitmap && need > 0 {
				return where("the validity buffer of a field node with null_count -1 (unknown) is empty, short of the %d bytes its bits need", need)
			}
			continue
		}
		if length < 8 {
			return where("%d bytes are too few for the 8-byte uncompressed length", length)
		}
		var prefix [8]byte
		if _, err := body.ReadAt(prefix[:], off); err != nil {
			return err
		}
		n := int64(binary.LittleEndian.Uint64(prefix[:]))
		if isBitmap {
			size := n
			if n == -1 {
				size = length - 8
			}
			if size < need {
				return where("the validity buffer of a field node with null_count -1 (unknown) holds %d bytes, short of the %d its bits need", max(size, 0), need)
			}
		}
		if n == -1 || n == 0 {
			continue
		}
		if n < 0 {
			return where("negative uncompressed length %d", n)
		}
		got, err := d.count(rb.codec, io.NewSectionReader(body, off+8, length-8), n)
		if got < n {
			if err != nil {
				return where("decompresses to %d bytes, not the %d its prefix declares: %v", got, n, err)
			}
			return where("decompresses to %d bytes, not the %d its prefix declares", got, n)
		}
	}
	return nil
}

// decompressor decompresses buffers to count their bytes, creating each
// codec's reader once.
type decompressor struct {
	lz4  *lz4.Reader
	zstd *zstd.Decoder
}

// count decompresses src with codec and returns how many of the first n
// decompressed bytes it produced.
func (d *decompressor) count(codec int, src io.Reader, n int64) (int64, error) {
	var r io.Reader
	switch codec {
	case codecLZ4Frame:
		if d.lz4 == nil {
			d.lz4 = lz4.NewReader(nil)
		}
		d.lz4.Reset(src)
		r = d.lz4
	case codecZSTD:
		window := uint64(min(max(n, minZstdWindow), maxZstdWindow))
		if d.zstd == nil {
			dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
			if err != nil {
				return 0, err
			}
			d.zstd = dec
		}
		if err := d.zstd.ResetWithOptions(src, zstd.WithDecoderMaxMemory(window), zstd.WithDecoderMaxWindow(window)); err != nil {
			return 0, err
		}
		r = d.zstd
	default:
		return 0, errors.New("unknown codec")
	}
	return io.CopyN(io.Discard, r, n)
}

func (d *decompressor) close() {
	if d.zstd != nil {
		d.zstd.Close()
	}
}
