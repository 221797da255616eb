package main

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVersionLine(t *testing.T) {
	info := &debug.BuildInfo{
		GoVersion: "go1.26.0",
		Main:      debug.Module{Path: "github.com/rowbridge/rowbridge", Version: "v1.2.0"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "4e04026c1a2b3c4d5e6f708192a3b4c5d6e7f809"},
			{Key: "vcs.time", Value: "2026-12-01T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	require.Equal(t, "rowbridge v1.2.0 (github.com/rowbridge/rowbridge, revision 4e04026c1a2b3c4d5e6f708192a3b4c5d6e7f809, 2026-12-01T10:00:00Z, modified, go1.26.0)", versionLine(info))

	info.Settings[3].Value = "false"
	require.Equal(t, "rowbridge v1.2.0 (github.com/rowbridge/rowbridge, revision 4e04026c1a2b3c4d5e6f708192a3b4c5d6e7f809, 2026-12-01T10:00:00Z, go1.26.0)", versionLine(info))

	// A build from a checkout without a VCS stamp (go build -buildvcs=false).
	info = &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/rowbridge/rowbridge", Version: "(devel)"}}
	require.Equal(t, "rowbridge (devel) (github.com/rowbridge/rowbridge, no VCS revision recorded, go1.26.0)", versionLine(info))
	info.Main.Version = ""
	require.Equal(t, "rowbridge (devel) (github.com/rowbridge/rowbridge, no VCS revision recorded, go1.26.0)", versionLine(info))

	require.Equal(t, "rowbridge (unknown version: built without module information)", versionLine(nil))
}

// Both spellings print the running binary's line, one line, exit 0.
func TestVersionCommand(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	require.True(t, ok)
	want := versionLine(info) + "\n"
	require.True(t, strings.HasPrefix(want, "rowbridge "), want)
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		out, stderr, code := cli(t, nil, args...)
		require.Equal(t, 0, code, stderr)
		require.Empty(t, stderr)
		require.Equal(t, want, string(out), args)
	}
	requireFailures(t, "version", []cliFailure{
		{"argument", nil, []string{"now"}, 2, "rowbridge version: takes no arguments, got 1 (see 'rowbridge version -h')"},
	})
	out, _, code := cli(t, nil, "help")
	require.Equal(t, 0, code)
	require.Contains(t, string(out), "  version    print the module version and the VCS revision rowbridge was built from (also: rowbridge --version)\n")
}
