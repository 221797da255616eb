package shuffleflight

import (
	"encoding/binary"
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
)

// flightCodec is the gRPC codec of a Server: grpc's proto codec, except
// that a FlightData without a descriptor (what DoGet sends) is written
// straight into one buffer of a pool that does not zero what it hands
// out (grpc's pool clears every buffer, which for 4 MiB messages costs as
// much as the copy). The bytes are those proto.Marshal writes: fields in
// number order, empty ones left out, so any Flight client reads them.
type flightCodec struct {
	proto encoding.CodecV2
}

func newFlightCodec() flightCodec {
	return flightCodec{proto: encoding.GetCodecV2(proto.Name)}
}

// Name is the proto codec's: the content subtype stays "proto".
func (flightCodec) Name() string { return proto.Name }

func (c flightCodec) Unmarshal(data mem.BufferSlice, v any) error {
	return c.proto.Unmarshal(data, v)
}

// Field tags (number << 3 | wire type 2, varint) of FlightData.
const (
	tagDataHeader  = 2<<3 | 2
	tagAppMetadata = 3<<3 | 2
	tagDataBody    = 1000<<3 | 2
)

func (c flightCodec) Marshal(v any) (mem.BufferSlice, error) {
	if m, ok := v.(*directMessage); ok { // a DoGet's batch, as its buffers
		return m.data, nil
	}
	d, ok := v.(*flight.FlightData)
	if !ok || d.FlightDescriptor != nil {
		return c.proto.Marshal(v)
	}
	if buf, ok := takeLaidOut(d); ok { // a DoGet's message, its bytes written already
		return mem.BufferSlice{mem.NewBuffer(buf, messagePool)}, nil
	}
	size := fieldSize(tagDataHeader, d.DataHeader) + fieldSize(tagAppMetadata, d.AppMetadata) + fieldSize(tagDataBody, d.DataBody)
	buf := messagePool.Get(size)
	b := appendField((*buf)[:0], tagDataHeader, d.DataHeader)
	b = appendField(b, tagAppMetadata, d.AppMetadata)
	b = appendField(b, tagDataBody, d.DataBody)
	*buf = b
	return mem.BufferSlice{mem.NewBuffer(buf, messagePool)}, nil
}

func varintSize(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }

func fieldSize(tag uint64, p []byte) int { return fieldSizeN(tag, len(p)) }

// fieldSizeN is the size of a bytes field of n bytes (none when empty).
func fieldSizeN(tag uint64, n int) int {
	if n == 0 {
		return 0
	}
	return varintSize(tag) + varintSize(uint64(n)) + n
}

func appendField(b []byte, tag uint64, p []byte) []byte {
	if len(p) == 0 {
		return b
	}
	return append(appendFieldHead(b, tag, len(p)), p...)
}

// appendFieldHead appends the tag and length of a bytes field of n bytes.
func appendFieldHead(b []byte, tag uint64, n int) []byte {
	b = binary.AppendUvarint(b, tag)
	return binary.AppendUvarint(b, uint64(n))
}

// messagePool hands out buffers of power-of-two capacities, not zeroed.
var messagePool = &bytePool{}

// poolClasses: capacities 2^minPoolShift .. 2^(minPoolShift+poolClasses-1).
const (
	minPoolShift = 10
	poolClasses  = 17 // up to 64 MiB
)

type bytePool struct {
	classes [poolClasses]sync.Pool
}

// Get returns a buffer of length n (not zeroed).
func (p *bytePool) Get(n int) *[]byte {
	shift := max(bits.Len(uint(max(n, 1)-1)), minPoolShift)
	if shift-minPoolShift >= poolClasses {
		b := make([]byte, n)
		return &b
	}
	if b, ok := p.classes[shift-minPoolShift].Get().(*[]byte); ok {
		*b = (*b)[:n]
		return b
	}
	b := make([]byte, n, 1<<shift)
	return &b
}

// Put keeps a buffer of one of the pool's capacities.
func (p *bytePool) Put(b *[]byte) {
	c := cap(*b)
	shift := bits.Len(uint(c)) - 1
	if c == 0 || c != 1<<shift || shift < minPoolShift || shift-minPoolShift >= poolClasses {
		return
	}
	p.classes[shift-minPoolShift].Put(b)
}
