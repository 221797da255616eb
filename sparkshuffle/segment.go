package sparkshuffle

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"sync"

	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
)

// Segment is one map output's bytes for one reduce partition: one or more
// complete codec streams back to back (one per spill after Spark's fast
// merge), 0 bytes when the map wrote nothing to the partition.
type Segment struct {
	Map       *MapOutput
	Partition int
}

// Offset is where the segment starts in the data file.
func (s Segment) Offset() int64 { return s.Map.Offsets[s.Partition] }

// Size is the segment's length in bytes.
func (s Segment) Size() int64 { return s.Map.SegmentSize(s.Partition) }

// VerifyChecksum reads the segment and compares its checksum with the
// checksum file's; nil when it matches or the map has no checksum file,
// a *ChecksumError when it does not.
func (s Segment) VerifyChecksum() error {
	m := s.Map
	if m.Checksums == nil {
		return nil
	}
	got := m.Algorithm.Empty()
	if s.Size() > 0 {
		f, err := os.Open(m.DataPath)
		if err != nil {
			return s.fail(err, -1, -1, -1)
		}
		defer f.Close()
		h := m.Algorithm.New()
		buf := copyBuffers.Get().(*[]byte)
		defer copyBuffers.Put(buf)
		n, err := io.CopyBuffer(h, io.NewSectionReader(f, s.Offset(), s.Size()), *buf)
		if err != nil {
			return s.fail(err, s.Offset()+n, -1, -1)
		}
		if n != s.Size() {
			return s.truncated(n)
		}
		got = int64(h.Sum32())
	}
	return s.compareChecksum(got)
}

// compareChecksum is nil when got is the checksum file's value for the
// segment, else a *ChecksumError.
func (s Segment) compareChecksum(got int64) error {
	m := s.Map
	if want := m.Checksums[s.Partition]; got != want {
		return &ChecksumError{Shuffle: m.Shuffle, Map: m.Map, Partition: s.Partition, Path: s.path(),
			Checksum: m.ChecksumPath, Algorithm: m.Algorithm, Want: want, Got: got}
	}
	return nil
}

// truncated is the error for a data file that ends n bytes into the segment.
func (s Segment) truncated(n int64) error {
	return s.fail(fmt.Errorf("%w: the data file ends %d bytes into the segment", rowbridge.ErrTruncated, n), s.Offset()+n, -1, -1)
}

// readVerified reads the whole segment from r (its bytes in the data
// file), through in, a buffer at least the segment's size, and verifies
// its checksum on the buffered bytes; the codec then reads them from in
// without another copy. The file is thus read once, not once to verify
// and again to decode.
func (s Segment) readVerified(in *bufio.Reader, r io.Reader) error {
	size := int(s.Size()) // at most wholeSegmentSize <= in.Size()
	in.Reset(r)
	b, err := in.Peek(size)
	if len(b) < size {
		if err == nil || err == io.EOF {
			return s.truncated(int64(len(b)))
		}
		return s.fail(err, s.Offset()+int64(len(b)), -1, -1)
	}
	return s.compareChecksum(s.Map.Algorithm.Checksum(b))
}

// path names the segment's file in errors: the data file, or the index
// for a map without one.
func (s Segment) path() string {
	if s.Map.DataPath != "" {
		return s.Map.DataPath
	}
	return s.Map.IndexPath
}

// fail wraps err with the segment's context.
func (s Segment) fail(err error, fileOff, streamOff, row int64) *SegmentError {
	return s.withCodec(framing.Auto).fail(err, fileOff, streamOff, row)
}

// codedSegment is a segment whose codec is known, for errors.
type codedSegment struct {
	Segment
	codec framing.Codec
}

func (s Segment) withCodec(c framing.Codec) codedSegment { return codedSegment{s, c} }

func (s codedSegment) fail(err error, fileOff, streamOff, row int64) *SegmentError {
	return &SegmentError{Path: s.path(), Shuffle: s.Map.Shuffle, Map: s.Map.Map, Partition: s.Partition, Codec: s.codec,
		Start: s.Offset(), End: s.Offset() + s.Size(), FileOffset: fileOff, StreamOffset: streamOff, Row: row, Err: err}
}

