package ipcverify

import (
	"bytes"
	"encoding/binary"
	"io"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// continuation is the marker before each message's length since Arrow
// 0.15; older streams start a message with the length itself.
const continuation = 0xFFFFFFFF

// firstRead is how much a message's metadata or body buffer holds before
// it grows with the bytes that arrive.
const firstRead = 64 << 10

// MessageReader reads an Arrow IPC stream message by message and verifies
// each before handing it on, as an ipc.MessageReader for
// ipc.NewReaderFromMessageReader: the framing (continuation marker and
// length, or the pre-0.15 length alone), the metadata, the fields the
// stream's schema needs, and the compressed buffers of the body. It reads
// the metadata and the body into buffers that grow only as the bytes
// arrive, so a corrupt length costs no more memory than the stream has
// bytes; a stream that ends early is an *Error with cause ErrTruncated.
// At most one message is held at a time, valid until the next call to
// Message.
//
// Like arrow-go's own reader, Message returns io.EOF at the end-of-stream
// marker (a zero length, after the continuation marker or not) and where
// the input ends between messages. It reads nothing past the marker, so
// another stream that follows it can be read with NewMessageReaderAt.
type MessageReader struct {
	r      io.Reader
	off    int64 // input offset of the next byte
	schema *schemaLayout
	sent   map[int64]bool // dictionary ids
	msg    *ipc.Message
	err    error // once set, every call returns it
	refs   atomic.Int64
}

var _ ipc.MessageReader = (*MessageReader)(nil)

// NewMessageReader returns a MessageReader reading r.
func NewMessageReader(r io.Reader) *MessageReader {
	return NewMessageReaderAt(r, 0)
}

// NewMessageReaderAt returns a MessageReader reading r, whose first byte
// is at offset off of a larger input (the next of concatenated streams,
// at the Offset of the reader of the one before); errors name offsets in
// the larger input.
func NewMessageReaderAt(r io.Reader, off int64) *MessageReader {
	mr := &MessageReader{r: r, off: off, sent: map[int64]bool{}}
	mr.refs.Add(1)
	return mr
}

// Offset returns the input offset of the next byte to read: once Message
// has returned io.EOF, that just after the end-of-stream marker.
func (mr *MessageReader) Offset() int64 { return mr.off }

// Message returns the next verified message.
func (mr *MessageReader) Message() (*ipc.Message, error) {
	if mr.msg != nil {
		mr.msg.Release()
		mr.msg = nil
	}
	if mr.err != nil {
		return nil, mr.err
	}
	msg, err := mr.next()
	if err != nil {
		mr.err = err
		return nil, err
	}
	mr.msg = msg
	return msg, nil
}

func (mr *MessageReader) next() (*ipc.Message, error) {
	start := mr.off
	length, err := mr.uint32()
	if err == io.EOF {
		return nil, io.EOF
	}
	if err == nil && length == continuation {
		length, err = mr.uint32()
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
	}
	if err == io.ErrUnexpectedEOF {
		return nil, truncatedAt(mr.off, "the stream ends inside the length of the message at byte %d", start)
	}
	if err != nil {
		return nil, err
	}
	if length == 0 {
		return nil, io.EOF
	}
	if int32(length) < 4 {
		return nil, errorAt(mr.off-4, "message metadata length %d", int32(length))
	}
	meta, err := mr.read(int64(length), "message metadata")
	if err != nil {
		return nil, err
	}
	metaStart := mr.off - int64(length)
	m, verr := verifyMessage(meta, metaStart)
	if verr != nil {
		return nil, verr
	}
	switch {
	case m.header == headerSchema:
		if mr.schema == nil {
			mr.schema = m.schema
		}
	case mr.schema == nil:
		return nil, errorAt(metaStart, "a %s before the schema", headerName(m.header))
	default:
		if verr := checkLayout(m, mr.schema); verr != nil {
			return nil, verr
		}
		if verr := checkDelta(m, mr.sent); verr != nil {
			return nil, verr
		}
	}
	body, err := mr.read(m.bodyLen, "message body")
	if err != nil {
		return nil, err
	}
	if err := checkCompressed(m, bytes.NewReader(body), mr.off-m.bodyLen); err != nil {
		return nil, err
	}
	return ipc.NewMessage(memory.NewBufferBytes(meta), memory.NewBufferBytes(body)), nil
}

// uint32 reads a little-endian uint32: io.EOF if the input ends before it,
// io.ErrUnexpectedEOF if inside it.
func (mr *MessageReader) uint32() (uint32, error) {
	var b [4]byte
	n, err := io.ReadFull(mr.r, b[:])
	mr.off += int64(n)
	return binary.LittleEndian.Uint32(b[:]), err
}

// read reads n bytes, what, into a buffer that grows as they arrive.
func (mr *MessageReader) read(n int64, what string) ([]byte, error) {
	buf := make([]byte, 0, min(n, firstRead))
	for int64(len(buf)) < n {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(n, 2*int64(cap(buf))))
			copy(grown, buf)
			buf = grown
		}
		k, err := io.ReadFull(mr.r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		mr.off += int64(k)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil, truncatedAt(mr.off, "the stream ends %d bytes into %d bytes of %s", len(buf), n, what)
		}
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// Retain adds a reference.
func (mr *MessageReader) Retain() { mr.refs.Add(1) }

// Release drops a reference; the last releases the current message.
func (mr *MessageReader) Release() {
	if mr.refs.Add(-1) == 0 && mr.msg != nil {
		mr.msg.Release()
		mr.msg = nil
	}
}
