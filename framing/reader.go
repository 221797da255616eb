package framing

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
)

// Size limits a Reader applies by default. No size read from a stream is
// trusted beyond them, and buffers grow only as bytes arrive.
const (
	MaxRowSize   = 1 << 30 // largest row a Reader accepts (1 GiB)
	MaxGroupSize = 1 << 30 // largest Velox row group, compressed or not (1 GiB)
)

// HeaderSize is the size of a Velox row-group header.
const HeaderSize = 9

// endMarker is a size of -1: the end of a stream, as Spark 1.4/1.5 wrote
// at close and SparkPlan.getByteArrayRdd writes after collected rows.
// Another stream may follow it (streams concatenated), so reading goes on.
const endMarker = 0xFFFFFFFF

// ReaderOption configures a Reader.
type ReaderOption func(*Reader)

// WithMaxRowSize lowers or raises the largest row size accepted (default MaxRowSize).
func WithMaxRowSize(n int) ReaderOption {
	return func(r *Reader) {
		if n > 0 {
			r.maxRow = n
		}
	}
}

// WithMaxGroupSize sets the largest Velox row group accepted (default MaxGroupSize).
func WithMaxGroupSize(n int) ReaderOption {
	return func(r *Reader) {
		if n > 0 {
			r.maxGroup = n
		}
	}
}

// Reader splits a framed stream into rows. Rows of uncompressed groups
// (and of the Spark framing) are read straight from the input into the
// batch buffer; a compressed Velox group is read and expanded whole, so it
// costs up to its size twice (bounded by the group limit). A Reader is not
// safe for concurrent use.
type Reader struct {
	in       *bufio.Reader
	framing  Framing
	maxRow   int
	maxGroup int

	data  []byte   // the current batch's rows (in the Spark framing with their size prefixes, then data[tail:] read ahead)
	tail  int      // Spark framing: the end of the current batch's records in data
	spans []int    // row i is data[spans[2i]:spans[2i+1]]
	rows  [][]byte // what Next returns, rebuilt from spans

	rowsRead int64 // complete rows read, the current batch included
	pos      int64 // bytes of the stream taken by the rows read (and markers skipped)
	base     int64 // Spark framing: the stream offset of data[0]
	gaps     int   // Spark framing: end markers skipped between the current batch's rows
	err      error // sticky; returned after the rows read before it
	readErr  error // Spark framing: the input's error, met while reading ahead
	scratch  [HeaderSize]byte

	// Velox row-group state.
	group     int64     // index of the current (or next) group
	groupPos  int64     // stream offset of the current group's header
	inGroup   bool      // a group's records are being read
	groupLeft int       // record bytes left in the current group
	records   io.Reader // where the current group's records come from
	packed    []byte    // compressed payload
	unpacked  []byte    // decompressed records
	plain     sliceReader
	dec       decompressor
}

// NewReader returns a Reader of the rows in r, framed with f; c is the
// codec of compressed Velox row groups, or in the Spark framing the codec
// stream around the records (see NewStreamReader; Auto sniffs it). The
// stream does not record the codec. In a compressed Spark stream the
// offsets of an *Error count decompressed bytes; a codec failure is a
// *CodecError inside it, with the compressed offset.
func NewReader(r io.Reader, f Framing, c Codec, opts ...ReaderOption) (*Reader, error) {
	if err := check(f, c, true); err != nil {
		return nil, err
	}
	if f == Spark && c != None {
		sr, err := NewStreamReader(r, c)
		if err != nil {
			return nil, err
		}
		r, c = sr, None
	}
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	rd := &Reader{in: br, framing: f, maxRow: MaxRowSize, maxGroup: MaxGroupSize, dec: decompressor{codec: c}}
	for _, o := range opts {
		o(rd)
	}
	return rd, nil
}

// Reset makes r read a new stream of the framed bytes in in, as a new
// Reader with r's framing, options and Velox group codec would, but keeping
// the buffers r has grown: a reader of many short streams (the segments of
// a shuffle) then allocates its batch buffers once. in holds the framing's
// bytes themselves: a Spark stream already decompressed (as
// NewStreamReader gives it). Rows returned before are no longer valid.
func (r *Reader) Reset(in *bufio.Reader) {
	*r = Reader{
		in: in, framing: r.framing, maxRow: r.maxRow, maxGroup: r.maxGroup, dec: r.dec,
		data: r.data[:0], spans: r.spans[:0], rows: r.rows[:0], packed: r.packed[:0], unpacked: r.unpacked[:0],
	}
}

func check(f Framing, c Codec, reading bool) error {
	if f != Spark && f != Velox {
		return fmt.Errorf("framing: unknown framing %v: %w", f, arrow.ErrInvalid)
	}
	if int(c) >= len(codecNames) {
		return fmt.Errorf("framing: unknown codec %v: %w", c, arrow.ErrInvalid)
	}
	if f == Spark {
		return sparkCodec(c, reading)
	}
	if c == LZF || c == Auto {
		return fmt.Errorf("framing: codec %v applies to the spark framing only: %w", c, arrow.ErrInvalid)
	}
	return nil
}

