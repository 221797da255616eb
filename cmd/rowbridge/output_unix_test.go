//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// readFIFO reads the FIFO at path from a goroutine, so that the command's
// open for writing does not block, and returns what it read once unblock
// has been called after the command.
func readFIFO(t *testing.T, path string) (unblock func() string) {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(path) // blocks until a writer opens
		if err != nil {
			got <- "open: " + err.Error()
			return
		}
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			got <- "read: " + err.Error()
			return
		}
		got <- string(b)
	}()
	return func() string {
		// Should the command not have opened the FIFO, a writer that
		// opens and closes it ends the reader's wait.
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		select {
		case s := <-got:
			return s
		case <-time.After(10 * time.Second):
			t.Fatal("the FIFO's reader is still waiting")
			return ""
		}
	}
}

// A FIFO named by -o is written in place, gets the rows converted before
// a failure, as stdout does, and stays.
func TestOutputFIFOStays(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "rows.fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	wantLines := strings.SplitAfter(string(readTestdata(t, "sample.jsonl")), "\n")

	unblock := readFIFO(t, fifo)
	_, stderr, code := cli(t, truncatedRows, badDecode(fifo)...)
	require.Equal(t, 1, code, stderr)
	require.Equal(t, strings.Join(wantLines[:4], ""), unblock(), "the rows before the break")
	fi, err := os.Lstat(fifo)
	require.NoError(t, err, "the FIFO is still there")
	require.True(t, fi.Mode()&os.ModeNamedPipe != 0, "still a FIFO: %v", fi.Mode())
	require.Equal(t, []string{"rows.fifo"}, dirNames(t, dir))

	unblock = readFIFO(t, fifo)
	_, stderr, code = cli(t, sampleRows, goodDecode(fifo)...)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, strings.Join(wantLines, ""), unblock())
	fi, err = os.Lstat(fifo)
	require.NoError(t, err)
	require.True(t, fi.Mode()&os.ModeNamedPipe != 0, "still a FIFO: %v", fi.Mode())
	require.Equal(t, []string{"rows.fifo"}, dirNames(t, dir))
}

// An interrupted command removes its temporary file and leaves the file
// it would have replaced as it was.
func TestInterruptedOutputKeepsExistingFile(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.jsonl")
			writeFile(t, path, "keep\n", 0o644)
			cmd := process(t, goodDecode(path)...)
			stdin, err := cmd.StdinPipe()
			require.NoError(t, err)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Start())
			// Some rows, then the command waits for more.
			_, err = stdin.Write(sampleRows[:200])
			require.NoError(t, err)
			// Wait until the command has opened its output: a temporary
			// file beside the target (or, as before the fix, the target
			// truncated).
			opened := func() bool {
				b, err := os.ReadFile(path)
				return len(dirNames(t, dir)) > 1 || err != nil || string(b) != "keep\n"
			}
			for deadline := time.Now().Add(20 * time.Second); !opened() && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			require.True(t, opened(), "the command opens its output")
			require.NoError(t, cmd.Process.Signal(sig))
			err = cmd.Wait()
			stdin.Close()
			requireFile(t, path, "keep\n", 0o644)
			require.Equal(t, []string{"x.jsonl"}, dirNames(t, dir))
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, stderr.String())
			require.Equal(t, 128+int(sig), exit.ExitCode(), "exits as a shell reports a process the signal killed: %s", stderr.String())
		})
	}
}

// -o /dev/stdout writes to stdout as it is: after >>, the rows are
// appended to what the file held.
func TestOutputDevStdoutAppends(t *testing.T) {
	if _, err := os.Stat("/dev/stdout"); err != nil {
		t.Skipf("no /dev/stdout: %v", err)
	}
	path := filepath.Join(t.TempDir(), "log.jsonl")
	writeFile(t, path, "earlier\n", 0o644)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	cmd := process(t, goodDecode("/dev/stdout")...)
	cmd.Stdin = bytes.NewReader(sampleRows)
	cmd.Stdout = f
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	require.NoError(t, f.Close())
	require.NoError(t, err, stderr.String())
	requireFile(t, path, "earlier\n"+string(readTestdata(t, "sample.jsonl")), 0o644)
}
