package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
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

// openArrow reads in as an Arrow IPC file if it starts with the file
// magic, else as an IPC stream.
func openArrow(in io.Reader, mem memory.Allocator) (batchSource, error) {
	br := bufio.NewReaderSize(in, 64<<10)
	head, _ := br.Peek(len(ipcverify.FileMagic))
	if bytes.Equal(head, ipcverify.FileMagic) {
		// The file format needs random access: its footer is at the end.
		data, err := io.ReadAll(br)
		if err != nil {
			return nil, err
		}
		return openArrowFile(bytes.NewReader(data), int64(len(data)), mem)
	}
	if len(head) == 0 {
		return nil, fmt.Errorf("reading Arrow IPC input: the input is empty")
	}
	var sr *ipc.Reader
	err := guardArrow(func() (err error) {
		sr, err = ipc.NewReaderFromMessageReader(ipcverify.NewMessageReader(br), ipc.WithAllocator(mem))
		return err
	})
	if err != nil {
		return nil, arrowError(err, "reading Arrow IPC stream")
	}
	return &streamSource{r: sr}, nil
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

type streamSource struct {
	r    *ipc.Reader
	next int
}

func (s *streamSource) Schema() *arrow.Schema { return s.r.Schema() }
func (s *streamSource) Close()                { s.r.Release() }
func (s *streamSource) Next() (arrow.RecordBatch, bool, error) {
	var ok bool
	err := guardArrow(func() error {
		if ok = s.r.Next(); ok {
			return validateBatch(s.r.RecordBatch())
		}
		return s.r.Err()
	})
	if err != nil {
		return nil, false, arrowError(err, fmt.Sprintf("reading Arrow IPC stream batch %d", s.next))
	}
	if !ok {
		return nil, false, nil
	}
	s.next++
	return s.r.RecordBatch(), true, nil
}

type fileSource struct {
	r    *ipc.FileReader
	next int
}

func (s *fileSource) Schema() *arrow.Schema { return s.r.Schema() }
func (s *fileSource) Close()                { s.r.Close() }
func (s *fileSource) Next() (arrow.RecordBatch, bool, error) {
	if s.next >= s.r.NumRecords() {
		return nil, false, nil
	}
	var rec arrow.RecordBatch
	err := guardArrow(func() (err error) {
		if rec, err = s.r.RecordBatch(s.next); err != nil {
			return err
		}
		return validateBatch(rec)
	})
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
