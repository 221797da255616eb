//go:build unix

package compactrow

import "syscall"

// processCPUTime is the user+system CPU time of the process in
// nanoseconds. The benchmarks report it next to wall time because the
// machine they run on is shared: wall time there includes waiting.
func processCPUTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
