//go:build unix

package testgen

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time the process has used, every thread (the
// garbage collector's workers too), or 0 where the system cannot say.
// The benchmarks report it beside wall time: on a shared machine wall
// time counts the time other processes held the core, CPU time does not.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
