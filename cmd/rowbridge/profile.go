//go:build benchprofile

package main

// Built with -tags benchprofile, rowbridge writes a CPU profile of the
// whole process to the file named by ROWBRIDGE_CPUPROFILE and an execution
// trace (go tool trace) to ROWBRIDGE_EXECTRACE. A release build has no
// such hook.

import (
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

var profileFile, traceFile *os.File

func init() {
	if name := os.Getenv("ROWBRIDGE_EXECTRACE"); name != "" {
		f, err := os.Create(name)
		if err == nil && trace.Start(f) == nil {
			traceFile = f
		} else if err == nil {
			f.Close()
		}
	}
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

// stopProfile ends the CPU profile and the trace started at init, if any.
func stopProfile() {
	if traceFile != nil {
		trace.Stop()
		traceFile.Close()
		traceFile = nil
	}
	if profileFile == nil {
		return
	}
	pprof.StopCPUProfile()
	profileFile.Close()
	profileFile = nil
}
