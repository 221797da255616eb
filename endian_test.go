package rowbridge_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// On a big-endian target the build fails, naming the reason, for this
// package and so for every package that loads row words natively (each
// depends on it).
func TestBigEndianBuildRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	env := append(os.Environ(), "GOOS=linux", "CGO_ENABLED=0")
	cmd := exec.Command(goCmd, "build", ".")
	cmd.Env = append(env, "GOARCH=s390x")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("GOARCH=s390x go build succeeded:\n%s", out)
	}
	if !strings.Contains(string(out), "rowbridge_supports_only_little_endian_machines") {
		t.Fatalf("GOARCH=s390x go build failed without naming the reason:\n%s", out)
	}

	// Every package that reads or writes row and Arrow bytes natively
	// imports this one, directly or not.
	for _, pkg := range []string{"./internal/columnar", "./compactrow", "./unsaferow", "./trycast", "./compute", "./bench"} {
		cmd := exec.Command(goCmd, "list", "-deps", pkg)
		cmd.Env = append(env, "GOARCH=s390x")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		if !slices.Contains(strings.Fields(string(out)), "github.com/rowbridge/rowbridge") {
			t.Errorf("%s does not depend on github.com/rowbridge/rowbridge, so a big-endian build of it is not refused", pkg)
		}
	}
}
