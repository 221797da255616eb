package main

import (
	"flag"
	"fmt"
	"runtime/debug"
	"strings"
)

func init() {
	register(&command{
		name:     "version",
		summary:  "print the module version and the VCS revision rowbridge was built from (also: rowbridge --version)",
		examples: []string{`rowbridge version`, `rowbridge --version   # the same line`},
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			return func(e *env, args []string) error {
				if len(args) > 0 {
					return usagef("takes no arguments, got %d", len(args))
				}
				info, _ := debug.ReadBuildInfo()
				_, err := fmt.Fprintln(e.stdout, versionLine(info))
				return err
			}
		},
	})
}

// versionLine describes a build in one line:
//
//	rowbridge v1.2.0 (github.com/rowbridge/rowbridge, revision 4e04026c1a2b, 2026-12-01T10:00:00Z, modified, go1.26.0)
//
// The version is the module's ("(devel)" for a build from a checkout); the
// revision, its time and "modified" (uncommitted changes) come from the VCS
// stamp that go build records, and are left out when there is none
// (-buildvcs=false, or a build outside a repository).
func versionLine(info *debug.BuildInfo) string {
	if info == nil {
		return "rowbridge (unknown version: built without module information)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	parts := []string{}
	if info.Main.Path != "" {
		parts = append(parts, info.Main.Path)
	}
	var revision, at string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if revision != "" {
		parts = append(parts, "revision "+revision)
	} else {
		parts = append(parts, "no VCS revision recorded")
	}
	if at != "" {
		parts = append(parts, at)
	}
	if modified {
		parts = append(parts, "modified")
	}
	if info.GoVersion != "" {
		parts = append(parts, info.GoVersion)
	}
	return "rowbridge " + version + " (" + strings.Join(parts, ", ") + ")"
}
