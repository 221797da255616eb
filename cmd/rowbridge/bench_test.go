package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const benchFilter = "--filter=^deserialize/strings1/(builder|unsafe)_deserialize_strings1$"

func TestBenchTableAndPNG(t *testing.T) {
	png := filepath.Join(t.TempDir(), "bench.png")
	out, stderr, code := cli(t, nil, "bench", benchFilter, "--time=5ms", "--cpu=1", "--plot", png)
	require.Equal(t, 0, code, stderr)
	text := string(out)
	assert.Contains(t, text, "deserialize/strings1")
	assert.Contains(t, text, "velox ns/row")
	lines := strings.Split(text, "\n")
	var unsafe []string
	for _, l := range lines {
		if strings.HasPrefix(l, "unsafe_deserialize_strings1 ") {
			unsafe = strings.Fields(l)
		}
	}
	// name, time, relative, rows/s, ns/row, cpu ns/row, velox, bytes/row (80: docs/velox-benchmarks.md, "Row serde: encoded sizes"), B, allocs
	require.Len(t, unsafe, 10, text)
	assert.True(t, strings.HasSuffix(unsafe[2], "%"), unsafe[2])
	assert.Equal(t, "33.9", unsafe[6])
	assert.Equal(t, "80.0", unsafe[7])
	assert.NotContains(t, text, "compact_", "the filter keeps two cases")

	img, err := os.ReadFile(png)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(img, []byte("\x89PNG\r\n\x1a\n")), "PNG magic")
	assert.Greater(t, len(img), 1000)
}

func TestBenchJSONAndSVG(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "bench.svg")
	out, stderr, code := cli(t, nil, "bench", benchFilter, "--time=5ms", "--json", "--plot="+svg)
	require.Equal(t, 0, code, stderr)
	var results []struct {
		Name      string  `json:"name"`
		NsPerRow  float64 `json:"ns_per_row"`
		Reference string  `json:"reference"`
		Rows      int     `json:"rows_per_iter"`
	}
	require.NoError(t, json.Unmarshal(out, &results))
	require.Len(t, results, 2)
	for _, r := range results {
		assert.Positive(t, r.NsPerRow, r.Name)
		assert.Equal(t, 1000, r.Rows)
		assert.Equal(t, "builder_deserialize_strings1", r.Reference)
	}
	img, err := os.ReadFile(svg)
	require.NoError(t, err)
	assert.Contains(t, string(img), "<svg")
	assert.Contains(t, string(img), "strings1")
}

func TestBenchUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--filter=("},
		{"bench", "--filter=no-such-case"},
		{"bench", "--plot=out.jpg"},
		{"bench", "--time=0s"},
		{"bench", "--cpu=-1"},
		{"bench", "extra"},
	} {
		_, stderr, code := cli(t, nil, args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, stderr)
		assert.Contains(t, stderr, "rowbridge bench:", args)
	}
	dir := t.TempDir()
	_, _, code := cli(t, nil, "bench", benchFilter, "--time=1ms", "--plot="+filepath.Join(dir, "x.jpg"))
	assert.Equal(t, exitUsage, code)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "no file for a refused plot name")
}
