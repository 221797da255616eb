package interop

import (
	"context"
	"encoding/json"
	"math/rand"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// A Node.js Flight client (js/flight.mjs: @grpc/grpc-js with a Flight.proto
// written from the specification, apache-arrow decoding the FlightData)
// lists the flights of a shuffleflight server, gets the shuffle's info and
// schema, and reads two partitions of a random nested shuffle: every value
// is the local Reader's, rendered the same way in Go and in JS. It is also
// refused without the token and for a bad ticket. (Concurrent: the server
// runs on goroutines beside the node process, so scripts/test runs it under
// the race detector as well.)
func TestNodeFlightClientConcurrent(t *testing.T) {
	node := requireNode(t)
	if _, err := os.Stat(filepath.Join(jsDir(t), "node_modules", "@grpc", "grpc-js", "package.json")); err != nil {
		t.Fatal("@grpc/grpc-js is not installed: run `npm ci --prefix interop/js` (or set ROWBRIDGE_SKIP_INTEROP=1)")
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)

	// Shuffle 6: three maps, five partitions, a random nested schema; the
	// rows of the batches spread over partitions 0-3 (4 stays empty).
	r := rand.New(rand.NewSource(66))
	schema := testgen.RandomSchema(r)
	dir := t.TempDir()
	const shuffle, parts = 6, 5
	for m := range 3 {
		w, err := sparkshuffle.NewMapOutputWriter(dir, shuffle, int64(40+m), parts, schema,
			sparkshuffle.WithWriteCodec(framing.LZ4), sparkshuffle.WithWriteChecksum(sparkshuffle.Adler32), sparkshuffle.WithSpillRows(30))
		require.NoError(t, err)
		b := testgen.RandomBatch(mem, r, schema, 150)
		ps := make([]int32, b.NumRows())
		for i := range ps {
			ps[i] = int32(r.Intn(parts - 1))
		}
		require.NoError(t, w.Write(b, ps))
		b.Release()
		require.NoError(t, w.Close())
	}
	set, err := sparkshuffle.Open(dir)
	require.NoError(t, err)
	sh, err := set.Shuffle(shuffle)
	require.NoError(t, err)

	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "grpc://" + lis.Addr().String()
	const token = "node-token-7"
	srv, err := shuffleflight.New(set, map[int]*arrow.Schema{shuffle: schema}, shuffleflight.WithAllocator(mem),
		shuffleflight.WithToken(token), shuffleflight.WithLocation(url), shuffleflight.WithReadOptions(sparkshuffle.WithBatchRows(40)))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, lis, 5*time.Second) }()
	defer func() {
		cancel()
		require.NoError(t, <-served)
	}()

	read := []int{1, 3}
	work := t.TempDir()
	writeJSON(t, filepath.Join(work, "flight.json"), map[string]any{"url": url, "token": token, "shuffle": shuffle, "partitions": read})
	code, stdout, stderr := runNode(t, node, "flight.mjs", work)
	require.Equal(t, 0, code, "flight.mjs: %s", stderr)

	var got struct {
		Flights []flightDesc `json:"flights"`
		Info    flightDesc   `json:"info"`
		Schema  []fieldDesc  `json:"schemaFields"`
		Parts   []struct {
			Partition int `json:"partition"`
			Messages  int `json:"messages"`
			expectation
		} `json:"partitions"`
		Errors    []string `json:"errors"`
		NoToken   string   `json:"noToken"`
		BadTicket string   `json:"badTicket"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &got), stdout)
	require.Empty(t, got.Errors)
	require.Equal(t, "UNAUTHENTICATED", got.NoToken)
	require.Equal(t, "INVALID_ARGUMENT", got.BadTicket)

	var fields []fieldDesc
	for _, f := range schema.Fields() {
		fields = append(fields, describeField(f))
	}
	locations := make([][]string, parts)
	for i := range locations {
		locations[i] = []string{url}
	}
	want := flightDesc{Path: []string{"shuffle", "6"}, Type: "PATH", Endpoints: parts, Locations: locations,
		TotalRecords: "-1", TotalBytes: json.Number(strconv.FormatInt(sh.Size(), 10)), Ordered: true, Fields: fields}
	require.Equal(t, asJSON(t, []flightDesc{want}), asJSON(t, got.Flights))
	require.Equal(t, asJSON(t, want), asJSON(t, got.Info))
	require.Equal(t, asJSON(t, fields), asJSON(t, got.Schema))

	require.Len(t, got.Parts, len(read))
	for i, p := range read {
		local := localPartition(t, mem, set, shuffle, schema, p)
		e := expect(local)
		local.Release()
		require.Positive(t, e.Rows, "partition %d has rows", p)
		require.Equal(t, p, got.Parts[i].Partition)
		require.Greater(t, got.Parts[i].Messages, 1, "a schema message and record batches")
		require.Equal(t, asJSON(t, e), asJSON(t, got.Parts[i].expectation), "partition %d", p)
	}
}

// flightDesc is what flight.mjs prints of a FlightInfo.
type flightDesc struct {
	Path         []string    `json:"path"`
	Type         string      `json:"type"`
	Endpoints    int         `json:"endpoints"`
	Locations    [][]string  `json:"locations"`
	TotalRecords json.Number `json:"totalRecords"`
	TotalBytes   json.Number `json:"totalBytes"`
	Ordered      bool        `json:"ordered"`
	Fields       []fieldDesc `json:"fields"`
}

// localPartition is partition p as a local Reader (rowbridge shuffle
// decode --partition p) gives it, as one batch.
func localPartition(t *testing.T, mem memory.Allocator, set *sparkshuffle.Set, shuffle int, schema *arrow.Schema, p int) arrow.RecordBatch {
	t.Helper()
	rd, err := set.NewReader(shuffle, schema, sparkshuffle.WithPartition(p), sparkshuffle.WithAllocator(mem))
	require.NoError(t, err)
	defer rd.Release()
	var recs []arrow.RecordBatch
	for rd.Next() {
		rec := rd.RecordBatch()
		rec.Retain()
		recs = append(recs, rec)
	}
	require.NoError(t, rd.Err())
	defer releaseAll(recs)
	return concatBatches(t, mem, schema, recs)
}

// asJSON is v as generic JSON values (maps, slices, float64s), so that
// Go's typed renderings and the decoded Node output compare as equals.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}
