package shuffleflight

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/stretchr/testify/require"
	gproto "google.golang.org/protobuf/proto"
)

// The codec writes a FlightData exactly as proto.Marshal does, and reads
// back what it wrote.
func TestFlightCodecMatchesProto(t *testing.T) {
	c := newFlightCodec()
	big := bytes.Repeat([]byte{7, 1, 9}, 300_000)
	cases := map[string]*flight.FlightData{
		"empty":        {},
		"header only":  {DataHeader: []byte{1, 2, 3}},
		"header, body": {DataHeader: bytes.Repeat([]byte{5}, 200), DataBody: big},
		"all fields":   {DataHeader: []byte{9}, AppMetadata: []byte("meta"), DataBody: big[:130]},
		"descriptor":   {FlightDescriptor: Descriptor(3), DataHeader: []byte{4}, DataBody: []byte{5, 6}},
	}
	for name, d := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := gproto.Marshal(d)
			require.NoError(t, err)
			got, err := c.Marshal(d)
			require.NoError(t, err)
			require.True(t, bytes.Equal(want, got.Materialize()), "codec bytes differ from proto.Marshal")
			var back flight.FlightData
			require.NoError(t, c.Unmarshal(got, &back))
			got.Free()
			require.True(t, gproto.Equal(d, &back))
		})
	}
}

func TestBytePoolSizes(t *testing.T) {
	for _, n := range []int{0, 1, 1023, 1024, 1025, 4 << 20, (4 << 20) + 1} {
		b := messagePool.Get(n)
		require.Len(t, *b, n)
		require.GreaterOrEqual(t, cap(*b), n)
		require.Less(t, cap(*b), 2*max(n, 1024)+1)
		messagePool.Put(b)
	}
}
