package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/arrowvec"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/rowbridge/rowbridge/internal/ipcverify"
)

// Arrow IPC input is untrusted: package ipcverify checks the metadata
// before arrow-go reads it (arrow-go does not, and panics or exhausts
// memory on corrupt metadata), arrow-go is called under guardArrow in
// case something still gets through, and every batch passes
// array.ValidateFull (validateBatch) before a command sees it.

// batchSource is an Arrow IPC stream or file, read batch by batch.
type batchSource interface {
	Schema() *arrow.Schema
	Next() (arrow.RecordBatch, bool, error) // the batch is valid until the next call
	Close()
}

// inputIdleBytes bounds the released buffer memory that inputAllocator
// keeps for reuse: a batch or two of any usual size.
const inputIdleBytes = 64 << 20

// inputAllocator is the allocator of the batches read from Arrow IPC and
// Parquet inputs. Each batch is released before the next is read, and its
// buffers are reused for the next instead of being left to the garbage
// collector: a buffer per batch of new garbage (the body of each IPC
// record batch) made the heap grow to several batches before a
// collection (101 MB peak RSS on a 1 GB file of 5.6 MB batches, 59 MB
// with reuse). Reused memory is zeroed as Go's own is: arrow-go's Parquet
// reader, for one, relies on that.
func inputAllocator() memory.Allocator {
	return columnar.Zeroing(arrowvec.NewRecyclingAllocator(inputIdleBytes))
}

// openArrow opens an input of Arrow IPC (stream or file) or Parquet, as
// its kind says; any other kind is refused with inputKindError.
func openArrow(src *inputSource, mem memory.Allocator) (batchSource, error) {
	switch src.kind {
	case kindParquet:
		return openParquet(src.in, src.br, mem)
	case kindArrowFile:
		return openArrowFileInput(src, mem)
	case kindArrowStream:
		s := &streamSource{br: src.br, mem: mem}
		if err := s.open(0); err != nil {
			return nil, arrowError(err, "reading Arrow IPC stream")
		}
		s.schema = s.r.Schema()
		return s, nil
	}
	return nil, inputKindError(src.name, src.kind, src.head)
}

// openArrowFileInput opens an Arrow IPC file input. The file format needs
// random access (its footer, which lists the batches, is at its end): a
// regular file is read through io.ReaderAt, one record batch at a time;
// anything else (a pipe) is first copied to a temporary file, so that
// memory holds a batch or two, never the file.
func openArrowFileInput(src *inputSource, mem memory.Allocator) (*fileSource, error) {
	f, start, size, onRead, _ := regularInput(src.in, src.br)
	var spooled *spoolFile
	if f == nil { // a pipe (or a file whose position is unknown): copy it
		var err error
		if spooled, err = spool(src.br); err != nil {
			return nil, wrapf(err, "reading Arrow IPC file")
		}
		f, start, size = spooled.f, 0, spooled.size
		onRead = nil // counted as it was copied
	}
	if onRead == nil {
		onRead = func(int64) {}
	}
	r := &countingSection{SectionReader: io.NewSectionReader(f, start, size), onRead: onRead}
	fs, err := openArrowFile(r, size, mem)
	if err != nil {
		spooled.close()
		return nil, err
	}
	fs.spooled = spooled
	return fs, nil
}

// regularInput is the regular file under the input in (as inputSet.open
// opened it; br has peeked at it and read nothing of it yet), for random
// access: the file, the offset in it of br's first byte, the bytes from
// there to its end, and the progress bar's count of the bytes read (nil
// without one). f is nil when in is no regular file (a pipe); err is a
// failure to find the position in one that is.
func regularInput(in io.Reader, br *bufio.Reader) (f *os.File, start, size int64, onRead func(int64), err error) {
	if c, ok := in.(*countingReader); ok {
		in, onRead = c.r, c.onRead
	}
	file, ok := in.(*os.File)
	if !ok {
		return nil, 0, 0, onRead, nil
	}
	fi, err := file.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, 0, 0, onRead, nil
	}
	pos, err := file.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, 0, 0, onRead, err
	}
	start = pos - int64(br.Buffered()) // the first byte br holds
	return file, start, fi.Size() - start, onRead, nil
}

// countingSection is a section of a file that counts the bytes read
// through ReadAt for the progress bar (Arrow IPC and Parquet files).
type countingSection struct {
	*io.SectionReader
	n      int64
	onRead func(total int64)
}

func (c *countingSection) ReadAt(b []byte, off int64) (int, error) {
	n, err := c.SectionReader.ReadAt(b, off)
	if n > 0 {
		c.n += int64(n)
		c.onRead(c.n)
	}
	return n, err
}

// spoolFile is a temporary copy of an input read from a pipe.
type spoolFile struct {
	f    *os.File
	size int64
	name string // to remove at close where an open file cannot be removed; "" once removed
}

