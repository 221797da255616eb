package shuffleflight

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/arrowvec"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
)

// clientCodec is the gRPC codec of DialOptions: grpc's proto codec, except
// that a FlightData (what DoGet receives) is read with one copy. grpc's
// codec copies the message's pieces (as the transport's frames brought
// them) into one zeroed buffer, and proto.Unmarshal copies the fields out
// of it again; here each field is copied once from the pieces, the body
// into a buffer of clientBodies (64-byte aligned, recycled once the
// batches read from it are released: see NewRecordReader). Any other
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
	d.DataHeader = f.header.copyOut(data, nil)
	d.AppMetadata = f.app.copyOut(data, nil)
	d.DataBody = f.body.copyOut(data, clientBodies)
	return nil
}

// clientBodies holds the bodies of the FlightData messages clientCodec
// reads. A body whose batches are released (NewRecordReader's) comes
// back here; one dropped otherwise goes to the garbage collector.
var clientBodies = arrowvec.NewRecyclingAllocator(64 << 20)

// span is where a bytes field's value is in a message; off < 0: absent.
type span struct{ off, n int }

// copyOut copies the field's value out of data, into memory from alloc
// (nil: the Go heap); nil when absent.
func (s span) copyOut(data mem.BufferSlice, alloc memory.Allocator) []byte {
	switch {
	case s.off < 0:
		return nil
	case s.n == 0:
		return []byte{}
	}
	var out []byte
	if alloc != nil {
		out = alloc.Allocate(s.n)
	} else {
		out = make([]byte, s.n)
	}
	dst, off := out, s.off
	for _, b := range data {
		p := b.ReadOnlyData()
		if off >= len(p) {
			off -= len(p)
			continue
		}
		n := copy(dst, p[off:])
		dst, off = dst[n:], 0
		if len(dst) == 0 {
			break
		}
	}
	return out
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
