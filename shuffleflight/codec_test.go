package shuffleflight

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
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

// captureStream is a DoGet stream that keeps the bytes each message sent
// is marshalled to, by codec.
type captureStream struct {
	flight.FlightService_DoGetServer
	codec encoding.CodecV2
	got   [][]byte
}

func (c *captureStream) Send(d *flight.FlightData) error { return c.SendMsg(d) }

func (c *captureStream) SendMsg(m any) error {
	b, err := c.codec.Marshal(m)
	if err != nil {
		return err
	}
	c.got = append(c.got, b.Materialize())
	b.Free()
	return nil
}

// A DoGet's messageWriter sends the bytes arrow-go's Flight writer and
// grpc's proto codec send, through the Server's codec (which takes the
// buffers it laid out) and through the proto codec (the buffers go back
// to the pool), for whole batches and slices of them; and so does one
// that sends the bodies as the batches' memory (direct), which keeps each
// batch until its buffers are freed, then releases it.
func TestMessageWriterMatchesFlightWriter(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewSource(3))
	schema := testgen.RandomSchema(r)
	rec := testgen.RandomBatch(mem, r, schema, 300)
	defer rec.Release()
	write := func(mw *messageWriter) {
		w := ipc.NewWriterWithPayloadWriter(mw, ipc.WithSchema(schema), ipc.WithAllocator(mem))
		mw.rec = rec
		require.NoError(t, w.Write(rec))
		part := rec.NewSlice(37, 211)
		mw.rec = part
		require.NoError(t, w.Write(part))
		part.Release()
		mw.rec = nil
		require.NoError(t, w.Close())
	}
	protoCodec := encoding.GetCodecV2(proto.Name)
	want := &captureStream{codec: protoCodec}
	fw := flight.NewRecordWriter(want)
	require.NoError(t, fw.Write(rec)) // the schema message, then the batch
	part := rec.NewSlice(37, 211)
	require.NoError(t, fw.Write(part))
	part.Release()
	require.NoError(t, fw.Close())
	require.Len(t, want.got, 3)
	big := testgen.RandomBatch(mem, r, schema, 5000) // pieces over aliasMin
	for name, codec := range map[string]encoding.CodecV2{"server codec": newFlightCodec(), "proto codec": protoCodec, "direct": newFlightCodec()} {
		got := &captureStream{codec: codec}
		mw := &messageWriter{stream: got, direct: name == "direct"}
		write(mw)
		require.Equal(t, want.got, got.got, name)
		require.Equal(t, int64(2), mw.batches, name)
		pending.Range(func(k, _ any) bool { t.Errorf("%s: a message left pending", name); return true })
	}
	// A big batch, sent direct, held until its message is freed.
	want.got = nil
	fw = flight.NewRecordWriter(want)
	require.NoError(t, fw.Write(big))
	require.NoError(t, fw.Close())
	held := &holdStream{codec: newFlightCodec()}
	mw := &messageWriter{stream: held, direct: true}
	w := ipc.NewWriterWithPayloadWriter(mw, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	mw.rec = big
	require.NoError(t, w.Write(big))
	require.NoError(t, w.Close())
	require.Len(t, held.got, 2)
	require.GreaterOrEqual(t, len(held.got[1]), 2, "the batch went as one buffer: nothing aliased")
	require.Equal(t, want.got[1], held.got[1].Materialize())
	big.Release() // the message still holds it
	holding := mem.CurrentAlloc()
	for _, b := range held.got {
		b.Free()
	}
	require.Less(t, mem.CurrentAlloc(), holding, "freeing the message did not release the batch")
}

// holdStream keeps what each message is marshalled to, not freed.
type holdStream struct {
	flight.FlightService_DoGetServer
	codec encoding.CodecV2
	got   []mem.BufferSlice
}

func (h *holdStream) Send(d *flight.FlightData) error { return h.SendMsg(d) }

func (h *holdStream) SendMsg(m any) error {
	b, err := h.codec.Marshal(m)
	h.got = append(h.got, b)
	return err
}

// The Server's codec encodes a laid-out message changed after it was laid
// out (by an interceptor, say) as it is now.
func TestLaidOutMessageChangedIsEncodedAsIs(t *testing.T) {
	var got captureStream
	got.codec = newFlightCodec()
	grab := &grabStream{captureStream: &got, change: func(d *flight.FlightData) { d.AppMetadata = []byte("late") }}
	mw := &messageWriter{stream: grab}
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil)
	w := ipc.NewWriterWithPayloadWriter(mw, ipc.WithSchema(schema))
	require.NoError(t, w.Close())
	require.Len(t, got.got, 1)
	var back flight.FlightData
	require.NoError(t, gproto.Unmarshal(got.got[0], &back))
	require.Equal(t, []byte("late"), back.AppMetadata)
	require.NotEmpty(t, back.DataHeader)
}

type grabStream struct {
	*captureStream
	change func(*flight.FlightData)
}

func (g *grabStream) Send(d *flight.FlightData) error {
	g.change(d)
	return g.captureStream.Send(d)
}

// A laid-out message whose fields were replaced by longer ones is
// encoded as it is now, not read out of the buffer's bounds.
func TestLaidOutMessageGrownIsEncodedAsIs(t *testing.T) {
	for name, change := range map[string]func(*flight.FlightData){
		"header": func(d *flight.FlightData) { d.DataHeader = bytes.Repeat([]byte{3}, 5000) },
		"body":   func(d *flight.FlightData) { d.DataBody = bytes.Repeat([]byte{4}, 5000) },
	} {
		var got captureStream
		got.codec = newFlightCodec()
		mw := &messageWriter{stream: &grabStream{captureStream: &got, change: change}}
		schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil)
		w := ipc.NewWriterWithPayloadWriter(mw, ipc.WithSchema(schema))
		require.NoError(t, w.Close(), name)
		require.Len(t, got.got, 1, name)
		var back flight.FlightData
		require.NoError(t, gproto.Unmarshal(got.got[0], &back), name)
		require.True(t, len(back.DataHeader) == 5000 || len(back.DataBody) == 5000, name)
	}
}
