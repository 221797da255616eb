package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/shuffleflight"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// TestConcurrentReadsEveryPartition: every row of every partition is read and
// decoded, the batches pass ValidateFull, and a bad address is refused.
func TestConcurrentReadsEveryPartition(t *testing.T) {
	folder := shuffletest.New(t, 1)
	rows := 0
	for m := range 3 {
		var segments [][]byte
		for p := range 3 {
			spills := []int{40 * (p + 1), 25}
			if p == 1 {
				spills = nil // an empty partition
			}
			seg, keys := shuffletest.Spills(t, memory.NewGoAllocator(), framing.LZ4, p, int64(m), spills...)
			segments = append(segments, seg)
			rows += len(keys)
		}
		folder.Write(t, shuffletest.MapOutput{Shuffle: 2, Map: int64(m), Segments: segments, Checksum: sparkshuffle.Adler32})
	}
	set, err := sparkshuffle.Open(folder.LocalDirs...)
	require.NoError(t, err)
	srv, err := shuffleflight.New(set, map[int]*arrow.Schema{2: shuffletest.Schema})
	require.NoError(t, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis, time.Second) }()
	defer func() { cancel(); require.NoError(t, <-done) }()

	for _, reader := range []string{"rowbridge", "arrow"} {
		var out bytes.Buffer
		require.NoError(t, run([]string{"--shuffle", "2", "--validate", "--reader", reader, "grpc://" + lis.Addr().String()}, &out))
		require.Regexp(t, fmt.Sprintf(`^rows=%d batches=[1-9][0-9]*\n$`, rows), out.String())
	}
	var out bytes.Buffer
	require.ErrorContains(t, run([]string{"--reader", "x", "grpc://" + lis.Addr().String()}, &out), "want rowbridge or arrow")
	require.ErrorContains(t, run([]string{"--shuffle", "7", "grpc://" + lis.Addr().String()}, &out), "no shuffle 7")
	require.ErrorContains(t, run([]string{"http://x"}, &out), "want grpc://HOST:PORT")
}
