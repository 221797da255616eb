package shuffleflight_test

import (
	"context"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// With a token, every call of every kind needs "authorization: Bearer
// <token>": without it, with another token or another scheme, the call is
// Unauthenticated; with it, it succeeds.
func TestTokenRequiredOnEveryCall(t *testing.T) {
	mem := checkedMem(t)
	fx := writeRandomShuffle(t, mem, 41, 0, 1, 2, framing.LZ4, sparkshuffle.Adler32)
	const token = "s3cret-Token_1"
	c := dial(t, serve(t, newServer(t, fx, mem, shuffleflight.WithToken(token))))
	ticket := &flight.Ticket{Ticket: []byte("any")}
	{
		ctx := withToken(context.Background(), token)
		fi := info(ctx, t, c, fx.id)
		ticket = fi.GetEndpoint()[0].GetTicket()
	}
	calls := map[string]func(ctx context.Context) error{
		"GetFlightInfo": func(ctx context.Context) error {
			_, err := c.GetFlightInfo(ctx, shuffleflight.Descriptor(fx.id))
			return err
		},
		"GetSchema": func(ctx context.Context) error {
			_, err := c.GetSchema(ctx, shuffleflight.Descriptor(fx.id))
			return err
		},
		"PollFlightInfo": func(ctx context.Context) error {
			_, err := c.PollFlightInfo(ctx, shuffleflight.Descriptor(fx.id))
			return err
		},
		"ListFlights": func(ctx context.Context) error {
			s, err := c.ListFlights(ctx, &flight.Criteria{})
			if err != nil {
				return err
			}
			for {
				if _, err := s.Recv(); err != nil {
					if err == io.EOF {
						return nil
					}
					return err
				}
			}
		},
		"DoGet": func(ctx context.Context) error {
			rec, _, err := fetch(ctx, c, mem, fx.schema, ticket)
			if err == nil {
				rec.Release()
			}
			return err
		},
		"ListActions": func(ctx context.Context) error {
			s, err := c.ListActions(ctx, &flight.Empty{})
			if err != nil {
				return err
			}
			_, err = s.Recv()
			return err
		},
	}
	bad := map[string]context.Context{
		"none":         context.Background(),
		"wrong":        withToken(context.Background(), "s3cret-token_1"),
		"prefix":       withToken(context.Background(), "s3cret"),
		"basic":        metadata.AppendToOutgoingContext(context.Background(), "authorization", "Basic "+token),
		"bare":         metadata.AppendToOutgoingContext(context.Background(), "authorization", token),
		"two headers":  metadata.AppendToOutgoingContext(withToken(context.Background(), token), "authorization", "Bearer x"),
		"other header": metadata.AppendToOutgoingContext(context.Background(), "x-token", token),
	}
	for name, call := range calls {
		for what, ctx := range bad {
			err := call(ctx)
			require.Equal(t, codes.Unauthenticated, status.Code(err), "%s with %s token: %v", name, what, err)
		}
		err := call(withToken(context.Background(), token))
		if name == "ListActions" {
			// Authorized, and then not implemented (or empty).
			require.NotEqual(t, codes.Unauthenticated, status.Code(err), "%v", err)
			continue
		}
		require.NoError(t, err, name)
	}
}
