package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

type figures struct{ wall, user, sys, rss, exit int64 }

func parse(t *testing.T, line string) figures {
	t.Helper()
	var f figures
	_, err := fmt.Sscanf(line, "wall_ns=%d user_ns=%d sys_ns=%d maxrss_kb=%d exit=%d\n", &f.wall, &f.user, &f.sys, &f.rss, &f.exit)
	require.NoError(t, err, line)
	return f
}

func TestReportsTimeMemoryAndStatus(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs sh and Linux rusage")
	}
	file := filepath.Join(t.TempDir(), "stat")
	var stdout, stderr bytes.Buffer
	// A child that holds 32 MiB in a shell variable, sleeps and fails with status 3.
	script := `x=$(head -c 33554432 /dev/zero | tr '\0' a); printf out; sleep 0.2; exit 3`
	code := run([]string{"-o", file, "sh", "-c", script}, nil, &stdout, &stderr)
	require.Equal(t, 3, code)
	require.Equal(t, "out", stdout.String())
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	f := parse(t, string(b))
	require.Equal(t, int64(3), f.exit)
	require.GreaterOrEqual(t, f.wall, int64(200e6))
	require.Less(t, f.wall, int64(20e9))
	require.GreaterOrEqual(t, f.user+f.sys, int64(0))
	require.Greater(t, f.rss, int64(32<<10))
}

func TestWritesToStderrWithoutFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux rusage")
	}
	var stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"true"}, nil, nil, &stderr))
	f := parse(t, stderr.String())
	require.Equal(t, int64(0), f.exit)
	require.Greater(t, f.rss, int64(0))
}

func TestUsageAndMissingCommand(t *testing.T) {
	var stderr bytes.Buffer
	require.Equal(t, 2, run(nil, nil, nil, &stderr))
	require.Contains(t, stderr.String(), "usage: proctime")
	stderr.Reset()
	require.Equal(t, 127, run([]string{"/nonexistent/command"}, nil, nil, &stderr))
	require.Contains(t, stderr.String(), "proctime:")
}
