package shuffleflight

import (
	"google.golang.org/grpc"
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

// ServerOptions are the gRPC server options Serve uses before the
// caller's own (which override them): flow-control windows and write and
// read buffers sized for record batches of the max message size. A caller
// that runs GRPCServer itself should pass them too.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
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
// subtype it sends is "proto", which every gRPC server takes). Pass them to
// flight.NewClientWithMiddleware (or grpc.NewClient) with the credentials.
func DialOptions(maxMessage int) []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessage), grpc.ForceCodecV2(newClientCodec())),
		grpc.WithInitialWindowSize(streamWindow),
		grpc.WithInitialConnWindowSize(connWindow),
		grpc.WithWriteBufferSize(ioBuffer),
		grpc.WithReadBufferSize(ioBuffer),
	}
}
