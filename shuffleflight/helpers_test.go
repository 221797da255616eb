package shuffleflight_test

import (
	"context"
	"fmt"
	"math/rand"
	"net"
	"os"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
)

// checkedMem is a checked allocator that must be back to zero when the
// test ends (after the server has stopped: registered first, it runs last).
func checkedMem(t *testing.T) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// fixture is a shuffle written to a temporary dir.
type fixture struct {
	dir    string
	id     int
	schema *arrow.Schema
	parts  int
	set    *sparkshuffle.Set
}

// writeRandomShuffle writes shuffle id of maps map outputs of a random
// nested schema, rows spread over parts partitions (some left empty),
// with the given codec and checksum algorithm.
func writeRandomShuffle(t *testing.T, mem memory.Allocator, seed int64, id, maps, parts int, codec framing.Codec, alg sparkshuffle.Algorithm) *fixture {
	t.Helper()
	r := rand.New(rand.NewSource(seed))
	fx := &fixture{dir: t.TempDir(), id: id, schema: testgen.RandomSchema(r), parts: parts}
	for m := range maps {
		w, err := sparkshuffle.NewMapOutputWriter(fx.dir, id, int64(100+m*7), parts, fx.schema,
			sparkshuffle.WithWriteCodec(codec), sparkshuffle.WithWriteChecksum(alg), sparkshuffle.WithSpillRows(int64(r.Intn(200))))
		require.NoError(t, err)
		for range 1 + r.Intn(3) {
			n := r.Intn(400)
			b := testgen.RandomBatch(mem, r, fx.schema, n)
			ps := make([]int32, n)
			for i := range ps {
				ps[i] = int32(r.Intn(parts))
				if ps[i] == int32(parts-1) { // the last partition stays empty
					ps[i] = 0
				}
			}
			require.NoError(t, w.Write(b, ps))
			b.Release()
		}
		require.NoError(t, w.Close())
	}
	fx.open(t)
	return fx
}

func (fx *fixture) open(t *testing.T) {
	t.Helper()
	set, err := sparkshuffle.Open(fx.dir)
	require.NoError(t, err)
	fx.set = set
}

// local reads partition p as rowbridge shuffle decode --partition p does:
// a Reader of that partition, batches concatenated.
func (fx *fixture) local(t *testing.T, mem memory.Allocator, p int) arrow.RecordBatch {
	t.Helper()
	r, err := fx.set.NewReader(fx.id, fx.schema, sparkshuffle.WithPartition(p), sparkshuffle.WithAllocator(mem))
	require.NoError(t, err)
	defer r.Release()
	var recs []arrow.RecordBatch
	for r.Next() {
		rec := r.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	require.NoError(t, r.Err())
	rec, err := concat(mem, fx.schema, recs)
	require.NoError(t, err)
	return rec
}

// concat makes one batch of recs and releases them.
func concat(mem memory.Allocator, schema *arrow.Schema, recs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	cols := make([]arrow.Array, schema.NumFields())
	var n int64
	for _, r := range recs {
		n += r.NumRows()
	}
	for i := range cols {
		parts := make([]arrow.Array, len(recs))
		for j, r := range recs {
			parts[j] = r.Column(i)
		}
		if len(parts) == 0 {
			cols[i] = array.MakeArrayOfNull(mem, schema.Field(i).Type, 0)
			continue
		}
		c, err := array.Concatenate(parts, mem)
		if err != nil {
			for _, c := range cols[:i] {
				c.Release()
			}
			return nil, err
		}
		cols[i] = c
	}
	rec := array.NewRecordBatch(schema, cols, n)
	for _, c := range cols {
		c.Release()
	}
	return rec, nil
}

// serve starts srv on a loopback port; the server stops when the test
// ends (before the allocator check). It returns the address.
func serve(t *testing.T, srv *shuffleflight.Server) string {
	t.Helper()
	addr, stop := serveStoppable(t, srv, 5*time.Second)
	t.Cleanup(func() { require.NoError(t, stop()) })
	return addr
}

// serveStoppable starts srv and returns its address and the function that
// stops it (gracefully, within grace) and returns Serve's result.
func serveStoppable(t *testing.T, srv *shuffleflight.Server, grace time.Duration, opts ...grpc.ServerOption) (string, func() error) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, grace, opts...) }()
	stopped := false
	var result error
	return lis.Addr().String(), func() error {
		if !stopped {
			cancel()
			result, stopped = <-done, true
		}
		return result
	}
}

