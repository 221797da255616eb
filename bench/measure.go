package bench

import (
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// Result is one case's measurement, with what the report shows beside it.
type Result struct {
	Group      string  `json:"group"`
	Name       string  `json:"name"`
	Rows       int     `json:"rows_per_iter"`
	Iterations int     `json:"iterations"`
	NsPerOp    float64 `json:"ns_per_iter"`
	NsPerRow   float64 `json:"ns_per_row"`
	// CPUNsPerRow is the process CPU time (every thread, GC workers
	// included) per row: on a loaded machine a steadier figure than
	// NsPerRow, on an idle one a little above it when the GC runs beside
	// the benchmark.
	CPUNsPerRow float64 `json:"cpu_ns_per_row,omitempty"`
	RowsPerSec  float64 `json:"rows_per_sec"`
	// Heap bytes and allocations per iteration, as go test -benchmem counts them.
	BytesPerOp  float64 `json:"bytes_per_iter"`
	AllocsPerOp float64 `json:"allocs_per_iter"`
	// Reference is the case of the group the others are compared with;
	// Relative is its time divided by this case's, in percent (folly's
	// relative column: above 100 is faster than the reference).
	Reference string  `json:"reference,omitempty"`
	Relative  float64 `json:"relative_percent,omitempty"`
	// VeloxNsPerRow is Velox's published figure for the same work, if any.
	VeloxNsPerRow float64 `json:"velox_ns_per_row,omitempty"`
	// EncodedBytesPerRow is the mean size of the rows a row case reads or writes.
	EncodedBytesPerRow float64 `json:"encoded_bytes_per_row,omitempty"`
}

// RunOptions says what Run measures and how long.
type RunOptions struct {
	// Target is roughly how long each case is timed (200ms if zero).
	Target time.Duration
	// Filter, if set, keeps the cases whose "group/name" it matches.
	Filter *regexp.Regexp
	// Progress, if set, gets one line per case as it finishes.
	Progress io.Writer
}

// DefaultTarget is how long Run times a case unless told otherwise.
const DefaultTarget = 200 * time.Millisecond

// Select returns the cases opts.Filter keeps.
func Select(cases []Case, filter *regexp.Regexp) []Case {
	if filter == nil {
		return cases
	}
	var out []Case
	for _, c := range cases {
		if filter.MatchString(c.Group + "/" + c.Name) {
			out = append(out, c)
		}
	}
	return out
}

// Run measures every selected case in order with memory.DefaultAllocator
// and fills in the comparison columns. It stops at the first case that
// fails.
func Run(cases []Case, opts RunOptions) ([]Result, error) {
	target := opts.Target
	if target <= 0 {
		target = DefaultTarget
	}
	var results []Result
	for _, c := range Select(cases, opts.Filter) {
		r, err := Measure(c, memory.DefaultAllocator, target)
		if err != nil {
			return results, err
		}
		if v, ok := VeloxNsPerRow(c); ok {
			r.VeloxNsPerRow = v
		}
		if rc, ok := ParseRowCase(c); ok {
			if b, err := rc.BytesPerRow(); err == nil {
				r.EncodedBytesPerRow = b
			}
		}
		results = append(results, r)
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "%-60s %12s/iter\n", c.Group+"/"+c.Name, formatNs(r.NsPerOp))
		}
	}
	compareToReferences(results)
	return results, nil
}

// Epochs is how many timed rounds Measure runs per case; like folly, it
// reports the fastest, which discards rounds another process slowed down.
const Epochs = 4