// spool copies r to a new temporary file, removed at once where the
// system lets an open file be removed (it goes when closed).
func spool(r io.Reader) (*spoolFile, error) {
	f, err := os.CreateTemp("", "rowbridge-input-*.arrow")
	if err != nil {
		return nil, err
	}
	s := &spoolFile{f: f, name: f.Name()}
	if os.Remove(s.name) == nil {
		s.name = ""
	}
	if s.size, err = io.Copy(f, r); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *spoolFile) close() {
	if s == nil {
		return
	}
	s.f.Close()
	if s.name != "" {
		os.Remove(s.name)
	}
}

// openArrowFile verifies the Arrow IPC file of size bytes that r reads,
// then opens it.
func openArrowFile(r ipc.ReadAtSeeker, size int64, mem memory.Allocator) (*fileSource, error) {
	if err := ipcverify.File(r, size); err != nil {
		return nil, wrapf(err, "reading Arrow IPC file")
	}
	var fr *ipc.FileReader
	err := guardArrow(func() (err error) {
		fr, err = ipc.NewFileReader(r, ipc.WithAllocator(mem))
		return err
	})
	if err != nil {
		return nil, arrowError(err, "reading Arrow IPC file")
	}
	return &fileSource{r: fr}, nil
}

// streamSource reads an Arrow IPC stream, or several concatenated
// (as cat writes them): after a stream's end-of-stream marker, any bytes
// that follow must be another stream with the same schema.
type streamSource struct {
	br     *bufio.Reader
	mem    memory.Allocator
	mr     *ipcverify.MessageReader
	r      *ipc.Reader   // the current stream's
	schema *arrow.Schema // the first stream's
	stream int           // the current stream, from 0
	start  int64         // input offset of the current stream
	next   int           // the next batch, counted over all streams
}

// open starts reading the stream at input offset off.
func (s *streamSource) open(off int64) error {
	mr := ipcverify.NewMessageReaderAt(s.br, off)
	var r *ipc.Reader
	err := guardArrow(func() (err error) {
		r, err = ipc.NewReaderFromMessageReader(mr, ipc.WithAllocator(s.mem))
		return err
	})
	mr.Release() // the ipc.Reader holds its own reference
	if err != nil {
		return err
	}
	s.mr, s.r, s.start = mr, r, off
	return nil
}

func (s *streamSource) Schema() *arrow.Schema { return s.schema }
func (s *streamSource) Close() {
	if s.r != nil {
		s.r.Release()
	}
}
func (s *streamSource) Next() (arrow.RecordBatch, bool, error) {
	for {
		var ok bool
		err := guardArrow(func() error {
			if ok = s.r.Next(); ok {
				return validateBatch(s.r.RecordBatch())
			}
			return s.r.Err()
		})
		if err != nil {
			if strings.Contains(err.Error(), "got=Schema, want=RecordBatch") {
				// arrow-go says only "invalid message type": name what it is.
				return nil, false, fmt.Errorf("%s batch %d: a schema message stands where a batch or the end-of-stream marker should: a second stream begins without the first one's end marker (concatenate whole streams)", s.where(), s.next)
			}
			return nil, false, arrowError(err, fmt.Sprintf("%s batch %d", s.where(), s.next))
		}
		if ok {
			s.next++
			return s.r.RecordBatch(), true, nil
		}
		if more, err := s.nextStream(); !more || err != nil {
			return nil, false, err
		}
	}
}

// nextStream opens the stream after the current one's end, if the input
// goes on, and checks that its schema is the first stream's.
func (s *streamSource) nextStream() (bool, error) {
	if _, err := s.br.Peek(1); err == io.EOF {
		return false, nil
	} else if err != nil {
		return false, wrapf(err, "reading Arrow IPC stream")
	}
	off := s.mr.Offset()
	s.r.Release()
	s.r = nil
	if err := s.open(off); err != nil {
		if errors.Is(err, io.EOF) {
			return false, fmt.Errorf("reading Arrow IPC stream: the input goes on after the end of the stream at byte %d with an end-of-stream marker, not another stream", off)
		}
		return false, arrowError(err, fmt.Sprintf("reading Arrow IPC stream: the bytes after the end of the stream at byte %d are not another Arrow IPC stream", off))
	}
	s.stream++
	if diff := schemaDiff(s.schema, s.r.Schema()); diff != "" {
		return false, fmt.Errorf("%s: its schema differs from the first stream's: %s", s.where(), diff)
	}
	return true, nil
}

// where names the current stream in an error message, by its place
// when there is more than one: "reading Arrow IPC stream 2 (at byte 1208)".
func (s *streamSource) where() string {
	if s.stream == 0 {
		return "reading Arrow IPC stream"
	}
	return fmt.Sprintf("reading Arrow IPC stream %d (at byte %d)", s.stream+1, s.start)
}