// newServer makes a Server of fx's shuffle with the test's allocator,
// sending batch bodies as the batches' memory as it does without one (so
// that the allocator's checks cover what that keeps and frees).
func newServer(t *testing.T, fx *fixture, mem memory.Allocator, opts ...shuffleflight.Option) *shuffleflight.Server {
	t.Helper()
	srv, err := shuffleflight.New(fx.set, map[int]*arrow.Schema{fx.id: fx.schema},
		append([]shuffleflight.Option{shuffleflight.WithAllocator(mem), shuffleflight.WithAliasedBodies()}, opts...)...)
	require.NoError(t, err)
	return srv
}

// smallWindows keep gRPC's flow-control windows at 64 KiB (no growth by
// bandwidth estimation), so that a stream of a few MiB is still running on
// the server while its client waits.
var smallWindows = []grpc.ServerOption{grpc.InitialWindowSize(64 << 10), grpc.InitialConnWindowSize(64 << 10)}

// dial returns a Flight client of addr, closed when the test ends.
func dial(t *testing.T, addr string, opts ...grpc.DialOption) flight.Client {
	t.Helper()
	c, err := flight.NewClientWithMiddleware(addr, nil, nil, append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// withToken adds the bearer token to ctx's outgoing metadata.
func withToken(ctx context.Context, token string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
}

// info gets the FlightInfo of shuffle id.
func info(ctx context.Context, t *testing.T, c flight.Client, id int) *flight.FlightInfo {
	t.Helper()
	fi, err := c.GetFlightInfo(ctx, shuffleflight.Descriptor(id))
	require.NoError(t, err)
	return fi
}

// fetch reads one ticket's stream into one batch; every batch received
// passes ValidateFull. It returns the batch and how many batches came.
func fetch(ctx context.Context, c flight.Client, mem memory.Allocator, schema *arrow.Schema, ticket *flight.Ticket) (arrow.RecordBatch, int, error) {
	stream, err := c.DoGet(ctx, ticket)
	if err != nil {
		return nil, 0, err
	}
	rdr, err := flight.NewRecordReader(stream, ipc.WithAllocator(mem))
	if err != nil {
		return nil, 0, err
	}
	defer rdr.Release()
	if !rdr.Schema().Equal(schema) {
		return nil, 0, fmt.Errorf("schema %v, want %v", rdr.Schema(), schema)
	}
	var recs []arrow.RecordBatch
	release := func() {
		for _, r := range recs {
			r.Release()
		}
	}
	for rdr.Next() {
		rec := rdr.RecordBatch()
		for _, col := range rec.Columns() {
			d := withNullBuffers(col.Data())
			a := array.MakeFromData(d)
			err := array.ValidateFull(a)
			a.Release()
			d.Release()
			if err != nil {
				release()
				return nil, 0, err
			}
		}
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := rdr.Err(); err != nil {
		release()
		return nil, 0, err
	}
	n := len(recs)
	rec, err := concat(mem, schema, recs)
	return rec, n, err
}

// withNullBuffers gives Null nodes the one buffer of their layout:
// arrow-go's IPC reader builds Null arrays with none, which
// array.ValidateFull refuses (see interop/ipc_test.go).
func withNullBuffers(d arrow.ArrayData) arrow.ArrayData {
	if d.DataType().ID() == arrow.NULL && len(d.Buffers()) == 0 {
		return array.NewData(arrow.Null, d.Len(), []*memory.Buffer{nil}, nil, d.Len(), d.Offset())
	}
	children := make([]arrow.ArrayData, len(d.Children()))
	for i, c := range d.Children() {
		children[i] = withNullBuffers(c)
	}
	out := array.NewData(d.DataType(), d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	for _, c := range children {
		c.Release()
	}
	return out
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

func writeFileBytes(t *testing.T, path string, b []byte) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, b, 0o644))
}
