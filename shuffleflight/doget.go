package shuffleflight

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// DoGet streams the rows of the ticket's partition: the rows a
// sparkshuffle Reader of that partition gives, in its order, in batches
// whose messages stay within the max message size. A segment that fails
// its checksum or cannot be decoded ends the stream with DataLoss (a
// missing file with NotFound), the message naming the file.
func (s *Server) DoGet(t *flight.Ticket, stream flight.FlightService_DoGetServer) error {
	shuffle, partition, err := decodeTicket(t.GetTicket())
	if err != nil {
		return err
	}
	sv, err := s.lookup(shuffle)
	if err != nil {
		return err
	}
	if partition >= sv.sh.Partitions {
		return status.Errorf(codes.InvalidArgument, "invalid ticket: shuffle %d has %s, not partition %d", shuffle, partitionRange(sv.sh.Partitions), partition)
	}
	ctx := stream.Context()
	call := callOf(ctx)
	call.add(slog.Int("shuffle", shuffle), slog.Int("partition", partition))

	// The cores are shared among the calls running at once (a client
	// that reads partitions in turn starts the next call as it reads one):
	// more decoding goroutines than cores only add hand-offs. A
	// WithWorkers of WithReadOptions, after this, overrides it.
	running := s.running.Add(1)
	defer s.running.Add(-1)
	workers := max(1, runtime.GOMAXPROCS(0)/int(running))
	opts := append([]sparkshuffle.Option{sparkshuffle.WithWorkers(workers)}, s.cfg.read...)
	opts = append(opts, sparkshuffle.WithPartition(partition), sparkshuffle.WithAllocator(s.mem), sparkshuffle.WithBuffers(s.bufs))
	r, err := sv.sh.NewReader(sv.schema, opts...)
	if err != nil {
		return status.Error(codes.Internal, err.Error())
	}
	defer r.Release()

	sent := &messageWriter{stream: stream, direct: isDirect(ctx) && (s.cfg.mem == nil || s.cfg.aliasAny)}
	// The IPC writer's allocator must zero what it hands out (the writer
	// copies a sliced array's bitmap into a fresh buffer and counts on the
	// bits it does not write being zero): never the recycling one of the
	// batches (TestRecycledMemoryPartitionsExact).
	wmem := memory.Allocator(memory.DefaultAllocator)
	if s.cfg.mem != nil {
		wmem = s.cfg.mem
	}
	w := ipc.NewWriterWithPayloadWriter(sent, ipc.WithSchema(sv.schema), ipc.WithAllocator(wmem))
	g := getter{w: w, mw: sent, budget: sv.budget, partition: partition, max: s.cfg.maxMessage}
	defer func() {
		call.add(slog.Int64("rows", g.rows), slog.Int64("batches", sent.batches), slog.Int64("bytes", sent.bytes))
	}()
	for r.Next() {
		if err := g.send(r.RecordBatch()); err != nil {
			w.Close()
			return streamError(ctx, err)
		}
	}
	if err := r.Err(); err != nil {
		w.Close()
		return readError(ctx, err)
	}
	if err := w.Close(); err != nil { // an empty partition sends its schema here
		return streamError(ctx, err)
	}
	return nil
}

// getter writes a partition's batches, split to fit the budget.
type getter struct {
	w         *ipc.Writer
	mw        *messageWriter // w's
	budget    int64
	partition int
	max       int
	rows      int64 // rows sent so far
}

// send writes rec, in row slices of at most budget bytes each.
func (g *getter) send(rec arrow.RecordBatch) error {
	n := rec.NumRows()
	size := rowsBytes(rec.Columns(), 0, n)
	if size <= g.budget {
		g.mw.rec = rec
		err := g.w.Write(rec)
		g.mw.rec = nil
		if err != nil {
			return err
		}
		g.rows += n
		return nil
	}
	if n == 1 {
		return status.Errorf(codes.ResourceExhausted, "partition %d, row %d: %d bytes in Arrow IPC, more than fits a message of the max message size %d: raise it (and the client's receive limit)", g.partition, g.rows, size, g.max)
	}
	pieces := min((size+g.budget-1)/g.budget, n)
	for i := range pieces {
		from, to := n*i/pieces, n*(i+1)/pieces
		part := rec.NewSlice(from, to)
		err := g.send(part)
		part.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// readError is the gRPC status of a Reader's failure: a corrupt segment
// is DataLoss, a vanished file NotFound; the message names the file.
func readError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return status.FromContextError(ctx.Err()).Err()
	}
	var ce *sparkshuffle.ChecksumError
	var se *sparkshuffle.SegmentError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return status.Error(codes.NotFound, err.Error())
	case errors.As(err, &ce), errors.As(err, &se):
		return status.Error(codes.DataLoss, err.Error())
	}
	return status.Error(codes.Internal, err.Error())
}

// streamError is the status of a failure to send: the client's
// cancellation, or a status already made.
func streamError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return status.FromContextError(ctx.Err()).Err()
	}
	if _, ok := status.FromError(err); ok {
		return err
	}
	return status.Error(codes.Internal, err.Error())
}

// partitionRange says which partitions a shuffle of n has, for messages.
func partitionRange(n int) string {
	switch n {
	case 0:
		return "no partitions"
	case 1:
		return "only partition 0"
	}
	return fmt.Sprintf("partitions 0-%d", n-1)
}