// schemaDiff describes the first difference between the schemas of two
// streams, or returns "" if they are the same (fields, their metadata,
// the schema's metadata and endianness).
func schemaDiff(first, other *arrow.Schema) string {
	switch {
	case first.NumFields() != other.NumFields():
		return fmt.Sprintf("%d fields, not %d", other.NumFields(), first.NumFields())
	case first.Endianness() != other.Endianness():
		return fmt.Sprintf("%v endian, not %v", other.Endianness(), first.Endianness())
	}
	for i := range first.NumFields() {
		if a, b := first.Field(i), other.Field(i); !a.Equal(b) {
			return fmt.Sprintf("field %d is %s, not %s", i, b, a)
		}
	}
	if a, b := first.Metadata(), other.Metadata(); !a.Equal(b) {
		return fmt.Sprintf("schema metadata %v, not %v", b, a)
	}
	return ""
}

type fileSource struct {
	r       *ipc.FileReader
	next    int
	rec     arrow.RecordBatch // the batch Next returned last
	spooled *spoolFile        // the copy read, for input from a pipe
}

func (s *fileSource) Schema() *arrow.Schema { return s.r.Schema() }
func (s *fileSource) Close() {
	s.release()
	s.r.Close()
	s.spooled.close()
	s.spooled = nil
}

func (s *fileSource) release() {
	if s.rec != nil {
		s.rec.Release()
		s.rec = nil
	}
}

// Next releases the batch it returned before, then reads the next, so that
// one batch's body is in memory at a time.
func (s *fileSource) Next() (arrow.RecordBatch, bool, error) {
	s.release()
	if s.next >= s.r.NumRecords() {
		return nil, false, nil
	}
	err := guardArrow(func() (err error) {
		if s.rec, err = s.r.RecordBatchAt(s.next); err != nil {
			return err
		}
		return validateBatch(s.rec)
	})
	rec := s.rec
	if err != nil {
		return nil, false, arrowError(err, fmt.Sprintf("reading Arrow IPC file batch %d", s.next))
	}
	s.next++
	return rec, true, nil
}

// validateBatch checks the batch's buffers and values (offsets in range,
// dictionary indices in range, UTF-8 strings, ...) so the commands never
// see inconsistent arrays.
func validateBatch(rec arrow.RecordBatch) error {
	for i, col := range rec.Columns() {
		data := withNullBuffer(col.Data())
		arr := array.MakeFromData(data)
		err := array.ValidateFull(arr)
		arr.Release()
		data.Release()
		if err != nil {
			return fmt.Errorf("invalid data: column %d (%s): %w", i, rec.Schema().Field(i).Name, err)
		}
	}
	return nil
}

// withNullBuffer returns a new reference to d, or to a copy whose arrays
// of a type without buffers (Null, at any depth) have the one nil buffer
// that array.ValidateFull expects: arrow-go's IPC reader gives them none.
func withNullBuffer(d arrow.ArrayData) arrow.ArrayData {
	changed := false
	children := make([]arrow.ArrayData, len(d.Children()))
	for i, c := range d.Children() {
		children[i] = withNullBuffer(c)
		changed = changed || children[i] != c
	}
	defer func() {
		for _, c := range children {
			c.Release()
		}
	}()
	var dict arrow.ArrayData
	if dd, ok := d.Dictionary().(*array.Data); ok && dd != nil { // a typed nil when there is none
		dict = withNullBuffer(dd)
		defer dict.Release()
		changed = changed || dict != arrow.ArrayData(dd)
	}
	buffers := d.Buffers()
	if l := d.DataType().Layout(); len(buffers) == 0 && len(l.Buffers) == 1 && l.Buffers[0].Kind == arrow.KindAlwaysNull {
		buffers = []*memory.Buffer{nil}
		changed = true
	}
	if !changed {
		d.Retain()
		return d
	}
	if dict != nil {
		return array.NewDataWithDictionary(d.DataType(), d.Len(), buffers, d.NullN(), d.Offset(), dict.(*array.Data))
	}
	return array.NewData(d.DataType(), d.Len(), buffers, children, d.NullN(), d.Offset())
}

// guardArrow runs f, which calls into arrow-go's IPC reading, array
// construction or validation, and turns a panic into an error.
// Verification leaves arrow-go well-formed metadata, but not buffers that
// agree with it: arrow-go recovers the panics of building arrays from
// buffers shorter than their lengths declare, not those of
// (*array.String).ValidateFull on an offset past the string data.
func guardArrow(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("malformed input: %v", p)
		}
	}()
	return f()
}

// arrowError prefixes err with what was being done; an ipcverify error
// that arrow-go wraps is reported without arrow-go's wrapping.
func arrowError(err error, what string) error {
	var ve *ipcverify.Error
	if errors.As(err, &ve) {
		err = ve
	}
	return wrapf(err, "%s", what)
}
