package shuffleflight

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// flightService prefixes the full method names of the Flight service: the
// interceptors check and log those calls only, so that a gRPC server
// shared with other services keeps its own rules for them.
const flightService = "/arrow.flight.protocol.FlightService/"

// UnaryInterceptor checks the token (WithToken) of the Flight service's
// unary calls and logs them (WithLogger).
func (s *Server) UnaryInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		if !strings.HasPrefix(info.FullMethod, flightService) {
			return handler(ctx, req)
		}
		call, ctx := s.startCall(ctx, info.FullMethod)
		err := s.authorize(ctx)
		var resp any
		if err == nil {
			resp, err = handler(ctx, req)
		}
		s.endCall(call, err)
		return resp, err
	}
}

// StreamInterceptor checks the token (WithToken) of the Flight service's
// streaming calls and logs them (WithLogger).
func (s *Server) StreamInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		if !strings.HasPrefix(info.FullMethod, flightService) {
			return handler(srv, ss)
		}
		call, ctx := s.startCall(ss.Context(), info.FullMethod)
		err := s.authorize(ctx)
		if err == nil {
			err = handler(srv, &contextStream{ServerStream: ss, ctx: ctx})
		}
		s.endCall(call, err)
		return err
	}
}

// Middleware is the two interceptors for flight.NewServerWithMiddleware.
func (s *Server) Middleware() flight.ServerMiddleware {
	return flight.ServerMiddleware{Unary: s.UnaryInterceptor(), Stream: s.StreamInterceptor()}
}

type contextStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (c *contextStream) Context() context.Context { return c.ctx }

// authorize checks the authorization header against the token.
func (s *Server) authorize(ctx context.Context) error {
	if s.cfg.token == "" {
		return nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	values := md.Get("authorization")
	if len(values) == 0 {
		return status.Error(codes.Unauthenticated, "missing authorization header: send \"authorization: Bearer <token>\"")
	}
	scheme, token, ok := strings.Cut(values[0], " ")
	if len(values) != 1 || !ok || !strings.EqualFold(scheme, "Bearer") ||
		subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(s.cfg.token)) != 1 {
		return status.Error(codes.Unauthenticated, "invalid bearer token")
	}
	return nil
}

// call is what the log line of one call says; handlers add to it.
type call struct {
	method string
	peer   string
	start  time.Time
	mu     sync.Mutex
	attrs  []slog.Attr
}

type callKey struct{}

func (s *Server) startCall(ctx context.Context, method string) (*call, context.Context) {
	c := &call{method: strings.TrimPrefix(method, flightService), start: time.Now()}
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		c.peer = p.Addr.String()
	}
	return c, context.WithValue(ctx, callKey{}, c)
}

// callOf is the call of ctx, or a throwaway one for a handler called
// without the interceptors.
func callOf(ctx context.Context) *call {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		return c
	}
	return &call{}
}

func (c *call) add(attrs ...slog.Attr) {
	c.mu.Lock()
	c.attrs = append(c.attrs, attrs...)
	c.mu.Unlock()
}

func (s *Server) endCall(c *call, err error) {
	st := status.Convert(err)
	level := slog.LevelInfo
	if err != nil {
		level = slog.LevelWarn
	}
	attrs := []slog.Attr{slog.String("method", c.method), slog.String("peer", c.peer), slog.String("code", st.Code().String()),
		slog.Duration("took", time.Since(c.start).Round(time.Microsecond))}
	c.mu.Lock()
	attrs = append(attrs, c.attrs...)
	c.mu.Unlock()
	if err != nil {
		attrs = append(attrs, slog.String("error", st.Message()))
	}
	s.cfg.log.LogAttrs(context.Background(), level, "flight call", attrs...)
}
