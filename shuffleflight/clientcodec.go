package shuffleflight

import (
	"bytes"
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
)

// clientCodec is the gRPC codec of DialOptions: grpc's proto codec, except
// that a FlightData (what DoGet receives) is read with one copy. grpc's
// codec copies the message's pieces (as the transport's frames brought
// them) into one zeroed buffer, and proto.Unmarshal copies the fields out
// of it again; here the pieces are copied once into memory that is not
// zeroed first, and DataHeader, AppMetadata and DataBody are slices of it,
// the body 8-byte aligned as Arrow's IPC reader needs it. Any other
// message, or a FlightData with other fields (a descriptor, fields this
// side does not know) or malformed, goes through the proto codec.
type clientCodec struct {
	proto encoding.CodecV2
}

func newClientCodec() clientCodec {
	return clientCodec{proto: encoding.GetCodecV2(proto.Name)}
}

// Name is the proto codec's.
func (clientCodec) Name() string { return proto.Name }

func (c clientCodec) Marshal(v any) (mem.BufferSlice, error) { return c.proto.Marshal(v) }

func (c clientCodec) Unmarshal(data mem.BufferSlice, v any) error {
	d, ok := v.(*flight.FlightData)
	if !ok {
		return c.proto.Unmarshal(data, v)
	}
	var f flightFields
	if !f.scan(data) {
		return c.proto.Unmarshal(data, v)
	}
	d.Reset()
	if data.Len() == 0 {
		return nil
	}
	// Pad the front so that the body starts 8-byte aligned (the copy
	// starts so, being a fresh allocation of at least 8 bytes).
	pad := 0
	if f.body.off >= 0 {
		pad = (8 - f.body.off%8) % 8
	}
	parts := make([][]byte, 0, len(data)+1)
	parts = append(parts, make([]byte, pad))
	for _, b := range data {
		parts = append(parts, b.ReadOnlyData())
	}
	buf := bytes.Join(parts, nil) // one copy, into memory not zeroed first
	d.DataHeader = f.header.in(buf, pad)
	d.AppMetadata = f.app.in(buf, pad)
	d.DataBody = f.body.in(buf, pad)
	return nil
}

// span is where a bytes field's value is in a message; off < 0: absent.
type span struct{ off, n int }

// in is the field's value in buf, where the message starts at pad; nil
// when absent. Its capacity ends with it.
func (s span) in(buf []byte, pad int) []byte {
	if s.off < 0 {
		return nil
	}
	from := pad + s.off
	return buf[from : from+s.n : from+s.n]
}

// flightFields are the fields of a FlightData message that clientCodec
// reads.
type flightFields struct{ header, app, body span }

// scan finds the fields of the message in data; false if it holds any
// other field or is malformed. A field given twice is read as its last
// value, as proto does.
func (f *flightFields) scan(data mem.BufferSlice) bool {
	f.header, f.app, f.body = span{off: -1}, span{off: -1}, span{off: -1}
	c := cursor{data: data, left: data.Len()}
	for c.left > 0 {
		tag, ok := c.varint()
		if !ok {
			return false
		}
		n, ok := c.varint()
		if !ok || n > uint64(c.left) {
			return false
		}
		s := span{off: c.off, n: int(n)}
		switch tag {
		case tagDataHeader:
			f.header = s
		case tagAppMetadata:
			f.app = s
		case tagDataBody:
			f.body = s
		default: // a descriptor, another wire type, a field unknown here
			return false
		}
		c.skip(int(n))
	}
	return true
}

// cursor reads a BufferSlice's bytes in order without copying it whole.
type cursor struct {
	data mem.BufferSlice
	i, j int // buffer, and byte in it
	off  int // bytes read
	left int // bytes not read
}

func (c *cursor) byte() byte {
	for c.j >= c.data[c.i].Len() {
		c.i, c.j = c.i+1, 0
	}
	b := c.data[c.i].ReadOnlyData()[c.j]
	c.j++
	c.off++
	c.left--
	return b
}

// varint reads a varint of at most 10 bytes; false if the data ends first
// or it is longer.
func (c *cursor) varint() (uint64, bool) {
	var buf [binary.MaxVarintLen64]byte
	for k := range buf {
		if c.left == 0 {
			return 0, false
		}
		buf[k] = c.byte()
		if buf[k] < 0x80 {
			v, n := binary.Uvarint(buf[:k+1])
			return v, n > 0
		}
	}
	return 0, false
}

func (c *cursor) skip(n int) {
	c.off += n
	c.left -= n
	for n > 0 {
		r := c.data[c.i].Len() - c.j
		if n < r {
			c.j += n
			return
		}
		n -= r
		c.i, c.j = c.i+1, 0
	}
}
