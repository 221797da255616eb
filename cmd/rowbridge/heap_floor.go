package main

import (
	"os"
	"runtime"
)

// heapFloorSize is the heap below which a command that streams batches
// does not collect garbage (see holdHeapFloor).
const heapFloorSize = 64 << 20

// holdHeapFloor allocates heapFloorSize bytes that are never touched and
// keeps them live until the function it returns is called, so that the
// garbage collector, which runs when the heap has grown by GOGC percent
// of what the last collection found live, first runs at about twice that
// size. The bytes cost address space, not memory: fresh from the kernel,
// they are neither zeroed nor written, and no page of them is faulted in.
//
// A streaming read keeps little live (a few batches per worker, their
// buffers recycled), but it starts from a heap of a few MB, where Go
// collects every few MB allocated: two or three collections in the
// first tens of milliseconds of a shuffle decode, each taking a core's
// quarter from the workers while it marks, slowing the allocations of
// the workers with assists and, as it sweeps, faulting in fresh runtime
// memory whose page-table changes interrupt the other core. A user who
// sets GOGC or GOMEMLIMIT keeps what they set.
func holdHeapFloor() (release func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	floor := make([]byte, heapFloorSize)
	return func() { runtime.KeepAlive(floor) }
}