// Next returns up to n rows (at least 1 is asked for when n < 1). The
// rows alias the Reader's buffers and stay valid until the next call, so
// memory is bounded by the batch, not the stream. At the end of the stream
// it returns io.EOF; a truncated or malformed stream gives an *Error after
// the complete rows before the problem have been returned.
func (r *Reader) Next(n int) ([][]byte, error) {
	n = max(n, 1)
	r.spans = r.spans[:0]
	r.rows = r.rows[:0]
	if r.framing == Spark {
		r.sparkNext(n)
	} else {
		r.data = r.data[:0]
		for r.err == nil && len(r.spans)/2 < n {
			start := len(r.data)
			var ok bool
			ok, r.err = r.veloxRow()
			if r.err == nil && !ok {
				r.err = io.EOF
			}
			if ok {
				r.spans = append(r.spans, start, len(r.data))
				r.rowsRead++
			}
		}
	}
	for i := 0; i < len(r.spans); i += 2 {
		r.rows = append(r.rows, r.data[r.spans[i]:r.spans[i+1]:r.spans[i+1]])
	}
	if len(r.rows) == 0 {
		return nil, r.err
	}
	return r.rows, nil
}

// Detach hands the buffers holding the rows of the last Next over to the
// caller: the rows (the slice Next returned, and data, the bytes they
// point into) stay valid whatever the Reader does next, and data and rows
// given (their contents are dropped, their capacity kept) become the
// Reader's buffers for the next batch. A caller that sends batches to
// other goroutines thus pools the buffers instead of copying the rows.
// A buffer given smaller than the one taken is replaced by a new one of
// the taken one's capacity, so the next batch does not grow it by copying.
func (r *Reader) Detach(data []byte, rows [][]byte) (taken []byte, takenRows [][]byte) {
	taken, takenRows = r.data, r.rows
	if r.framing == Spark {
		taken = r.data[:r.tail]
	}
	if cap(data) < cap(r.data) {
		data = make([]byte, 0, cap(r.data))
	}
	if cap(rows) < cap(takenRows) {
		rows = make([][]byte, 0, cap(takenRows))
	}
	// The bytes read ahead of the batch go with the Reader.
	r.data, r.rows = append(data[:0], r.data[len(taken):]...), rows[:0]
	r.tail = 0
	return taken, takenRows
}

// RowOffset is the stream offset of the size prefix of row i of the last
// Next, in the Spark framing (in Velox's, -1): where a fault the decoder
// finds in that row is to be placed.
func (r *Reader) RowOffset(i int) int64 {
	if r.framing != Spark || i < 0 || 2*i >= len(r.spans) {
		return -1
	}
	return r.base + int64(r.spans[2*i]) - 4
}

// Contiguous reports whether the rows of the last Next lie back to back,
// each after its size prefix, with no end marker between two of them:
// then row i's prefix is at RowOffset(0) plus the sizes of the rows
// before it, 4 bytes more each. Markers before the first row do not count.
func (r *Reader) Contiguous() bool { return r.gaps == 0 }

// RowsRead is the number of complete rows read so far.
func (r *Reader) RowsRead() int64 { return r.rowsRead }

// Offset is the stream offset just past the last row read: the bytes the
// rows read so far (and the markers between them) take. A Reader reads
// ahead of it.
func (r *Reader) Offset() int64 { return r.pos }

// sparkFail builds the error for a failed read of a Spark record: a codec
// stream's failure is said to be one (a *CodecError inside the *Error),
// anything else is the short read format describes.
func (r *Reader) sparkFail(start int64, err error, format string, args ...any) error {
	var ce *CodecError
	if errors.As(err, &ce) {
		return r.fail(start, -1, err, "decompressing")
	}
	return r.fail(start, -1, readErr(err), format, args...)
}

