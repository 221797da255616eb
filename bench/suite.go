package bench

import "github.com/apache/arrow-go/v18/arrow/memory"

// Case is one benchmark, in a form both `go test -bench` and a command line
// timer can run: Setup builds the inputs once, run does the measured work
// once per call, cleanup releases the inputs.
type Case struct {
	// Group gathers cases measured against each other (e.g. "cast_int").
	Group string
	// Name is the case within its group (e.g. "try_cast(valid)").
	Name string
	// Rows is how many rows one run call processes, for ns/row figures.
	Rows int
	// Setup allocates the inputs from mem and returns the measured function
	// and the function releasing what Setup allocated.
	Setup func(mem memory.Allocator) (run func() error, cleanup func())
}
