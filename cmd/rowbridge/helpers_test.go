package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestMain runs main instead of the tests when the test binary is run as
// rowbridge by command (ROWBRIDGE_TEST_MAIN=1): a test that needs a real
// process (to interrupt it, say) runs the command line in one.
func TestMain(m *testing.M) {
	if os.Getenv("ROWBRIDGE_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// process returns the command line args run by main in a new process.
func process(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "ROWBRIDGE_TEST_MAIN=1")
	return cmd
}

// cli runs the command line in-process.
func cli(t *testing.T, stdin []byte, args ...string) (stdout []byte, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, bytes.NewReader(stdin), &out, &errOut)
	return out.Bytes(), errOut.String(), code
}

// cliFailure is a command line that fails with code and one line on stderr.
type cliFailure struct {
	name  string
	stdin []byte
	args  []string
	code  int
	msg   string // the whole stderr line, or its start when it ends with "…"
}

// requireStderrLine checks that stderr is the one line msg describes.
func requireStderrLine(t *testing.T, stderr, msg string) {
	t.Helper()
	require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	line := strings.TrimSuffix(stderr, "\n")
	if prefix, ok := strings.CutSuffix(msg, "…"); ok {
		require.True(t, strings.HasPrefix(line, prefix), "%q does not start with %q", line, prefix)
	} else {
		require.Equal(t, msg, line)
	}
}

// requireFailures runs 'rowbridge cmd' with each case's stdin and
// arguments, as a subtest: the exit code and stderr line are the case's,
// and nothing reaches stdout.
func requireFailures(t *testing.T, cmd string, cases []cliFailure) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := cli(t, tc.stdin, append([]string{cmd}, tc.args...)...)
			require.Equal(t, tc.code, code, stderr)
			requireStderrLine(t, stderr, tc.msg)
			require.Empty(t, out)
		})
	}
}

func requireRecordEqual(t *testing.T, want, got arrow.RecordBatch) {
	t.Helper()
	require.True(t, array.RecordEqual(want, got), "records differ:\nwant %v\ngot  %v", want, got)
	for _, c := range got.Columns() {
		require.NoError(t, array.ValidateFull(c))
	}
}

func writeArrowFile(t *testing.T, schema *arrow.Schema, batches []arrow.RecordBatch, mem memory.Allocator) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	require.NoError(t, err)
	for _, b := range batches {
		require.NoError(t, w.Write(b))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func writeArrowStream(t *testing.T, schema *arrow.Schema, batches []arrow.RecordBatch, mem memory.Allocator) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	for _, b := range batches {
		require.NoError(t, w.Write(b))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}