var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// rowBatch is a batch of rows read from a segment, with where it came from.
type rowBatch struct {
	rows      [][]byte
	firstRow  int64 // index within the segment of rows[0]
	streamOff int64 // decompressed-stream offset of rows[0]'s size prefix
	// offs, when end markers lie between the rows, is the offset of each
	// row's size prefix; nil when they follow one another (the rule).
	offs []int64
}

// segmentReader splits a segment's records into batches: the segment's
// bytes, decompressed, then split by the Spark framing (which reads on
// past the -1 size very old Spark wrote at the end of each stream).
type segmentReader struct {
	seg   Segment
	codec framing.Codec // the segment's codec, sniffed when asked to
	f     *os.File
	cache bufferCache // where bufs go back
	bufs  *segmentBuffers
	br    *bufio.Reader // what framing reads from
	fr    *framing.Reader
}

// segmentBuffers are a segment reader's buffers, reused from segment to
// segment (a shuffle may have many small ones): raw buffers the data file
// for the codec, rec the decompressed records, and fr, once made, is the
// framing reader whose batch buffers would otherwise grow anew for every
// segment (the allocation, copying and garbage of which cost more than a
// tenth of a read).
type segmentBuffers struct {
	raw, rec *bufio.Reader
	fr       *framing.Reader
	whole    *bufio.Reader // a segment read whole to verify its checksum, made when one is
}

// wholeSegmentSize is the largest segment whose checksum is verified on
// its bytes in memory (read once); a larger one is read twice, once to
// verify it and once to decode it, so memory stays bounded.
var wholeSegmentSize int64 = 4 << 20 // a variable for the tests of both ways

const segmentBufferSize = 64 << 10 // what framing.NewStreamReader buffers at least

// wholeBufferSize is the size of a buffer made for a segment of size bytes
// read whole: the next power of two (up to wholeSegmentSize), so that the
// segments after it, of sizes a little different, seldom need a new one (each
// new one is fresh memory the kernel must fault in and zero).
func wholeBufferSize(size int64) int {
	n := max(int(size), segmentBufferSize)
	return max(n, min(1<<bits.Len(uint(n-1)), int(wholeSegmentSize)))
}

// bufferCache holds the segmentBuffers of one Reader's segments that are
// not open, at most one per worker; a Reader's buffers thus live as long
// as it does, whatever the garbage collector does to a sync.Pool.
type bufferCache chan *segmentBuffers

func newBufferCache(workers int) bufferCache { return make(bufferCache, workers) }

func (c bufferCache) get() *segmentBuffers {
	select {
	case b := <-c:
		return b
	default:
		return &segmentBuffers{raw: bufio.NewReaderSize(nil, segmentBufferSize), rec: bufio.NewReaderSize(nil, segmentBufferSize)}
	}
}

func (c bufferCache) put(b *segmentBuffers) {
	select {
	case c <- b:
	default:
	}
}