// veloxRow reads one record, crossing row-group headers (and empty groups)
// as needed; false at a clean end.
func (r *Reader) veloxRow() (bool, error) {
	for !r.inGroup || r.groupLeft == 0 {
		if r.inGroup {
			r.inGroup = false
			r.group++
		}
		ok, err := r.openGroup()
		if !ok || err != nil {
			return false, err
		}
	}
	start := r.pos
	if r.records == &r.plain {
		start = r.groupPos
	}
	if r.groupLeft < 4 {
		return false, r.fail(start, r.group, rowbridge.ErrLayout, "row group ends %d bytes into a row size prefix", r.groupLeft)
	}
	if buf := r.groupBuffered(); len(buf) >= 4 {
		if u := int64(binary.BigEndian.Uint32(buf)); u <= int64(r.maxRow) && u+4 <= int64(r.groupLeft) && u+4 <= int64(len(buf)) {
			size := int(u)
			r.data = append(r.data, buf[4:4+size]...)
			if r.records == &r.plain {
				r.plain.b = r.plain.b[4+size:]
			} else {
				r.in.Discard(4 + size)
			}
			r.advance(4 + size)
			return true, nil
		}
	}
	prefix := r.scratch[:4]
	n, err := io.ReadFull(r.records, prefix)
	r.advance(n)
	if err != nil {
		return false, r.fail(start, r.group, readErr(err), "row size prefix has %d of 4 bytes", n)
	}
	size := binary.BigEndian.Uint32(prefix)
	if int64(size) > int64(r.groupLeft) {
		return false, r.fail(start, r.group, rowbridge.ErrOutOfBounds, "row size %d exceeds the %d bytes left in the row group", size, r.groupLeft)
	}
	if int64(size) > int64(r.maxRow) {
		return false, r.fail(start, r.group, rowbridge.ErrOutOfBounds, "row size %d exceeds the %s row limit", size, sizeName(r.maxRow))
	}
	before := len(r.data)
	r.data, err = appendRead(r.data, r.records, int(size))
	r.advance(len(r.data) - before)
	if err != nil {
		got := len(r.data) - before
		r.data = r.data[:before]
		return false, r.fail(start, r.group, readErr(err), "row of %d bytes has only %d", size, got)
	}
	return true, nil
}

// buffered is what the input holds already, without reading: a record
// that lies wholly inside it is copied from there (the fast path), and
// anything else goes through the reads that handle rows straddling reads.
func (r *Reader) buffered() []byte {
	b, _ := r.in.Peek(r.in.Buffered())
	return b
}

// groupBuffered is the current group's records at hand without reading:
// the rest of an expanded compressed group, or what the input holds.
func (r *Reader) groupBuffered() []byte {
	if r.records == &r.plain {
		return r.plain.b
	}
	return r.buffered()
}

// advance accounts for n record bytes read from the current group.
func (r *Reader) advance(n int) {
	r.groupLeft -= n
	if r.records != &r.plain {
		r.pos += int64(n)
	}
}

// openGroup reads a row-group header and readies its records; false at a
// clean end of stream.
func (r *Reader) openGroup() (bool, error) {
	h := r.scratch[:HeaderSize]
	start := r.pos
	r.groupPos = start
	n, err := io.ReadFull(r.in, h)
	r.pos += int64(n)
	switch {
	case err == io.EOF:
		return false, nil
	case err != nil:
		return false, r.fail(start, r.group, readErr(err), "row-group header has %d of %d bytes", n, HeaderSize)
	}
	usize := int32(binary.LittleEndian.Uint32(h[0:]))
	csize := int32(binary.LittleEndian.Uint32(h[4:]))
	flag := h[8]
	switch {
	case usize < 0 || csize < 0:
		return false, r.fail(start, r.group, rowbridge.ErrLayout, "row-group header has a negative size (uncompressed %d, compressed %d)", usize, csize)
	case flag > 1:
		return false, r.fail(start, r.group, rowbridge.ErrLayout, "row-group header has compressed flag %d (want 0 or 1)", flag)
	case int64(usize) > int64(r.maxGroup) || int64(csize) > int64(r.maxGroup):
		return false, r.fail(start, r.group, rowbridge.ErrOutOfBounds, "row group of %d bytes (%d compressed) exceeds the %s limit", usize, csize, sizeName(r.maxGroup))
	case flag == 0 && usize != csize:
		return false, r.fail(start, r.group, rowbridge.ErrLayout, "uncompressed row group has differing sizes %d and %d", usize, csize)
	}
	r.inGroup = true
	r.groupLeft = int(usize)
	if flag == 0 {
		r.records = r.in
		return true, nil
	}
	r.packed, err = appendRead(r.packed[:0], r.in, int(csize))
	r.pos += int64(len(r.packed))
	if err != nil {
		return false, r.fail(start, r.group, readErr(err), "compressed row group of %d bytes has only %d", csize, len(r.packed))
	}
	r.unpacked, err = r.dec.decompress(r.unpacked, r.packed, int(usize))
	if err != nil {
		return false, r.fail(start, r.group, rowbridge.ErrLayout, "%v", err)
	}
	r.plain.b = r.unpacked
	r.records = &r.plain
	return true, nil
}

// fail builds the error for a problem at stream offset at.
func (r *Reader) fail(at, group int64, cause error, format string, args ...any) error {
	return &Error{RowsRead: r.rowsRead, Offset: at, Group: group, Msg: fmt.Sprintf(format, args...), Err: cause}
}

// readErr maps a short read to ErrTruncated and keeps other I/O errors.
func readErr(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return rowbridge.ErrTruncated
	}
	return err
}

func sizeName(n int) string {
	if n >= 1<<30 && n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%d-byte", n)
}

// sliceReader reads a byte slice, like bytes.Reader without the extras.
type sliceReader struct{ b []byte }

func (s *sliceReader) Read(p []byte) (int, error) {
	if len(s.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.b)
	s.b = s.b[n:]
	return n, nil
}
