package shuffleflight_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Every partition of a random nested shuffle comes back over Flight
// exactly as a local Reader of that partition (shuffle decode
// --partition P) gives it: the same rows in the same order; the
// FlightInfo lists one endpoint per partition, in order, with the
// server's location, the on-disk bytes and an unknown record count.
func TestEveryPartitionExact(t *testing.T) {
	codecs := []framing.Codec{framing.LZ4, framing.Zstd, framing.None, framing.Snappy}
	algs := []sparkshuffle.Algorithm{sparkshuffle.Adler32, sparkshuffle.CRC32C, sparkshuffle.NoChecksum}
	for seed := range int64(6) {
		codec, alg := codecs[seed%int64(len(codecs))], algs[seed%int64(len(algs))]
		t.Run(fmt.Sprintf("%d/%v/%v", seed, codec, alg), func(t *testing.T) {
			mem := checkedMem(t)
			fx := writeRandomShuffle(t, mem, seed, 5, 3, 6, codec, alg)
			const location = "grpc://127.0.0.1:1"
			addr := serve(t, newServer(t, fx, mem, shuffleflight.WithLocation(location), shuffleflight.WithReadOptions(sparkshuffle.WithBatchRows(50))))
			c := dial(t, addr)
			ctx := context.Background()

			list, err := c.ListFlights(ctx, &flight.Criteria{})
			require.NoError(t, err)
			var infos []*flight.FlightInfo
			for {
				fi, err := list.Recv()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				infos = append(infos, fi)
			}
			require.Len(t, infos, 1)
			fi := info(ctx, t, c, fx.id)
			require.Equal(t, infos[0].GetFlightDescriptor().GetPath(), fi.GetFlightDescriptor().GetPath())
			require.Equal(t, []string{"shuffle", "5"}, fi.GetFlightDescriptor().GetPath())
			sh, err := fx.set.Shuffle(fx.id)
			require.NoError(t, err)
			require.Equal(t, sh.Size(), fi.GetTotalBytes())
			require.Positive(t, fi.GetTotalBytes())
			require.Equal(t, int64(-1), fi.GetTotalRecords())
			require.True(t, fi.GetOrdered())
			schema, err := flight.DeserializeSchema(fi.GetSchema(), memory.DefaultAllocator)
			require.NoError(t, err)
			require.True(t, schema.Equal(fx.schema), "%v\n%v", schema, fx.schema)
			sr, err := c.GetSchema(ctx, shuffleflight.Descriptor(fx.id))
			require.NoError(t, err)
			require.Equal(t, fi.GetSchema(), sr.GetSchema())

			require.Len(t, fi.GetEndpoint(), fx.parts)
			var rows int64
			for p, ep := range fi.GetEndpoint() {
				require.Len(t, ep.GetLocation(), 1)
				require.Equal(t, location, ep.GetLocation()[0].GetUri())
				want := fx.local(t, mem, p)
				got, _, err := fetch(ctx, c, mem, fx.schema, ep.GetTicket())
				require.NoError(t, err, "partition %d", p)
				require.Equal(t, want.NumRows(), got.NumRows(), "partition %d", p)
				testgen.EqualBatches(t, want, got)
				rows += got.NumRows()
				if p == fx.parts-1 {
					require.Zero(t, got.NumRows(), "the last partition is empty")
				}
				want.Release()
				got.Release()
			}
			require.Positive(t, rows)
		})
	}
}

// Every shuffle of a set is served, each with its schema, listed by id.
func TestListFlightsEveryShuffle(t *testing.T) {
	mem := checkedMem(t)
	a := writeRandomShuffle(t, mem, 11, 2, 1, 3, framing.LZ4, sparkshuffle.Adler32)
	b := writeRandomShuffle(t, mem, 12, 9, 2, 4, framing.Zstd, sparkshuffle.CRC32)
	set, err := sparkshuffle.Open(a.dir, b.dir)
	require.NoError(t, err)
	srv, err := shuffleflight.New(set, map[int]*arrow.Schema{9: b.schema, 2: a.schema}, shuffleflight.WithAllocator(mem))
	require.NoError(t, err)
	c := dial(t, serve(t, srv))
	list, err := c.ListFlights(context.Background(), &flight.Criteria{})
	require.NoError(t, err)
	var paths [][]string
	var ends []int
	for {
		fi, err := list.Recv()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		paths = append(paths, fi.GetFlightDescriptor().GetPath())
		ends = append(ends, len(fi.GetEndpoint()))
		require.Empty(t, fi.GetEndpoint()[0].GetLocation(), "no WithLocation: no location")
	}
	require.Equal(t, [][]string{{"shuffle", "2"}, {"shuffle", "9"}}, paths)
	require.Equal(t, []int{3, 4}, ends)
}