// openSegment readies a segment for reading (after verifying its checksum
// when asked to); nil for an empty segment.
func openSegment(seg Segment, cfg *config) (*segmentReader, error) {
	verify := cfg.checksum == Verify && seg.Map.Checksums != nil
	if verify && (seg.Size() == 0 || seg.Size() > wholeSegmentSize) {
		if err := seg.VerifyChecksum(); err != nil {
			return nil, err
		}
		verify = false
	}
	if seg.Size() == 0 {
		return nil, nil
	}
	f, err := os.Open(seg.Map.DataPath)
	if err != nil {
		return nil, seg.fail(err, -1, -1, -1)
	}
	sr := &segmentReader{seg: seg, f: f, cache: cfg.buffers, bufs: cfg.buffers.get()}
	var raw io.Reader = io.NewSectionReader(f, seg.Offset(), seg.Size())
	if cfg.progress != nil {
		raw = &progressReader{r: raw, fn: cfg.progress}
	}
	in := sr.bufs.raw // what the codec reads, the file's bytes
	if verify {
		if sr.bufs.whole == nil || sr.bufs.whole.Size() < int(seg.Size()) {
			sr.bufs.whole = bufio.NewReaderSize(nil, wholeBufferSize(seg.Size()))
		}
		in = sr.bufs.whole
		if err := seg.readVerified(in, raw); err != nil {
			sr.close()
			return nil, err
		}
	}
	codec := cfg.codec
	if codec == framing.Auto {
		if codec, err = sniff(f, seg); err != nil {
			sr.close()
			return nil, err
		}
	}
	sr.codec = codec
	var stream io.Reader // the bytes framing reads: decompressed, or the file's
	switch {
	case codec == framing.None && !verify:
		// The records are the file's bytes: framing reads them through one buffer.
		stream = raw
		sr.br = sr.bufs.raw
	case codec == framing.None:
		stream = in
		sr.br = sr.bufs.rec
	default:
		if !verify {
			in.Reset(raw)
		}
		dec, err := framing.NewStreamReader(in, codec)
		if err != nil {
			sr.close()
			return nil, seg.withCodec(codec).fail(err, -1, -1, -1)
		}
		stream = dec
		sr.br = sr.bufs.rec
	}
	sr.br.Reset(stream)
	if sr.bufs.fr == nil {
		if sr.bufs.fr, err = framing.NewReader(sr.br, framing.Spark, framing.None); err != nil {
			sr.close()
			return nil, err
		}
	} else {
		sr.bufs.fr.Reset(sr.br)
	}
	sr.fr = sr.bufs.fr
	return sr, nil
}

// sniff names the codec of a segment from its first bytes.
func sniff(f *os.File, seg Segment) (framing.Codec, error) {
	head := make([]byte, min(seg.Size(), 16))
	if n, err := f.ReadAt(head, seg.Offset()); n < len(head) {
		if err == io.EOF {
			return 0, seg.truncated(int64(n))
		}
		return 0, seg.fail(err, seg.Offset()+int64(n), -1, -1)
	}
	c, err := framing.SniffCodec(head)
	if err != nil {
		return 0, seg.fail(err, seg.Offset(), -1, -1)
	}
	return c, nil
}

// SniffCodec names the codec of the segment's first stream from its first
// bytes (framing.SniffCodec); None for an empty segment.
func (s Segment) SniffCodec() (framing.Codec, error) {
	if s.Size() == 0 {
		return framing.None, nil
	}
	f, err := os.Open(s.Map.DataPath)
	if err != nil {
		return 0, s.fail(err, -1, -1, -1)
	}
	defer f.Close()
	return sniff(f, s)
}

// consumed is how many decompressed bytes the framing reader's rows have taken.
func (sr *segmentReader) consumed() int64 { return sr.fr.Offset() }

// next reads the next batch of up to n rows; io.EOF at the segment's end.
// The rows alias the reader's buffers until the next call.
func (sr *segmentReader) next(n int) (rowBatch, error) {
	rows, err := sr.fr.Next(n)
	if len(rows) > 0 {
		b := rowBatch{rows: rows, firstRow: sr.fr.RowsRead() - int64(len(rows)), streamOff: sr.fr.RowOffset(0)}
		if !sr.fr.Contiguous() {
			b.offs = make([]int64, len(rows))
			for i := range rows {
				b.offs[i] = sr.fr.RowOffset(i)
			}
		}
		return b, nil
	}
	if err == io.EOF {
		return rowBatch{}, io.EOF
	}
	seg := sr.seg.withCodec(sr.codec)
	var fe *framing.Error
	if !errors.As(err, &fe) {
		return rowBatch{}, seg.fail(err, -1, sr.consumed(), sr.fr.RowsRead())
	}
	fileOff := sr.fileOffset(fe.Offset)
	var ce *framing.CodecError
	if errors.As(err, &ce) {
		fileOff = sr.seg.Offset() + ce.Offset
	}
	return rowBatch{}, seg.fail(framingCause{fe}, fileOff, fe.Offset, fe.RowsRead)
}

