package shuffleflight

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/arrowvec"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/rowbridge/rowbridge/unsaferow"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Server serves shuffles of a sparkshuffle.Set over Arrow Flight. It is
// safe for concurrent use: every DoGet reads with its own Reader.
type Server struct {
	flight.BaseFlightServer
	cfg      *config
	shuffles []*served             // by shuffle id
	mem      memory.Allocator      // of every DoGet's batches (see New)
	bufs     *sparkshuffle.Buffers // of every DoGet's Reader
	running  atomic.Int32          // DoGets running
}

// sharedSegments is how many segments' read buffers (up to about 4 MiB
// each) a Server keeps for its DoGets' Readers: those of two calls at
// once with a worker per core, within a bound for many-core hosts.
func sharedSegments() int { return min(2*runtime.GOMAXPROCS(0), 32) }

// served is one shuffle a Server serves, with what its FlightInfo needs.
type served struct {
	sh     *sparkshuffle.Shuffle
	schema *arrow.Schema
	ipc    []byte // the schema serialized for FlightInfo and GetSchema
	budget int64  // the most body bytes of one batch (see batchBudget)
}

// New returns a Server of the shuffles of set given in schemas, each read
// with its schema (shuffle files do not record one). Every id must be a
// shuffle of set, and every schema one that sparkshuffle can decode.
func New(set *sparkshuffle.Set, schemas map[int]*arrow.Schema, opts ...Option) (*Server, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if len(schemas) == 0 {
		return nil, fmt.Errorf("shuffleflight: no shuffle to serve: %w", arrow.ErrInvalid)
	}
	// The Readers of all DoGets share their buffers and the allocator of
	// their batches (unless WithAllocator), which recycles each batch's
	// buffers once sent: a Reader per call with memory of its own would
	// have every call fault in and zero its buffers anew.
	s := &Server{cfg: cfg, mem: cfg.mem}
	if s.mem == nil {
		s.mem = arrowvec.NewRecyclingAllocator(unsaferow.ReaderIdleBytes)
	}
	if s.bufs, err = sparkshuffle.NewBuffers(sharedSegments()); err != nil {
		return nil, err
	}
	for id, schema := range schemas {
		sh, err := set.Shuffle(id)
		if err != nil {
			return nil, err
		}
		if schema == nil {
			return nil, fmt.Errorf("shuffleflight: shuffle %d: nil schema: %w", id, arrow.ErrInvalid)
		}
		// A Reader checks the schema and the read options as it is made:
		// fail here, not in DoGet (which overrides the partition, as here).
		check := append(append([]sparkshuffle.Option(nil), cfg.read...), sparkshuffle.WithWorkers(1))
		if sh.Partitions > 0 {
			check = append(check, sparkshuffle.WithPartition(0))
		}
		r, err := sh.NewReader(schema, check...)
		if err != nil {
			return nil, fmt.Errorf("shuffleflight: shuffle %d: %w", id, err)
		}
		r.Release()
		budget, err := batchBudget(schema, cfg.maxMessage)
		if err != nil {
			return nil, fmt.Errorf("shuffleflight: shuffle %d: %w", id, err)
		}
		s.shuffles = append(s.shuffles, &served{sh: sh, schema: schema, ipc: flight.SerializeSchema(schema, memory.DefaultAllocator), budget: budget})
	}
	slices.SortFunc(s.shuffles, func(a, b *served) int { return a.sh.ID - b.sh.ID })
	return s, nil
}

// lookup finds a served shuffle; an unknown id is NotFound.
func (s *Server) lookup(id int) (*served, error) {
	for _, sv := range s.shuffles {
		if sv.sh.ID == id {
			return sv, nil
		}
	}
	ids := make([]int, len(s.shuffles))
	for i, sv := range s.shuffles {
		ids[i] = sv.sh.ID
	}
	return nil, status.Errorf(codes.NotFound, "no shuffle %d on this server (shuffles served: %v)", id, ids)
}

// info is the FlightInfo of a served shuffle.
func (s *Server) info(sv *served) *flight.FlightInfo {
	info := &flight.FlightInfo{
		Schema:           sv.ipc,
		FlightDescriptor: Descriptor(sv.sh.ID),
		TotalRecords:     -1,
		TotalBytes:       sv.sh.Size(),
		Ordered:          true,
		Endpoint:         make([]*flight.FlightEndpoint, sv.sh.Partitions),
	}
	for p := range info.Endpoint {
		ep := &flight.FlightEndpoint{Ticket: &flight.Ticket{Ticket: encodeTicket(sv.sh.ID, p)}}
		if s.cfg.location != "" {
			ep.Location = []*flight.Location{{Uri: s.cfg.location}}
		}
		info.Endpoint[p] = ep
	}
	return info
}

// ListFlights sends one FlightInfo per shuffle served, by shuffle id. The
// criteria must be empty.
func (s *Server) ListFlights(c *flight.Criteria, stream flight.FlightService_ListFlightsServer) error {
	if len(c.GetExpression()) > 0 {
		return status.Error(codes.InvalidArgument, "ListFlights criteria are not supported: send an empty expression")
	}
	for _, sv := range s.shuffles {
		if err := stream.Send(s.info(sv)); err != nil {
			return err
		}
	}
	return nil
}

// GetFlightInfo answers the descriptor PATH ["shuffle", "<id>"] with the
// shuffle's schema and one endpoint per reduce partition.
func (s *Server) GetFlightInfo(_ context.Context, d *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	sv, err := s.describe(d)
	if err != nil {
		return nil, err
	}
	return s.info(sv), nil
}

// PollFlightInfo answers as GetFlightInfo does, as a complete query.
func (s *Server) PollFlightInfo(ctx context.Context, d *flight.FlightDescriptor) (*flight.PollInfo, error) {
	info, err := s.GetFlightInfo(ctx, d)
	if err != nil {
		return nil, err
	}
	done := 1.0
	return &flight.PollInfo{Info: info, Progress: &done}, nil
}

// GetSchema answers the descriptor of GetFlightInfo with the schema only.
func (s *Server) GetSchema(_ context.Context, d *flight.FlightDescriptor) (*flight.SchemaResult, error) {
	sv, err := s.describe(d)
	if err != nil {
		return nil, err
	}
	return &flight.SchemaResult{Schema: sv.ipc}, nil
}

func (s *Server) describe(d *flight.FlightDescriptor) (*served, error) {
	id, err := parseDescriptor(d)
	if err != nil {
		return nil, err
	}
	return s.lookup(id)
}
