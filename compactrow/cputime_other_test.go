//go:build !unix

package compactrow

// processCPUTime is unavailable here; the benchmarks then report wall time only.
func processCPUTime() int64 { return 0 }
