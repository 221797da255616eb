package shuffleflight_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// With no WithAllocator, the DoGets of a Server share its recycling
// allocator and read buffers, whose memory is handed out again without
// being zeroed: partitions read again and again, whole and in slices (a
// small max message splits the batches), still come back exactly, to a
// client of grpc's codec and to one of DialOptions (whose codec reads
// the messages with one copy).
func TestRecycledMemoryPartitionsExact(t *testing.T) {
	for seed := range int64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			mem := checkedMem(t)
			fx := writeRandomShuffle(t, mem, 100+seed, 1, 3, 4, framing.LZ4, sparkshuffle.Adler32)
			srv, err := shuffleflight.New(fx.set, map[int]*arrow.Schema{fx.id: fx.schema},
				shuffleflight.WithReadOptions(sparkshuffle.WithBatchRows(70)), shuffleflight.WithMaxMessageSize(64<<10))
			require.NoError(t, err)
			addr := serve(t, srv)
			clients := []flight.Client{dial(t, addr), dial(t, addr, shuffleflight.DialOptions(64<<10)...)}
			ctx := context.Background()
			fi := info(ctx, t, clients[0], fx.id)
			want := make([]arrow.RecordBatch, fx.parts)
			for p := range want {
				want[p] = fx.local(t, mem, p)
				defer want[p].Release()
			}
			for round := range 4 {
				for p, ep := range fi.GetEndpoint() {
					got, _, err := fetch(ctx, clients[round%2], memory.DefaultAllocator, fx.schema, ep.GetTicket())
					require.NoError(t, err, "round %d, partition %d", round, p)
					testgen.EqualBatches(t, want[p], got)
					got.Release()
				}
			}
		})
	}
}

// NewRecordReader, on a client of DialOptions, gives the same batches as
// arrow-go's reader, and each message's body back to the client's pool
// once its batches are released: reading the shuffle again takes its
// bodies from there (the idle memory does not grow).
func TestNewRecordReaderRecyclesBodies(t *testing.T) {
	mem := checkedMem(t)
	fx := writeRandomShuffle(t, mem, 7, 1, 3, 3, framing.LZ4, sparkshuffle.Adler32)
	addr := serve(t, newServer(t, fx, mem, shuffleflight.WithReadOptions(sparkshuffle.WithBatchRows(40))))
	c := dial(t, addr, shuffleflight.DialOptions(shuffleflight.DefaultMaxMessageSize)...)
	ctx := context.Background()
	fi := info(ctx, t, c, fx.id)
	read := func() {
		for p, ep := range fi.GetEndpoint() {
			want := fx.local(t, mem, p)
			stream, err := c.DoGet(ctx, ep.GetTicket())
			require.NoError(t, err)
			r, err := shuffleflight.NewRecordReader(stream, ipc.WithAllocator(mem))
			require.NoError(t, err)
			require.True(t, r.Schema().Equal(fx.schema))
			var n int64
			for r.Next() {
				rec := r.RecordBatch()
				part := want.NewSlice(n, n+rec.NumRows())
				testgen.EqualBatches(t, part, rec)
				part.Release()
				n += rec.NumRows()
			}
			require.NoError(t, r.Err())
			r.Release()
			require.Equal(t, want.NumRows(), n, "partition %d", p)
			want.Release()
		}
	}
	read()
	idle := shuffleflight.ClientBodiesIdle()
	require.Positive(t, idle, "no body came back")
	read()
	require.Equal(t, idle, shuffleflight.ClientBodiesIdle(), "the second read took fresh memory")
}
