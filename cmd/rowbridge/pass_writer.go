package main

import (
	"bufio"
	"io"
)

// passWriter buffers small writes and passes large ones straight through.
// A bufio.Writer copies a write into its buffer unless the buffer is empty
// and the write at least as long as it; the Arrow IPC writer writes a batch
// as its small message header, then each column's buffers one by one (32
// KiB for a BIGINT column of 4,096 rows), so under a plain bufio.Writer
// every byte of every batch was copied once more, on the goroutine that
// writes the batches in order: the one part of a parallel decode that no
// worker shares. A write of at least passSize bytes flushes what is
// buffered and goes to the file as it is.
type passWriter struct {
	*bufio.Writer
	w   io.Writer
	err error // the first error of a write passed through; every later call returns it
}

const (
	outputBufferSize = 64 << 10
	passSize         = 8 << 10
)

func newPassWriter(w io.Writer) *passWriter {
	return &passWriter{Writer: bufio.NewWriterSize(w, outputBufferSize), w: w}
}

// Write buffers b, or writes it through when it is long.
func (p *passWriter) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	if len(b) < passSize {
		return p.Writer.Write(b)
	}
	if err := p.Writer.Flush(); err != nil {
		return 0, err
	}
	n, err := p.w.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	p.err = err
	return n, err
}

// Flush writes what is buffered, or returns the error of a write passed
// through.
func (p *passWriter) Flush() error {
	if p.err != nil {
		return p.err
	}
	return p.Writer.Flush()
}
