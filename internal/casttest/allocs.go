package casttest

import (
	"runtime/debug"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// CountAllocs readies t for counting allocations: it skips t in -short
// runs and turns the garbage collector off until t ends, since a
// collection during a run allocates on its own account.
func CountAllocs(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("allocation counts need full runs")
	}
	gc := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(gc) })
}

// Strings is an n-row utf8 array of f(0) ... f(n-1).
func Strings(mem memory.Allocator, n int, f func(int) string) arrow.Array {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	for i := 0; i < n; i++ {
		b.Append(f(i))
	}
	return b.NewArray()
}
