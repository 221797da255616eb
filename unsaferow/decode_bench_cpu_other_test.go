//go:build !unix

package unsaferow

func processCPUTime() int64 { return 0 }
