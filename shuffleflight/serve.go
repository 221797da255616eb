package shuffleflight

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc"
)

// GRPCServer returns a new gRPC server with the Server's interceptors, the
// Flight service registered and the codec that writes DoGet's messages
// into buffers grpc does not zero first (see flightCodec) and sends a
// batch's body without copying it (see sendDirect: stream interceptors
// in opts see DoGet send such messages, which are not FlightData), for a
// caller that runs it itself; opts are passed on (TLS credentials, say).
func (s *Server) GRPCServer(opts ...grpc.ServerOption) *grpc.Server {
	opts = append(opts, grpc.ForceServerCodecV2(newFlightCodec()), grpc.ChainUnaryInterceptor(s.UnaryInterceptor()),
		grpc.ChainStreamInterceptor(s.StreamInterceptor(), directInterceptor))
	gs := grpc.NewServer(opts...)
	flight.RegisterFlightServiceServer(gs, s)
	return gs
}

// Serve serves calls on lis until ctx ends, then stops gracefully: it
// accepts no new calls and waits for the running ones, at most grace,
// before ending the calls still running (their clients get Unavailable
// or Canceled). ServerOptions come before opts. It returns nil after such a stop, or the error that ended
// the listener.
func (s *Server) Serve(ctx context.Context, lis net.Listener, grace time.Duration, opts ...grpc.ServerOption) error {
	gs := s.GRPCServer(append(ServerOptions(), opts...)...)
	served := make(chan error, 1)
	go func() { served <- gs.Serve(lis) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	stopped := make(chan struct{})
	go func() {
		gs.GracefulStop()
		close(stopped)
	}()
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-stopped:
	case <-timer.C:
		gs.Stop()
		<-stopped
	}
	if err := <-served; err != nil && !errors.Is(err, grpc.ErrServerStopped) {
		return err
	}
	return nil
}
