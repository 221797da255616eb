package casttest

import (
	"runtime/debug"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
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

// EachMemory runs run as subtest "zeroed" on a checked Go allocator and as
// "dirty" on testgen.DirtyAllocator over one (every byte handed out is
// 0xA5, as from a recycling allocator); each must end with nothing
// allocated.
func EachMemory(t *testing.T, run func(t *testing.T, mem memory.Allocator)) {
	t.Helper()
	for _, dirty := range []bool{false, true} {
		name := "zeroed"
		if dirty {
			name = "dirty"
		}
		t.Run(name, func(t *testing.T) {
			checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer checked.AssertSize(t, 0)
			var mem memory.Allocator = checked
			if dirty {
				mem = testgen.DirtyAllocator(checked)
			}
			run(t, mem)
		})
	}
}
