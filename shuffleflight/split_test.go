package shuffleflight_test

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A partition decoded into batches far above 4 MiB reaches a client that
// keeps grpc's default 4 MiB receive limit: the server splits them by
// bytes. With a lower limit on both sides, the batches get smaller still;
// a client below the server's limit is refused the large messages, which
// shows the limit is real.
func TestBatchesSplitUnderMessageLimit(t *testing.T) {
	mem := checkedMem(t)
	// One map, partition 0: 8000 rows of about 1.5 KiB, ~11 MiB of IPC body.
	fx := writeBigShuffle(t, mem, 3, 1, 2, 16000, 1500, framing.LZ4)
	want := wants(t, fx, mem)
	ctx := context.Background()
	bigBatches := shuffleflight.WithReadOptions(sparkshuffle.WithBatchRows(1 << 20))

	addr := serve(t, newServer(t, fx, mem, bigBatches))
	c := dial(t, addr)
	fi := info(ctx, t, c, fx.id)
	got, batches, err := fetch(ctx, c, mem, fx.schema, fi.GetEndpoint()[0].GetTicket())
	require.NoError(t, err)
	testgen.EqualBatches(t, want[0], got)
	got.Release()
	require.GreaterOrEqual(t, batches, 3, "11 MiB in batches under 4 MiB")

	small := dial(t, addr, grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<10)))
	_, _, err = fetch(ctx, small, mem, fx.schema, fi.GetEndpoint()[0].GetTicket())
	require.Equal(t, codes.ResourceExhausted, status.Code(err), "a 256 KiB client, a 4 MiB server: %v", err)

	addr = serve(t, newServer(t, fx, mem, bigBatches, shuffleflight.WithMaxMessageSize(256<<10)))
	small = dial(t, addr, grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<10)))
	got, batches, err = fetch(ctx, small, mem, fx.schema, fi.GetEndpoint()[0].GetTicket())
	require.NoError(t, err)
	testgen.EqualBatches(t, want[0], got)
	got.Release()
	require.GreaterOrEqual(t, batches, 42)
}

// A single row too large for a message fails the call with
// ResourceExhausted naming the row and the limit, after the rows before it.
func TestRowOverMessageLimit(t *testing.T) {
	mem := checkedMem(t)
	fx := writeBigShuffle(t, mem, 3, 1, 1, 4, 100<<10, framing.None)
	c := dial(t, serve(t, newServer(t, fx, mem, shuffleflight.WithMaxMessageSize(64<<10))))
	ctx := context.Background()
	fi := info(ctx, t, c, fx.id)
	_, _, err := fetch(ctx, c, mem, fx.schema, fi.GetEndpoint()[0].GetTicket())
	require.Equal(t, codes.ResourceExhausted, status.Code(err), "%v", err)
	msg := status.Convert(err).Message()
	require.True(t, strings.HasPrefix(msg, "partition 0, row 1: "), msg) // row 0's string is null
	require.Contains(t, msg, "max message size 65536")
}

// rowsBytes never underestimates what the IPC writer sends for a slice of
// a batch, for random nested batches and slices of them.
func TestRowsBytesCoversIPCBody(t *testing.T) {
	mem := checkedMem(t)
	for seed := range int64(30) {
		fx := writeRandomShuffle(t, mem, seed, 1, 1, 2, framing.None, sparkshuffle.NoChecksum)
		rec := fx.local(t, mem, 0)
		n := rec.NumRows()
		for _, r := range [][2]int64{{0, n}, {0, n / 2}, {n / 3, n}, {n / 4, n / 2}, {n / 2, n/2 + 1}} {
			if r[1] > n || r[0] > r[1] {
				continue
			}
			s := rec.NewSlice(r[0], r[1])
			body := ipcBody(t, mem, s)
			est := shuffleflight.RowsBytes(rec.Columns(), r[0], r[1]-r[0])
			require.GreaterOrEqual(t, est, body, "seed %d rows %v of %v", seed, r, rec.Schema())
			require.LessOrEqual(t, est, 2*body+6400, "seed %d rows %v: estimate far too high", seed, r)
			s.Release()
		}
		rec.Release()
	}
}

// ipcBody is the body size of rec as one IPC record batch message.
func ipcBody(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch) int64 {
	t.Helper()
	var w bodyCounter
	iw := ipcWriter(&w, rec.Schema(), mem)
	require.NoError(t, iw.Write(rec))
	require.NoError(t, iw.Close())
	return w.last
}

// bodyCounter is an ipc.PayloadWriter that keeps the size of the last
// message's body (and of its metadata).
type bodyCounter struct{ last, meta int64 }

func (b *bodyCounter) Start() error { return nil }
func (b *bodyCounter) Close() error { return nil }
func (b *bodyCounter) WritePayload(p ipc.Payload) error {
	var n countWriter
	if err := p.SerializeBody(&n); err != nil {
		return err
	}
	m := p.Meta()
	b.last, b.meta = int64(n), int64(m.Len())
	m.Release()
	return nil
}

type countWriter int64

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

func ipcWriter(w ipc.PayloadWriter, schema *arrow.Schema, mem memory.Allocator) *ipc.Writer {
	return ipc.NewWriterWithPayloadWriter(w, ipc.WithSchema(schema), ipc.WithAllocator(mem))
}
