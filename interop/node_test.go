package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// jsDir is the Node project holding check.mjs, duck.mjs and node_modules.
func jsDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "js")
}

// requireNode finds node and the installed npm packages. CI must not pass
// by skipping: only ROWBRIDGE_SKIP_INTEROP=1 turns a missing peer into a skip.
func requireNode(t *testing.T) string {
	t.Helper()
	if os.Getenv("ROWBRIDGE_SKIP_INTEROP") == "1" {
		t.Skip("ROWBRIDGE_SKIP_INTEROP=1")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node not found (%v): install Node 20+ and run `npm ci --prefix interop/js`, or set ROWBRIDGE_SKIP_INTEROP=1", err)
	}
	for _, pkg := range []string{"apache-arrow", "@duckdb/duckdb-wasm"} {
		if _, err := os.Stat(filepath.Join(jsDir(t), "node_modules", pkg, "package.json")); err != nil {
			t.Fatalf("%s is not installed: run `npm ci --prefix interop/js` (or set ROWBRIDGE_SKIP_INTEROP=1)", pkg)
		}
	}
	return node
}

// runNode runs a script from jsDir on dir and returns its exit code and
// output. A failure to start or a timeout fails the test.
func runNode(t *testing.T, node, script, dir string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(jsDir(t), script), dir)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	t.Logf("node %s: %v", script, time.Since(start).Round(time.Millisecond))
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && ctx.Err() == nil:
		code = exit.ExitCode()
	default:
		t.Fatalf("node %s: %v\n%s", script, err, errb.String())
	}
	return code, out.String(), errb.String()
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// jsCase is one entry of check.mjs's manifest.
type jsCase struct {
	Name      string `json:"name"`
	Stream    string `json:"stream"`
	File      string `json:"file"`
	Expect    string `json:"expect"`
	OutStream string `json:"outStream,omitempty"`
	OutFile   string `json:"outFile,omitempty"`
}

type jsReport struct {
	Cases []struct {
		Name   string   `json:"name"`
		OK     bool     `json:"ok"`
		Errors []string `json:"errors"`
	} `json:"cases"`
}

func readReport(t *testing.T, dir string) jsReport {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatalf("check.mjs wrote no report: %v", err)
	}
	var r jsReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}
