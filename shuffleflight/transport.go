package shuffleflight

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/experimental"
	"google.golang.org/grpc/mem"
)

// Flow-control windows and socket buffers of the gRPC transport, sized for
// streams of messages of up to the max message size: grpc's 64 KiB
// default window makes a sender stop every 64 KiB for the receiver's
// window update, which on loopback costs more than the data itself.
const (
	streamWindow = 4 << 20  // per stream
	connWindow   = 16 << 20 // per connection (several streams at once)
	ioBuffer     = 256 << 10
)

// The transport's buffers (the frames it reads, the batches of frames it
// writes, the messages grpc's codec makes) come from messagePool, which
// does not zero them: grpc's own pool clears every buffer it hands out,
// though each use writes the whole length it asks for before reading it
// (a frame is read into it in full, a write batch is sent up to what was
// written), and clearing them costs a pass over every byte received.
var _ mem.BufferPool = messagePool

// ServerOptions are the gRPC server options Serve uses before the
// caller's own (which override them): flow-control windows and write and
// read buffers sized for record batches of the max message size, and a
// buffer pool that does not zero what it hands out (messagePool). A
// caller that runs GRPCServer itself should pass them too.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		experimental.BufferPool(messagePool),
		grpc.InitialWindowSize(streamWindow),
		grpc.InitialConnWindowSize(connWindow),
		grpc.WriteBufferSize(ioBuffer),
		grpc.ReadBufferSize(ioBuffer),
	}
}

// DialOptions are the gRPC dial options of a client of a Server whose max
// message size is maxMessage: it accepts messages of that size, with the
// flow-control windows and buffers of ServerOptions, and reads each
// FlightData with one copy of its bytes (see clientCodec; the content
// subtype it sends is "proto", which every gRPC server takes), with the
// buffer pool of ServerOptions. Pass them to flight.NewClientWithMiddleware
// (or grpc.NewClient) with the credentials.
func DialOptions(maxMessage int) []grpc.DialOption {
	return []grpc.DialOption{
		experimental.WithBufferPool(messagePool),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessage), grpc.ForceCodecV2(newClientCodec())),
		grpc.WithInitialWindowSize(streamWindow),
		grpc.WithInitialConnWindowSize(connWindow),
		grpc.WithWriteBufferSize(ioBuffer),
		grpc.WithReadBufferSize(ioBuffer),
	}
}
