package shuffleflight

import (
	"bytes"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	gproto "google.golang.org/protobuf/proto"
)

// pieces cuts b into a BufferSlice of random lengths, as the transport's
// frames bring a message.
func pieces(r *rand.Rand, b []byte) mem.BufferSlice {
	var out mem.BufferSlice
	for len(b) > 0 {
		n := min(len(b), 1+r.Intn(40))
		if r.Intn(8) == 0 {
			out = append(out, mem.SliceBuffer(nil)) // an empty piece
		}
		out = append(out, mem.SliceBuffer(bytes.Clone(b[:n])))
		b = b[n:]
	}
	return out
}

// The client codec reads every FlightData as proto.Unmarshal does, from
// any cut of its bytes, the header's and metadata's capacity ending with
// them; messages with
// other fields, and malformed ones, go through proto (its result, its
// error).
func TestClientCodecMatchesProto(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	c := newClientCodec()
	body := make([]byte, 5000)
	r.Read(body)
	withUnknown := protowire.AppendTag(nil, 7, protowire.BytesType)
	withUnknown = protowire.AppendBytes(withUnknown, []byte("x"))
	cases := map[string][]byte{}
	for name, d := range map[string]*flight.FlightData{
		"empty":         {},
		"header only":   {DataHeader: []byte{1, 2, 3}},
		"header, body":  {DataHeader: bytes.Repeat([]byte{5}, 201), DataBody: body},
		"all fields":    {DataHeader: []byte{9}, AppMetadata: []byte("meta"), DataBody: body[:131]},
		"metadata only": {AppMetadata: []byte("m")},
		"descriptor":    {FlightDescriptor: Descriptor(3), DataHeader: []byte{4}, DataBody: []byte{5, 6}},
	} {
		b, err := gproto.Marshal(d)
		require.NoError(t, err)
		cases[name] = b
	}
	cases["unknown field"] = append(bytes.Clone(cases["header, body"]), withUnknown...)
	cases["field twice"] = append(bytes.Clone(cases["all fields"]), cases["header only"]...)
	cases["truncated"] = cases["header, body"][:300]
	cases["bad varint"] = []byte{0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			var want flight.FlightData
			werr := gproto.Unmarshal(b, &want)
			for range 20 {
				var got flight.FlightData
				got.DataHeader = []byte("stale")
				err := c.Unmarshal(pieces(r, b), &got)
				if werr != nil {
					require.Error(t, err)
					continue
				}
				require.NoError(t, err)
				require.True(t, gproto.Equal(&want, &got), "%v\n%v", &want, &got)
				var f flightFields
				if f.scan(mem.BufferSlice{mem.SliceBuffer(b)}) { // read here, not by proto
					for _, f := range [][]byte{got.DataHeader, got.AppMetadata} {
						require.Equal(t, len(f), cap(f))
					}
				}
			}
		})
	}
}

// The body is 64-byte aligned in memory, wherever the header's length
// puts it in the message.
func TestClientCodecAlignsBody(t *testing.T) {
	c := newClientCodec()
	r := rand.New(rand.NewSource(6))
	for n := 1; n < 40; n++ {
		b, err := gproto.Marshal(&flight.FlightData{DataHeader: bytes.Repeat([]byte{1}, n), DataBody: []byte{1, 2, 3, 4, 5, 6, 7, 8}})
		require.NoError(t, err)
		var got flight.FlightData
		require.NoError(t, c.Unmarshal(pieces(r, b), &got))
		require.Zero(t, uintptr(unsafe.Pointer(&got.DataBody[0]))%64, "header of %d bytes", n)
		require.Equal(t, []byte{1, 2, 3, 4, 5, 6, 7, 8}, got.DataBody)
	}
}
