package shuffleflight

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// NewRecordReader reads the record batches of a DoGet stream as
// flight.NewRecordReader does, for a client of DialOptions: a batch's
// buffers are slices of the body of the message it came in, which goes
// back to the client's pool once the batch and every slice of it are
// released, where flight.NewRecordReader leaves every body to the garbage
// collector (fresh memory the kernel faults in for each message). opts
// are the ipc.Reader's (ipc.WithAllocator, ipc.WithSchema, ...). A
// message that carries app metadata only is skipped.
func NewRecordReader(stream flight.DataStreamReader, opts ...ipc.Option) (*ipc.Reader, error) {
	m := &bodyMessages{stream: stream}
	m.refs.Store(1) // the ipc.Reader's, which releases it with itself
	return ipc.NewReaderFromMessageReader(m, opts...)
}

// bodyMessages is the ipc.MessageReader of NewRecordReader.
type bodyMessages struct {
	stream flight.DataStreamReader
	msg    *ipc.Message // the last one read, until the next
	refs   atomic.Int64
}

func (m *bodyMessages) Message() (*ipc.Message, error) {
	m.drop()
	for {
		d, err := m.stream.Recv()
		if err != nil {
			return nil, err
		}
		if len(d.DataHeader) == 0 {
			continue
		}
		body := memory.NewBufferBytes(d.DataBody)
		if len(d.DataBody) > 0 {
			// Freed into clientBodies when its last slice is released;
			// a body from elsewhere (proto's) it ignores.
			body = memory.NewBufferWithAllocator(d.DataBody, clientBodies)
		}
		m.msg = ipc.NewMessage(memory.NewBufferBytes(d.DataHeader), body)
		body.Release() // the message holds it
		return m.msg, nil
	}
}

func (m *bodyMessages) drop() {
	if m.msg != nil {
		m.msg.Release()
		m.msg = nil
	}
}

func (m *bodyMessages) Retain() { m.refs.Add(1) }

func (m *bodyMessages) Release() {
	if m.refs.Add(-1) == 0 {
		m.drop()
	}
}

// ReleaseBody gives the body of d, a message received through
// DialOptions, back to the client's pool, for a caller done with it that
// reads the stream's messages itself (not through NewRecordReader): d's
// DataBody must not be used afterwards, and is set to nil. A body from
// elsewhere is left to the garbage collector.
func ReleaseBody(d *flight.FlightData) {
	clientBodies.Free(d.DataBody)
	d.DataBody = nil
}