// Measure times c: one untimed warm-up call, then rounds of growing
// iteration counts until a round lasts target/Epochs, then Epochs-1 more
// rounds of that many iterations. Every round starts after a GC, so it
// pays for the garbage it makes. The fastest round is reported.
func Measure(c Case, mem memory.Allocator, target time.Duration) (Result, error) {
	run, cleanup := c.Setup(mem)
	defer cleanup()
	name := c.Group + "/" + c.Name
	if err := run(); err != nil {
		return Result{}, fmt.Errorf("%s: %w", name, err)
	}
	round := func(n int) (Result, error) {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		cpu0, start := testgen.ProcessCPU(), time.Now()
		for range n {
			if err := run(); err != nil {
				return Result{}, fmt.Errorf("%s: %w", name, err)
			}
		}
		elapsed, cpu := time.Since(start), testgen.ProcessCPU()-cpu0
		runtime.ReadMemStats(&after)
		r := newResult(c, n, elapsed, after.TotalAlloc-before.TotalAlloc, after.Mallocs-before.Mallocs)
		if cpu > 0 && c.Rows > 0 {
			r.CPUNsPerRow = float64(cpu.Nanoseconds()) / float64(n) / float64(c.Rows)
		}
		return r, nil
	}
	epoch := max(target/Epochs, 1)
	n := 1
	var best Result
	for {
		r, err := round(n)
		if err != nil {
			return Result{}, err
		}
		if elapsed := time.Duration(r.NsPerOp * float64(n)); elapsed < epoch && n < maxIterations {
			n = nextIterations(n, elapsed, epoch)
			continue
		}
		best = r
		break
	}
	for range Epochs - 1 {
		r, err := round(n)
		if err != nil {
			return Result{}, err
		}
		if r.NsPerOp < best.NsPerOp {
			best = r
		}
	}
	return best, nil
}

const maxIterations = 1_000_000_000

// nextIterations predicts how many iterations fill target (with 20% to
// spare), growing at least by one and at most a hundredfold per round, as
// go test does.
func nextIterations(n int, elapsed, target time.Duration) int {
	perOp := max(elapsed.Nanoseconds()/int64(n), 1)
	next := int(target.Nanoseconds() * 6 / 5 / perOp)
	return min(max(next, n+1), 100*n, maxIterations)
}

func newResult(c Case, n int, elapsed time.Duration, bytes, allocs uint64) Result {
	ns := float64(elapsed.Nanoseconds()) / float64(n)
	r := Result{
		Group:       c.Group,
		Name:        c.Name,
		Rows:        c.Rows,
		Iterations:  n,
		NsPerOp:     ns,
		BytesPerOp:  float64(bytes) / float64(n),
		AllocsPerOp: float64(allocs) / float64(n),
	}
	if c.Rows > 0 && ns > 0 {
		r.NsPerRow = ns / float64(c.Rows)
		r.RowsPerSec = 1e9 / r.NsPerRow
	}
	return r
}

// compareToReferences sets Reference and Relative for every result whose
// group's reference was measured.
func compareToReferences(results []Result) {
	byGroup := map[string][]int{}
	var order []string
	for i, r := range results {
		if _, seen := byGroup[r.Group]; !seen {
			order = append(order, r.Group)
		}
		byGroup[r.Group] = append(byGroup[r.Group], i)
	}
	for _, g := range order {
		idx := byGroup[g]
		names := make([]string, len(idx))
		for j, i := range idx {
			names[j] = results[i].Name
		}
		ref := ReferenceName(g, names)
		if ref == "" {
			continue
		}
		nsOf := map[string]float64{}
		for _, i := range idx {
			nsOf[results[i].Name] = results[i].NsPerOp
		}
		for _, i := range idx {
			// A decoder on the recycling allocator is compared with the
			// builder on the same allocator, so the ratio is about decoding.
			r := ref
			if strings.HasSuffix(results[i].Name, suffixRecycled) && nsOf[ref+suffixRecycled] > 0 {
				r = ref + suffixRecycled
			}
			results[i].Reference = r
			results[i].Relative = 100 * nsOf[r] / results[i].NsPerOp
		}
	}
}

// castReference is the cast every cast group is compared with.
const castReference = "try_cast(valid)"

// ReferenceName picks the case a group is compared with: try_cast(valid)
// in a cast group, the builder baseline with Setup's allocator in a
// deserialize group, the row-at-a-time encoder in a serialize group, the
// group's first case otherwise. It returns "" when
// the group's reference is not among names.
func ReferenceName(group string, names []string) string {
	want := ""
	switch {
	case strings.HasPrefix(group, "cast"):
		want = castReference
	case strings.HasPrefix(group, OpDeserialize+"/"):
		want = rowCaseName(ImplBuilder, OpDeserialize, strings.TrimPrefix(group, OpDeserialize+"/"), false)
	case strings.HasPrefix(group, OpSerialize+"/"):
		want = rowCaseName(ImplBuilder, OpSerialize, strings.TrimPrefix(group, OpSerialize+"/"), false)
	case len(names) > 0:
		return names[0]
	}
	for _, n := range names {
		if n == want {
			return n
		}
	}
	return ""
}
