package rowstream

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
)

// Source yields decoded record batches in order: a framed row stream read
// in the caller's goroutine or by workers, or sparkshuffle's segments.
type Source interface {
	// Next returns the next batch, which the caller owns, or io.EOF or
	// the error that ends the stream.
	Next() (arrow.RecordBatch, error)
	// Close stops the source and frees what it holds (batches decoded
	// ahead, goroutines); it is called at the end, on an error and on the
	// last Release, and must be safe to call more than once.
	Close()
}

// Reader is the array.RecordReader over a Source: the one shell behind
// unsaferow.Reader, compactrow.Reader and sparkshuffle.Reader. Next
// releases the previous batch before it takes the next; the last Release
// frees the current batch and closes the source.
type Reader struct {
	refs   atomic.Int64
	schema *arrow.Schema
	src    Source
	cur    arrow.RecordBatch
	err    error
	done   bool
}

var _ array.RecordReader = (*Reader)(nil)

// NewSourceReader returns a Reader of src's batches, each of schema, with
// one reference.
func NewSourceReader(schema *arrow.Schema, src Source) *Reader {
	r := &Reader{schema: schema, src: src}
	r.refs.Store(1)
	return r
}

// NewReader returns a Reader of r's rows, framed with f (and c for
// compressed Velox groups), decoded by dec into batches of at most
// batchRows rows of schema.
func NewReader(r io.Reader, schema *arrow.Schema, dec BatchDecoder, f framing.Framing, c framing.Codec, batchRows int, opts ...ReaderOption) (*Reader, error) {
	if batchRows < 1 {
		return nil, fmt.Errorf("rowstream: batch rows %d, want at least 1: %w", batchRows, arrow.ErrInvalid)
	}
	fr, err := framing.NewReader(r, f, c)
	if err != nil {
		return nil, err
	}
	o := readerOptions{workers: 1}
	for _, opt := range opts {
		opt(&o)
	}
	if o.workers > 1 {
		return NewSourceReader(schema, startParallel(fr, dec, batchRows, o.workers)), nil
	}
	return NewSourceReader(schema, &serial{rows: fr, dec: dec, batchRows: batchRows}), nil
}

// serial decodes a framed stream's batches in the caller's goroutine.
type serial struct {
	rows      *framing.Reader
	dec       BatchDecoder
	batchRows int
	start     int64 // stream index of the first row of the next batch
}

func (s *serial) Next() (arrow.RecordBatch, error) {
	rows, err := s.rows.Next(s.batchRows)
	if err != nil {
		return nil, err
	}
	rec, err := s.dec.Decode(rows)
	if err != nil {
		return nil, inStream(err, s.start)
	}
	s.start += int64(len(rows))
	return rec, nil
}

// Close does nothing: the rows are read in Next, and nothing is ahead.
func (s *serial) Close() {}

// Schema is the schema of every batch.
func (r *Reader) Schema() *arrow.Schema { return r.schema }

// Next reads the next batch, releasing the previous one. It returns false
// at the end of the stream or on an error (see Err); either closes the
// source.
func (r *Reader) Next() bool {
	r.releaseCurrent()
	if r.done {
		return false
	}
	rec, err := r.src.Next()
	if err != nil {
		r.done = true
		if err != io.EOF {
			r.err = err
		}
		r.src.Close()
		return false
	}
	r.cur = rec
	return true
}

// RecordBatch is the batch read by the last Next. It is valid until the
// next call to Next or Release; Retain it to keep it longer.
func (r *Reader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch.
//
// Deprecated: use RecordBatch.
func (r *Reader) Record() arrow.RecordBatch { return r.cur }

// Err is the error that stopped Next, nil at a clean end of stream.
func (r *Reader) Err() error { return r.err }

// Retain adds a reference to the Reader.
func (r *Reader) Retain() { r.refs.Add(1) }

// Release drops a reference; the last one frees the current batch and
// closes the source (with workers, that stops their goroutines and frees
// the batches decoded ahead).
func (r *Reader) Release() {
	if r.refs.Add(-1) == 0 {
		r.releaseCurrent()
		r.done = true
		r.src.Close()
	}
}

func (r *Reader) releaseCurrent() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

// inStream renumbers a decode error's batch row as a stream row.
func inStream(err error, start int64) error {
	var de *rowbridge.DecodeError
	if errors.As(err, &de) {
		return &rowbridge.DecodeError{Row: int(start) + de.Row, Field: de.Field, Offset: de.Offset, Err: de.Err}
	}
	return fmt.Errorf("batch from stream row %d: %w", start, err)
}
