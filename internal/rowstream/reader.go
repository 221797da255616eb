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

// Reader reads record batches of at most a set number of rows from a
// framed row stream. It satisfies array.RecordReader.
type Reader struct {
	refs      atomic.Int64
	schema    *arrow.Schema
	rows      *framing.Reader
	dec       BatchDecoder
	batchRows int
	workers   int
	par       *parallel // with workers > 1

	cur   arrow.RecordBatch
	start int64 // stream index of the first row of the next batch
	err   error
	done  bool
}

var _ array.RecordReader = (*Reader)(nil)

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
	rd := &Reader{schema: schema, rows: fr, dec: dec, batchRows: batchRows, workers: 1}
	for _, o := range opts {
		o(rd)
	}
	rd.refs.Store(1)
	if rd.workers > 1 {
		rd.par = startParallel(fr, dec, batchRows, rd.workers)
	}
	return rd, nil
}

// Schema is the schema of every batch.
func (r *Reader) Schema() *arrow.Schema { return r.schema }

// Next reads the next batch, releasing the previous one. It returns false
// at the end of the stream or on an error (see Err).
func (r *Reader) Next() bool {
	r.releaseCurrent()
	if r.done {
		return false
	}
	if r.par != nil {
		rec, err := r.par.next()
		if err != nil {
			r.done = true
			if err != io.EOF {
				r.err = err
			}
			r.par.close()
			return false
		}
		r.cur = rec
		return true
	}
	rows, err := r.rows.Next(r.batchRows)
	if err != nil {
		r.done = true
		if err != io.EOF {
			r.err = err
		}
		return false
	}
	rec, err := r.dec.Decode(rows)
	if err != nil {
		r.done = true
		r.err = inStream(err, r.start)
		return false
	}
	r.start += int64(len(rows))
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

// Release drops a reference; the last one frees the current batch (and
// with workers, stops their goroutines and frees the batches decoded ahead).
func (r *Reader) Release() {
	if r.refs.Add(-1) == 0 {
		r.releaseCurrent()
		r.done = true
		if r.par != nil {
			r.par.close()
		}
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
