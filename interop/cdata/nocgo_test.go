//go:build !cgo

package cdata

import (
	"os"
	"testing"
)

// Without cgo the C Data Interface tests do not build. The suite must not
// pass by leaving them out: this test fails unless the interop tests were
// skipped on purpose.
func TestCgoAvailable(t *testing.T) {
	if os.Getenv("ROWBRIDGE_SKIP_INTEROP") == "1" {
		t.Skip("ROWBRIDGE_SKIP_INTEROP=1")
	}
	t.Fatal("cgo is disabled, so the C Data Interface tests cannot run: install gcc (CGO_ENABLED=1), or set ROWBRIDGE_SKIP_INTEROP=1")
}
