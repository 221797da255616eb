//go:build benchprofile

package main

// Built with -tags benchprofile, rowbridge writes a CPU profile of the
// whole process to the file named by ROWBRIDGE_CPUPROFILE (the benchmark
// scripts' PROFILE=DIR uses it). A release build has no such hook.

import (
	"fmt"
	"os"
	"runtime/pprof"
)

var profileFile *os.File

func init() {
	name := os.Getenv("ROWBRIDGE_CPUPROFILE")
	if name == "" {
		return
	}
	f, err := os.Create(name)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rowbridge: cpu profile: %v\n", err)
		return
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "rowbridge: cpu profile: %v\n", err)
		f.Close()
		return
	}
	profileFile = f
}

// stopProfile ends the CPU profile started at init, if any.
func stopProfile() {
	if profileFile == nil {
		return
	}
	pprof.StopCPUProfile()
	profileFile.Close()
	profileFile = nil
}
