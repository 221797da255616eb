package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// ipcStream is rec as an arrow-go IPC stream.
func ipcStream(t *testing.T, rec arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()))
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// TestEncodeProducerTypes: an IPC stream of every Arrow type producers
// write encodes to the bytes its converted values encode to, in every
// format, and decodes back to the converted values.
func TestEncodeProducerTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	in, want := testgen.ProducerBatch(mem)
	defer in.Release()
	defer want.Release()
	inIPC, wantIPC := ipcStream(t, in), ipcStream(t, want)
	for _, args := range [][]string{
		{"--format", "unsaferow"},
		{"--format", "unsaferow", "--flavor", "velox", "--framing", "velox", "--codec", "zstd"},
		{"--format", "compactrow", "--framing", "velox"},
	} {
		got, stderr, code := cli(t, inIPC, append([]string{"encode", "--no-progress"}, args...)...)
		require.Equal(t, 0, code, "%v: %s", args, stderr)
		exp, stderr, code := cli(t, wantIPC, append([]string{"encode", "--no-progress"}, args...)...)
		require.Equal(t, 0, code, "%v: %s", args, stderr)
		require.NotEmpty(t, got)
		require.Equal(t, exp, got, "%v", args)
	}
}

// TestEncodeLossyValueNamesTheRow: a value the row format cannot hold
// exactly fails encode with one line naming the stream row and field;
// --truncate rounds it down instead.
func TestEncodeLossyValueNamesTheRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cases := testgen.ProducerLossy(mem)
	defer func() {
		for i := range cases {
			cases[i].Release()
		}
	}()
	for _, lc := range cases {
		stream := ipcStream(t, lc.Batch)
		_, stderr, code := cli(t, stream, "encode", "--no-progress", "--format", "compactrow")
		require.Equal(t, 1, code, "%s: %s", lc.Name, stderr)
		require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
		require.Contains(t, stderr, "row "+itoa(int64(lc.Row))+", field "+lc.Field+": value not representable", lc.Name)

		got, stderr, code := cli(t, stream, "encode", "--no-progress", "--format", "unsaferow", "--truncate")
		if lc.Truncated == nil {
			require.Equal(t, 1, code, "%s: --truncate does not bring a value into range", lc.Name)
			continue
		}
		require.Equal(t, 0, code, "%s: %s", lc.Name, stderr)
		exp, stderr, code := cli(t, ipcStream(t, lc.Truncated), "encode", "--no-progress", "--format", "unsaferow")
		require.Equal(t, 0, code, "%s: %s", lc.Name, stderr)
		require.Equal(t, exp, got, lc.Name)
	}
}
