package shuffleflight

import (
	"context"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/mem"
)

// A DoGet on a gRPC server made by GRPCServer (whose codec is the
// Server's) sends each batch's message as the buffers it is made of,
// without copying its body: the message's first bytes (the FlightData
// framing and the IPC metadata) and the small pieces of the body are
// copied into pooled buffers, the large pieces are the batch's own
// memory, kept (the batch retained) until gRPC has written them. gRPC
// copies them once into its write buffer, as it would any message.
//
// Only the Server's codec can send such a message (a directMessage, not
// a FlightData), so DoGet sends them only where the call came through
// GRPCServer's interceptor (directKey in its context), and only where
// the IPC writer's own buffers (a sliced array's bitmaps and offsets,
// written into fresh memory) are the garbage collector's, which keeps
// them while gRPC holds them: not with WithAllocator.

// aliasMin is the smallest body piece sent as the batch's own memory;
// smaller ones are copied (a buffer of the pool costs about that).
const aliasMin = 4 << 10

// directMessage is a message whose bytes are ready as buffers.
type directMessage struct{ data mem.BufferSlice }

// directKey marks the context of a Flight call on a server of GRPCServer.
type directKey struct{}

// directInterceptor marks the Flight service's streams of a server whose
// codec is the Server's.
func directInterceptor(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if !strings.HasPrefix(info.FullMethod, flightService) {
		return handler(srv, ss)
	}
	return handler(srv, &contextStream{ServerStream: ss, ctx: context.WithValue(ss.Context(), directKey{}, true)})
}

func isDirect(ctx context.Context) bool {
	v, _ := ctx.Value(directKey{}).(bool)
	return v
}

// heldBatch keeps a batch alive while gRPC holds buffers of its memory:
// it is those buffers' pool, and the last one freed releases the batch.
type heldBatch struct {
	rec  arrow.RecordBatch
	refs atomic.Int32
}

func (h *heldBatch) Get(int) *[]byte { panic("shuffleflight: heldBatch hands out no buffers") }

func (h *heldBatch) Put(*[]byte) {
	if h.refs.Add(-1) == 0 {
		h.rec.Release()
	}
}

// pieceRecorder keeps the slices an ipc.Payload's body is written as.
type pieceRecorder struct{ pieces [][]byte }

func (r *pieceRecorder) Write(p []byte) (int, error) {
	r.pieces = append(r.pieces, p)
	return len(p), nil
}

// sendDirect sends p, a message of batch rec with a body of size bytes
// whose metadata is header, as buffers (see above).
func (w *messageWriter) sendDirect(p ipc.Payload, header []byte, size int, rec arrow.RecordBatch) error {
	rr := pieceRecorder{pieces: w.pieces[:0]}
	if err := p.SerializeBody(&rr); err != nil {
		return err
	}
	w.pieces = rr.pieces[:0]
	data := make(mem.BufferSlice, 0, len(rr.pieces)+1)
	held := &heldBatch{rec: rec}
	var aliased int32
	// run: the bytes copied since the last aliased piece, framing first.
	run := messagePool.Get(fieldSize(tagDataHeader, header) + varintSize(tagDataBody) + varintSize(uint64(size)) + smallAfter(rr.pieces))
	b := appendField((*run)[:0], tagDataHeader, header)
	b = appendFieldHead(b, tagDataBody, size)
	for i, piece := range rr.pieces {
		if len(piece) < aliasMin {
			b = append(b, piece...)
			continue
		}
		if len(b) > 0 {
			*run = b
			data = append(data, mem.NewBuffer(run, messagePool))
		} else {
			messagePool.Put(run)
		}
		data = append(data, mem.NewBuffer(&piece, held)) // piece is this iteration's
		aliased++
		run = messagePool.Get(smallAfter(rr.pieces[i+1:]))
		b = (*run)[:0]
	}
	if len(b) > 0 {
		*run = b
		data = append(data, mem.NewBuffer(run, messagePool))
	} else {
		messagePool.Put(run)
	}
	if aliased > 0 {
		rec.Retain()
		held.refs.Store(aliased)
	}
	return w.stream.SendMsg(&directMessage{data: data})
}

// smallAfter is the size of the pieces copied before the first aliased
// one of pieces.
func smallAfter(pieces [][]byte) int {
	n := 0
	for _, p := range pieces {
		if len(p) >= aliasMin {
			break
		}
		n += len(p)
	}
	return n
}
