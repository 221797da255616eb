package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A decode or encode that fails on a file's bytes names the file, so a
// script running over many files says which one is bad.
func TestFailureNamesTheInputFile(t *testing.T) {
	in := "../../testdata/sample/unsaferow-spark.bin"
	_, stderr, code := cli(t, nil, "decode", "--format", "unsaferow", "--codec", "lz4",
		"--schema", "@../../testdata/sample/schema.ddl", "--to", "jsonl", in)
	require.Equal(t, 1, code, stderr)
	require.True(t, strings.HasPrefix(stderr, "rowbridge decode: "+in+": "), stderr)
	require.Contains(t, stderr, "LZ4Block")
	require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)

	// From stdin there is no name to give.
	_, stderr, code = cli(t, []byte("not rows"), "decode", "--format", "unsaferow", "--codec", "lz4",
		"--schema", "id BIGINT", "--to", "jsonl")
	require.Equal(t, 1, code, stderr)
	require.True(t, strings.HasPrefix(stderr, "rowbridge decode: framing"), stderr)
}
