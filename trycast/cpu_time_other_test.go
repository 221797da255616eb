//go:build !linux

package trycast

// processCPU is not measured outside Linux.
func processCPU() (int64, bool) { return 0, false }
