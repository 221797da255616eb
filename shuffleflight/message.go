package shuffleflight

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// messageWriter is the ipc.PayloadWriter of a DoGet: it writes each IPC
// message (metadata and body) once, into one pooled buffer laid out as the
// FlightData message's bytes, and sends a FlightData whose DataHeader and
// DataBody are slices of that buffer. The Server's codec (flightCodec)
// recognises such a message and hands the buffer to gRPC as it is, where
// arrow-go's Flight writer copies every body into a buffer of its own and
// the codec copies it again. Under any other codec the message is an
// ordinary FlightData (marshalled with a copy, as before) and the buffer
// goes back to the pool once sent.
type messageWriter struct {
	stream         flight.FlightService_DoGetServer
	direct         bool              // a batch's body may go as its own memory (see sendDirect)
	rec            arrow.RecordBatch // the batch being written, for sendDirect
	fd             flight.FlightData
	pieces         [][]byte // sendDirect's, kept from message to message
	batches, bytes int64    // sent so far, for the log
}

// laidOut is a FlightData that a messageWriter laid out in buf: its
// DataHeader is buf[header:header+n], its DataBody what follows it.
type laidOut struct {
	buf    *[]byte // the message's bytes, from messagePool
	header int     // where the DataHeader starts in *buf
}

// pending holds the FlightData being sent by a messageWriter, for the
// codec to find; the key is the writer's own FlightData.
var pending sync.Map // *flight.FlightData -> laidOut

func (w *messageWriter) Start() error { return nil }
func (w *messageWriter) Close() error { return nil }

func (w *messageWriter) WritePayload(p ipc.Payload) error {
	meta := p.Meta()
	defer meta.Release()
	var body countWriter
	if err := p.SerializeBody(&body); err != nil {
		return err
	}
	header := meta.Bytes()
	if body > 0 {
		w.bytes += int64(len(header)) + int64(body)
		w.batches++
	}
	if w.direct && w.rec != nil && body > 0 {
		return w.sendDirect(p, header, int(body), w.rec)
	}
	size := fieldSize(tagDataHeader, header) + fieldSizeN(tagDataBody, int(body))
	buf := messagePool.Get(size)
	b := appendFieldHead((*buf)[:0], tagDataHeader, len(header))
	at := len(b)
	b = append(b, header...)
	if body > 0 {
		b = appendFieldHead(b, tagDataBody, int(body))
	}
	bodyAt := len(b)
	aw := appendWriter{b: b}
	if err := p.SerializeBody(&aw); err != nil {
		messagePool.Put(buf)
		return err
	}
	*buf = aw.b
	w.fd = flight.FlightData{DataHeader: (*buf)[at : at+len(header)], DataBody: (*buf)[bodyAt:]}
	if body == 0 {
		w.fd.DataBody = nil
		w.bytes += int64(len(header))
	}
	pending.Store(&w.fd, laidOut{buf: buf, header: at})
	err := w.stream.Send(&w.fd)
	if l, ok := pending.LoadAndDelete(&w.fd); ok { // not the Server's codec: the buffer was copied
		messagePool.Put(l.(laidOut).buf)
	}
	w.fd = flight.FlightData{}
	return err
}

// takeLaidOut is the buffer a messageWriter laid d out in, if d is such a
// message still as laid out; the caller then owns the buffer.
func takeLaidOut(d *flight.FlightData) (*[]byte, bool) {
	v, ok := pending.LoadAndDelete(d)
	if !ok {
		return nil, false
	}
	l := v.(laidOut)
	b := *l.buf
	if d.FlightDescriptor == nil && len(d.AppMetadata) == 0 && len(d.DataHeader) > 0 &&
		len(b) == fieldSize(tagDataHeader, d.DataHeader)+fieldSize(tagDataBody, d.DataBody) &&
		l.header+len(d.DataHeader) <= len(b) && sameStart(b[l.header:], d.DataHeader) &&
		(len(d.DataBody) == 0 || sameStart(b[len(b)-len(d.DataBody):], d.DataBody)) {
		return l.buf, true
	}
	// Changed since: encode it as it is now. Its slices may still alias
	// the buffer, which the collector takes back, not the pool.
	return nil, false
}

// sameStart reports whether two non-empty slices start at the same byte.
func sameStart(a, b []byte) bool { return &a[0] == &b[0] }

// countWriter counts the bytes written to it.
type countWriter int

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// appendWriter appends what is written to it to b.
type appendWriter struct{ b []byte }

func (a *appendWriter) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}