// Bad descriptors and tickets are InvalidArgument, unknown shuffles
// NotFound, for every method that takes them.
func TestBadRequests(t *testing.T) {
	mem := checkedMem(t)
	fx := writeRandomShuffle(t, mem, 3, 4, 1, 3, framing.LZ4, sparkshuffle.Adler32)
	c := dial(t, serve(t, newServer(t, fx, mem)))
	ctx := context.Background()
	descriptors := []struct {
		d    *flight.FlightDescriptor
		code codes.Code
	}{
		{shuffleflight.Descriptor(7), codes.NotFound},
		{&flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: []byte("shuffle 4")}, codes.InvalidArgument},
		{&flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"shuffle"}}, codes.InvalidArgument},
		{&flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"shuffle", "04"}}, codes.InvalidArgument},
		{&flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"shuffle", "-4"}}, codes.InvalidArgument},
		{&flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"table", "4"}}, codes.InvalidArgument},
		{&flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"shuffle", "4", "0"}}, codes.InvalidArgument},
	}
	for _, tc := range descriptors {
		_, err := c.GetFlightInfo(ctx, tc.d)
		require.Equal(t, tc.code, status.Code(err), "GetFlightInfo %v: %v", tc.d, err)
		_, err = c.GetSchema(ctx, tc.d)
		require.Equal(t, tc.code, status.Code(err), "GetSchema %v: %v", tc.d, err)
		_, err = c.PollFlightInfo(ctx, tc.d)
		require.Equal(t, tc.code, status.Code(err), "PollFlightInfo %v: %v", tc.d, err)
	}
	_, err := c.GetFlightInfo(ctx, shuffleflight.Descriptor(7))
	require.ErrorContains(t, err, "no shuffle 7 on this server (shuffles served: [4])")

	fi := info(ctx, t, c, fx.id)
	good := string(fi.GetEndpoint()[1].GetTicket().GetTicket())
	tickets := []struct {
		ticket string
		code   codes.Code
	}{
		{"", codes.InvalidArgument},
		{"garbage", codes.InvalidArgument},
		{good + "0", codes.InvalidArgument},               // partition 10 of 3
		{good[:len(good)-1] + "3", codes.InvalidArgument}, // partition 3 of 3
		{good[:len(good)-1] + "01", codes.InvalidArgument},
		{good[:len(good)-3] + "7/1", codes.NotFound}, // shuffle 7
		{good + string(make([]byte, 100)), codes.InvalidArgument},
	}
	for _, tc := range tickets {
		_, _, err := fetch(ctx, c, mem, fx.schema, &flight.Ticket{Ticket: []byte(tc.ticket)})
		require.Equal(t, tc.code, status.Code(err), "ticket %q: %v", tc.ticket, err)
	}
	_, _, err = fetch(ctx, c, mem, fx.schema, &flight.Ticket{Ticket: []byte(good[:len(good)-1] + "3")})
	require.ErrorContains(t, err, "has partitions 0-2, not partition 3")
	_, err = c.ListFlights(ctx, &flight.Criteria{Expression: []byte("x")})
	if err == nil {
		var s flight.FlightService_ListFlightsClient
		s, err = c.ListFlights(ctx, &flight.Criteria{Expression: []byte("x")})
		require.NoError(t, err)
		_, err = s.Recv()
	}
	require.Equal(t, codes.InvalidArgument, status.Code(err), "%v", err)
	rec, _, err := fetch(ctx, c, mem, fx.schema, &flight.Ticket{Ticket: []byte(good)})
	require.NoError(t, err, "the good ticket still works")
	rec.Release()
}

// New refuses what it cannot serve.
func TestNewRefuses(t *testing.T) {
	mem := checkedMem(t)
	fx := writeRandomShuffle(t, mem, 3, 4, 1, 3, framing.LZ4, sparkshuffle.Adler32)
	_, err := shuffleflight.New(fx.set, map[int]*arrow.Schema{5: fx.schema})
	require.ErrorIs(t, err, sparkshuffle.ErrNoShuffle)
	_, err = shuffleflight.New(fx.set, nil)
	require.ErrorContains(t, err, "no shuffle to serve")
	_, err = shuffleflight.New(fx.set, map[int]*arrow.Schema{4: fx.schema}, shuffleflight.WithMaxMessageSize(1000))
	require.ErrorContains(t, err, "max message size 1000")
	_, err = shuffleflight.New(fx.set, map[int]*arrow.Schema{4: fx.schema}, shuffleflight.WithToken("a b"))
	require.Error(t, err)
	_, err = shuffleflight.New(fx.set, map[int]*arrow.Schema{4: arrow.NewSchema([]arrow.Field{{Name: "u", Type: arrow.PrimitiveTypes.Uint64}}, nil)})
	require.Error(t, err, "a type UnsafeRow cannot hold")
}

// The message of a ticket past the partitions reads right for any count.
func TestPartitionRangeWords(t *testing.T) {
	require.Equal(t, "no partitions", shuffleflight.PartitionRange(0))
	require.Equal(t, "only partition 0", shuffleflight.PartitionRange(1))
	require.Equal(t, "partitions 0-2", shuffleflight.PartitionRange(3))
}
