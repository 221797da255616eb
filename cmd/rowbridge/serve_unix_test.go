//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// server is a 'rowbridge serve' process.
type server struct {
	cmd    *exec.Cmd
	url    string
	stdout *bufio.Reader
	stderr *bytes.Buffer
}

// startServe runs 'rowbridge serve args...' in a process and waits for the
// grpc:// line on its stdout.
func startServe(t *testing.T, args ...string) *server {
	t.Helper()
	cmd := process(t, append([]string{"serve"}, args...)...)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	s := &server{cmd: cmd, stdout: bufio.NewReader(out), stderr: &bytes.Buffer{}}
	cmd.Stderr = s.stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	line := make(chan string, 1)
	go func() {
		l, _ := s.stdout.ReadString('\n')
		line <- l
	}()
	select {
	case l := <-line:
		require.Regexp(t, regexp.MustCompile(`^grpc://127\.0\.0\.1:[1-9][0-9]*\n$`), l, "stderr: %s", s.stderr)
		s.url = strings.TrimSuffix(l, "\n")
	case <-time.After(60 * time.Second):
		t.Fatalf("no grpc:// line from serve; stderr: %s", s.stderr)
	}
	return s
}

func (s *server) addr() string { return strings.TrimPrefix(s.url, "grpc://") }

// stop sends sig and returns the exit code and what stdout still held.
func (s *server) stop(t *testing.T, sig syscall.Signal) (int, string) {
	t.Helper()
	require.NoError(t, s.cmd.Process.Signal(sig))
	rest, err := io.ReadAll(s.stdout)
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if err != nil {
			require.ErrorAs(t, err, &exit, s.stderr.String())
			return exit.ExitCode(), string(rest)
		}
		return 0, string(rest)
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not stop on %v; stderr: %s", sig, s.stderr)
		return -1, ""
	}
}

// serve prints its address, serves a partition exactly as shuffle decode
// --partition gives it (read with arrow-go's Flight client, and with
// rowbridge fetch), logs the calls on stderr, and exits 0 on SIGTERM and
// on SIGINT.
func TestServeFetchAndStop(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			s := startServe(t, "--schema", sampleSchemaFlagText, sampleShuffleDir)

			for p := range sampleShufflePartitions {
				want, stderr, code := cli(t, nil, "shuffle", "decode", "--schema", sampleSchemaFlagText, "--partition", itoa(int64(p)), "--to", "jsonl", sampleShuffleDir)
				require.Equal(t, 0, code, stderr)
				got, stderr, code := cli(t, nil, "fetch", "--partition", itoa(int64(p)), "--to", "jsonl", s.url)
				require.Equal(t, 0, code, stderr)
				require.Equal(t, string(want), string(got), "partition %d", p)
				if p != 2 {
					require.NotEmpty(t, got)
				}
			}
			all, stderr, code := cli(t, nil, "shuffle", "decode", "--schema", sampleSchemaFlagText, "--to", "jsonl", sampleShuffleDir)
			require.Equal(t, 0, code, stderr)
			got, stderr, code := cli(t, nil, "fetch", "--to", "jsonl", s.url)
			require.Equal(t, 0, code, stderr)
			require.Equal(t, string(all), string(got), "every partition in order")

			// arrow-go's client: the same batches' rows as the Arrow stream of shuffle decode.
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			c, err := flight.NewClientWithMiddleware(s.addr(), nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
			require.NoError(t, err)
			defer c.Close()
			ctx := context.Background()
			fi, err := c.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"shuffle", "0"}})
			require.NoError(t, err)
			require.Len(t, fi.GetEndpoint(), sampleShufflePartitions)
			require.Equal(t, s.url, fi.GetEndpoint()[1].GetLocation()[0].GetUri())
			stream, err := c.DoGet(ctx, fi.GetEndpoint()[1].GetTicket())
			require.NoError(t, err)
			rdr, err := flight.NewRecordReader(stream, ipc.WithAllocator(mem))
			require.NoError(t, err)
			wantStream, stderr, code := cli(t, nil, "shuffle", "decode", "--schema", sampleSchemaFlagText, "--partition", "1", sampleShuffleDir)
			require.Equal(t, 0, code, stderr)
			wr, err := ipc.NewReader(bytes.NewReader(wantStream), ipc.WithAllocator(mem))
			require.NoError(t, err)
			for wr.Next() {
				require.True(t, rdr.Next(), "%v", rdr.Err())
				requireRecordEqual(t, wr.RecordBatch(), rdr.RecordBatch())
			}
			require.False(t, rdr.Next())
			require.NoError(t, rdr.Err())
			rdr.Release()
			wr.Release()

			code, rest := s.stop(t, sig)
			require.Equal(t, 0, code, s.stderr.String())
			require.Empty(t, rest, "one line on stdout")
			log := s.stderr.String()
			require.Contains(t, log, "msg=serving shuffles=[0]")
			require.Contains(t, log, `msg="flight call" method=DoGet`)
			require.Contains(t, log, "shuffle=0 partition=1 rows=4")
			require.Contains(t, log, "msg=stopped")
		})
	}
}

// With --token (or --token @FILE) every call needs the bearer token:
// fetch without it, or with another, fails naming the cause.
func TestServeToken(t *testing.T) {
	file := filepath.Join(t.TempDir(), "token")
	require.NoError(t, os.WriteFile(file, []byte("tok-123\n"), 0o600))
	s := startServe(t, "--token", "@"+file, "--schema", sampleSchemaFlagText, sampleShuffleDir)

	_, stderr, code := cli(t, nil, "fetch", "--partition", "0", "--to", "jsonl", s.url)
	require.Equal(t, 1, code)
	requireStderrLine(t, stderr, "rowbridge fetch: "+s.url+": missing authorization header: send \"authorization: Bearer <token>\" (Unauthenticated)")
	_, stderr, code = cli(t, nil, "fetch", "--token", "tok-12", "--partition", "0", "--to", "jsonl", s.url)
	require.Equal(t, 1, code)
	requireStderrLine(t, stderr, "rowbridge fetch: "+s.url+": invalid bearer token (Unauthenticated)")
	got, stderr, code := cli(t, nil, "fetch", "--token", "tok-123", "--partition", "0", "--to", "jsonl", s.url)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 3, bytes.Count(got, []byte("\n")))

	c, err := flight.NewClientWithMiddleware(s.addr(), nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer c.Close()
	_, err = c.GetSchema(context.Background(), &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"shuffle", "0"}})
	require.Equal(t, codes.Unauthenticated, status.Code(err))
	_, err = c.GetSchema(metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer tok-123"),
		&flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"shuffle", "0"}})
	require.NoError(t, err)

	code, _ = s.stop(t, syscall.SIGTERM)
	require.Equal(t, 0, code, s.stderr.String())
	require.Contains(t, s.stderr.String(), "code=Unauthenticated")
}
