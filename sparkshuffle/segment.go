package sparkshuffle

import (
	"bufio"
	"errors"
	"fmt"
	"io"
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
	want := m.Checksums[s.Partition]
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
			return s.fail(fmt.Errorf("%w: the data file ends %d bytes into the segment", rowbridge.ErrTruncated, n), s.Offset()+n, -1, -1)
		}
		got = int64(h.Sum32())
	}
	if got != want {
		return &ChecksumError{Shuffle: m.Shuffle, Map: m.Map, Partition: s.Partition, Path: s.path(),
			Checksum: m.ChecksumPath, Algorithm: m.Algorithm, Want: want, Got: got}
	}
	return nil
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
	return &SegmentError{Path: s.path(), Shuffle: s.Map.Shuffle, Map: s.Map.Map, Partition: s.Partition,
		Start: s.Offset(), End: s.Offset() + s.Size(), FileOffset: fileOff, StreamOffset: streamOff, Row: row, Err: err}
}

var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// rowBatch is a batch of rows read from a segment, with where it came from.
type rowBatch struct {
	rows      [][]byte
	firstRow  int64 // index within the segment of rows[0]
	streamOff int64 // decompressed-stream offset of rows[0]'s size prefix
}

// segmentReader splits a segment's records into batches: the segment's
// bytes, decompressed, then split by the Spark framing. An explicit end
// marker (-1, written after each stream by very old Spark) ends one
// stream; bytes after it are read as the next stream's records.
type segmentReader struct {
	seg      Segment
	codec    framing.Codec
	f        *os.File
	stream   countingReader // decompressed bytes
	br       *bufio.Reader
	fr       *framing.Reader
	base     int64 // decompressed offset where fr started
	rowsBase int64 // segment rows before fr started
}

// openSegment readies a segment for reading (after verifying its checksum
// when asked to); nil for an empty segment.
func openSegment(seg Segment, cfg *config) (*segmentReader, error) {
	if cfg.checksum == Verify {
		if err := seg.VerifyChecksum(); err != nil {
			return nil, err
		}
	}
	if seg.Size() == 0 {
		return nil, nil
	}
	f, err := os.Open(seg.Map.DataPath)
	if err != nil {
		return nil, seg.fail(err, -1, -1, -1)
	}
	var raw io.Reader = io.NewSectionReader(f, seg.Offset(), seg.Size())
	if cfg.progress != nil {
		raw = &progressReader{r: raw, fn: cfg.progress}
	}
	dec, err := openStream(raw, cfg.codec)
	if err != nil {
		f.Close()
		return nil, seg.fail(err, -1, -1, -1)
	}
	sr := &segmentReader{seg: seg, codec: cfg.codec, f: f, stream: countingReader{r: dec}}
	sr.br = bufio.NewReaderSize(&sr.stream, 64<<10)
	sr.fr, err = framing.NewReader(sr.br, framing.Spark, framing.None)
	if err != nil {
		f.Close()
		return nil, err
	}
	return sr, nil
}

// consumed is how many decompressed bytes the framing reader has taken.
func (sr *segmentReader) consumed() int64 { return sr.stream.n - int64(sr.br.Buffered()) }

// next reads the next batch of up to n rows; io.EOF at the segment's end.
// The rows alias the reader's buffers until the next call.
func (sr *segmentReader) next(n int) (rowBatch, error) {
	for {
		start := sr.consumed()
		rows, err := sr.fr.Next(n)
		if len(rows) > 0 {
			return rowBatch{rows: rows, firstRow: sr.rowsBase + sr.fr.RowsRead() - int64(len(rows)), streamOff: start}, nil
		}
		if err != io.EOF {
			var fe *framing.Error
			if errors.As(err, &fe) {
				off := sr.base + fe.Offset
				return rowBatch{}, sr.seg.fail(framingCause{fe}, sr.fileOffset(off), off, sr.rowsBase+fe.RowsRead)
			}
			return rowBatch{}, sr.seg.fail(err, -1, sr.consumed(), sr.rowsBase+sr.fr.RowsRead())
		}
		// The framing reader stopped at the end of the bytes or at an end
		// marker; anything left is another stream's records.
		if _, err := sr.br.Peek(1); err != nil {
			if err == io.EOF {
				return rowBatch{}, io.EOF
			}
			return rowBatch{}, sr.seg.fail(err, -1, sr.consumed(), sr.rowsBase+sr.fr.RowsRead())
		}
		sr.rowsBase += sr.fr.RowsRead()
		sr.base = sr.consumed()
		sr.fr, _ = framing.NewReader(sr.br, framing.Spark, framing.None)
	}
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

func decodeError(seg Segment, codec framing.Codec, b rowBatch, err error) error {
	var de *rowbridge.DecodeError
	if !errors.As(err, &de) || de.Row < 0 || de.Row >= len(b.rows) {
		return seg.fail(err, -1, -1, b.firstRow)
	}
	off := b.streamOff
	for _, r := range b.rows[:de.Row] {
		off += 4 + int64(len(r))
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
	if sr != nil {
		sr.f.Close()
	}
}

// framingCause is a framing error in a SegmentError, printed without the
// offsets the SegmentError already gives (the framing reader counts them
// from its own start).
type framingCause struct{ e *framing.Error }

func (c framingCause) Error() string { return c.e.Msg + ": " + c.e.Err.Error() }

func (c framingCause) Unwrap() error { return c.e }

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

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

// openStream returns the decompressed bytes of the codec streams in r.
func openStream(r io.Reader, c framing.Codec) (io.Reader, error) {
	if c == framing.None {
		return r, nil
	}
	return nil, fmt.Errorf("codec %v is not a Spark stream codec", c)
}
