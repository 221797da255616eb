package ipcverify

import (
	"bytes"
	"errors"
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// toleratedPanics are the functions in which arrow-go may still panic on
// input the verifier accepts, because the cause is in the buffers' values,
// which the verifier does not read: (*String).ValidateFull and
// (*LargeString).ValidateFull slice the data buffer at each offset before
// they check that the offsets increase, so an offset past the data panics
// instead of failing validation. Callers run validation under recover.
//
// Other panics on buffers that do not match their field nodes (array
// construction) happen where arrow-go recovers them itself and returns an
// error: ipc.Reader.Next and ipc.FileReader.RecordBatch.
var toleratedPanics = []string{
	"github.com/apache/arrow-go/v18/arrow/array.(*String).ValidateFull",
	"github.com/apache/arrow-go/v18/arrow/array.(*LargeString).ValidateFull",
}

// FuzzVerify feeds arbitrary bytes to File (when they start with the file
// magic) or to a MessageReader: the verifier must not panic, must fail
// only with an *Error, and when it accepts the input, arrow-go must read
// it (schema, dictionaries, every batch, then array.ValidateFull of each
// column) without panicking, except in toleratedPanics, or running out of
// memory.
func FuzzVerify(f *testing.F) {
	for _, file := range []bool{false, true} {
		for _, opts := range [][]ipc.Option{nil, {ipc.WithLZ4()}, {ipc.WithZstd()}} {
			f.Add(nestedIPC(f, file, opts...))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var err error
		if bytes.HasPrefix(data, FileMagic) {
			err = File(bytes.NewReader(data), int64(len(data)))
		} else {
			err = readMessages(data)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		if site, stack := arrowReads(data); site != "" {
			t.Fatalf("arrow-go panicked in %s on input the verifier accepts:\n%s", site, stack)
		}
	})
}

// readMessages reads the stream data through a MessageReader alone.
func readMessages(data []byte) error {
	mr := NewMessageReader(bytes.NewReader(data))
	defer mr.Release()
	for {
		if _, err := mr.Message(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// arrowReads reads data with arrow-go as the CLI does, after File or
// through a MessageReader, and validates every column. If arrow-go panics
// outside toleratedPanics, it returns the function that panicked and the
// stack.
func arrowReads(data []byte) (site, stack string) {
	defer func() {
		if p := recover(); p != nil {
			stack = string(debug.Stack())
			site = panicSite(stack)
			for _, ok := range toleratedPanics {
				if site == ok {
					site, stack = "", ""
				}
			}
		}
	}()
	if bytes.HasPrefix(data, FileMagic) {
		fr, err := ipc.NewFileReader(bytes.NewReader(data))
		if err != nil {
			return "", ""
		}
		defer fr.Close()
		for i := range fr.NumRecords() {
			rec, err := fr.RecordBatch(i)
			if err != nil {
				return "", ""
			}
			_ = array.ValidateRecordFull(rec)
		}
		return "", ""
	}
	r, err := ipc.NewReaderFromMessageReader(NewMessageReader(bytes.NewReader(data)))
	if err != nil {
		return "", ""
	}
	defer r.Release()
	for r.Next() {
		_ = array.ValidateRecordFull(r.RecordBatch())
	}
	return "", ""
}

// panicSite returns the function that panicked, from the stack of the
// goroutine that recovered: the first frame after runtime's own.
func panicSite(stack string) string {
	lines := strings.Split(stack, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, "panic(") {
			continue
		}
		for _, fn := range lines[i+1:] {
			if strings.HasPrefix(fn, "\t") || strings.HasPrefix(fn, "runtime.") {
				continue
			}
			if j := strings.LastIndex(fn, "("); j > 0 {
				return fn[:j]
			}
			return fn
		}
	}
	return "?"
}
