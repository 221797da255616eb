// Package ipcverify checks Arrow IPC input before arrow-go's ipc package
// reads it.
//
// arrow-go reads IPC metadata (flatbuffers) without verifying it: an offset
// or vector length that points outside the metadata makes it panic, and a
// corrupt count can make it allocate without bound before anything is read,
// which kills the process. Arrow C++ runs flatbuffers::Verifier on every
// message for the same reason. This package is that verifier, hand-written
// for the Arrow metadata tables (Schema.fbs, Message.fbs, File.fbs), plus
// the checks that arrow-go needs beyond flatbuffer bounds so that it neither
// panics nor allocates from an unchecked count while loading the metadata:
// enum values it does not handle, union type codes, decimal precisions and
// scales, the field nodes, buffers and variadic buffer counts a record batch
// must supply for its schema, buffers inside the message body, dictionary
// deltas after their dictionary, and the declared sizes of compressed
// buffers.
//
// File verifies an IPC file before ipc.NewFileReader opens it; a
// MessageReader verifies a stream message by message for
// ipc.NewReaderFromMessageReader. Neither checks the values in the buffers
// (offsets, dictionary indices, UTF-8): array.ValidateFull does that once
// the arrays are built.
package ipcverify

import (
	"errors"
	"fmt"
)

// ErrTruncated is the cause of an Error for input that ends before a
// message, metadata or body it announces.
var ErrTruncated = errors.New("truncated")

// Error reports malformed Arrow IPC input. Its text names the byte offset
// but not the input, which the caller knows: "malformed input at byte 680:
// Footer.schema.fields[2].children: ...".
type Error struct {
	Offset int64  // input byte offset of the value at fault
	Where  string // the metadata path, like "Footer.schema.fields[2].children"; "" outside the metadata
	Msg    string
	Err    error // ErrTruncated or nil
}

func (e *Error) Error() string {
	kind := "malformed"
	if e.Err != nil {
		kind = e.Err.Error()
	}
	where := ""
	if e.Where != "" {
		where = e.Where + ": "
	}
	return fmt.Sprintf("%s input at byte %d: %s%s", kind, e.Offset, where, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

func errorAt(off int64, format string, args ...any) *Error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func truncatedAt(off int64, format string, args ...any) *Error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...), Err: ErrTruncated}
}

// within prefixes the error's metadata path with name, the step from the
// enclosing table: ".children", "[3]" or a table name.
func (e *Error) within(name string) *Error {
	e.Where = name + e.Where
	return e
}

// inBlock names the file block whose message the error is in.
func (e *Error) inBlock(name string) {
	if e.Where == "" {
		e.Where = name
	} else {
		e.Where = name + ", " + e.Where
	}
}
