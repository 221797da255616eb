//go:build !unix

package testgen

import "time"

// ProcessCPU is unknown here: the benchmarks then report wall time only.
func ProcessCPU() time.Duration { return 0 }