// fileOffset maps a decompressed offset to a data-file offset, -1 when
// the segment is compressed.
func (sr *segmentReader) fileOffset(streamOff int64) int64 {
	if sr.codec != framing.None {
		return -1
	}
	return sr.seg.Offset() + streamOff
}

// decodeError places a decode error of batch b in the segment: the row
// within the segment and the byte where the fault is.
func (sr *segmentReader) decodeError(b rowBatch, err error) error {
	return decodeError(sr.seg, sr.codec, b, err)
}

func decodeError(s Segment, codec framing.Codec, b rowBatch, err error) error {
	seg := s.withCodec(codec)
	var de *rowbridge.DecodeError
	if !errors.As(err, &de) || de.Row < 0 || de.Row >= len(b.rows) {
		return seg.fail(err, -1, -1, b.firstRow)
	}
	var off int64
	if b.offs != nil {
		off = b.offs[de.Row]
	} else {
		off = b.streamOff
		for _, r := range b.rows[:de.Row] {
			off += 4 + int64(len(r))
		}
	}
	off += 4 // the row's size prefix
	if de.Offset >= 0 {
		off += int64(de.Offset)
	}
	row := b.firstRow + int64(de.Row)
	fileOff := int64(-1)
	if codec == framing.None {
		fileOff = seg.Offset() + off
	}
	return seg.fail(&rowbridge.DecodeError{Row: int(row), Field: de.Field, Offset: de.Offset, Err: de.Err}, fileOff, off, row)
}

func (sr *segmentReader) close() {
	if sr == nil {
		return
	}
	sr.f.Close()
	sr.bufs.raw.Reset(nil)
	sr.bufs.rec.Reset(nil)
	if sr.bufs.whole != nil {
		sr.bufs.whole.Reset(nil)
	}
	if sr.bufs.fr != nil {
		sr.bufs.fr.Reset(nil)
	}
	sr.cache.put(sr.bufs)
	sr.bufs, sr.fr = nil, nil
}

// framingCause is a framing error in a SegmentError, printed without the
// offsets the SegmentError already gives (the framing reader counts them
// from its own start).
type framingCause struct{ e *framing.Error }

func (c framingCause) Error() string { return c.e.Msg + ": " + c.e.Err.Error() }

func (c framingCause) Unwrap() error { return c.e }

type progressReader struct {
	r  io.Reader
	fn func(int64)
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.fn(int64(n))
	}
	return n, err
}

// SniffCodec names the codec of the shuffle's segments from the first
// bytes of each map output's first non-empty segment (Spark uses one codec
// per application). It is None when the shuffle has no bytes, and an error
// when the maps' segments name different codecs or none that is known.
func (s *Shuffle) SniffCodec() (framing.Codec, error) {
	codec, from := framing.None, Segment{}
	for _, m := range s.Maps {
		for p := range m.Partitions() {
			seg := m.Segment(p)
			if seg.Size() == 0 {
				continue
			}
			c, err := seg.SniffCodec()
			if err != nil {
				return 0, err
			}
			if from.Map != nil && c != codec {
				return 0, seg.withCodec(c).fail(fmt.Errorf("%w: %v, but partition %d of map %d (%s) is %v", rowbridge.ErrLayout, c, from.Partition, from.Map.Map, from.Map.DataPath, codec), seg.Offset(), -1, -1)
			}
			codec, from = c, seg
			break
		}
	}
	return codec, nil
}

// VerifyChecksums checks every segment of the shuffle's map outputs that
// have a checksum file. It returns nil when all match, else the
// mismatches (each a *ChecksumError) and read errors joined with
// errors.Join, in read order. Maps without a checksum file are skipped;
// see Algorithms for whether any has one.
func (s *Shuffle) VerifyChecksums() error {
	var errs []error
	for p := range s.Partitions {
		for _, m := range s.Maps {
			if err := m.Segment(p).VerifyChecksum(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
