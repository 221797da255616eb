package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteTable prints results as folly-style tables, one per group in the
// order the groups first appear: time per iteration, relative to the
// group's reference (blank for the reference itself and where it was not
// measured), rows per second, ns per row (wall clock and process CPU),
// Velox's ns per row and the encoded bytes per row where known, and heap
// bytes and allocations per iteration.
func WriteTable(w io.Writer, results []Result) error {
	header := []string{"time/iter", "relative", "rows/s", "ns/row", "cpu ns/row", "velox ns/row", "bytes/row", "B/iter", "allocs/iter"}
	nameWidth := 40
	for _, r := range results {
		nameWidth = max(nameWidth, len(r.Name), len(r.Group))
	}
	widths := []int{10, 9, 9, 8, 10, 12, 9, 9, 11}
	lineLen := nameWidth
	for _, wd := range widths {
		lineLen += 2 + wd
	}
	rule := strings.Repeat("=", lineLen)

	var b strings.Builder
	for gi, g := range groupsInOrder(results) {
		if gi > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(rule + "\n")
		fmt.Fprintf(&b, "%-*s", nameWidth, g)
		for i, h := range header {
			fmt.Fprintf(&b, "  %*s", widths[i], h)
		}
		b.WriteString("\n" + rule + "\n")
		for _, r := range results {
			if r.Group != g {
				continue
			}
			cells := []string{
				formatNs(r.NsPerOp),
				formatRelative(r),
				formatCount(r.RowsPerSec),
				formatFloat(r.NsPerRow),
				formatFloat(r.CPUNsPerRow),
				formatFloat(r.VeloxNsPerRow),
				formatFloat(r.EncodedBytesPerRow),
				formatCount(r.BytesPerOp),
				formatAllocs(r.AllocsPerOp),
			}
			fmt.Fprintf(&b, "%-*s", nameWidth, r.Name)
			for i, c := range cells {
				fmt.Fprintf(&b, "  %*s", widths[i], c)
			}
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes results as one indented JSON array.
func WriteJSON(w io.Writer, results []Result) error {
	if results == nil {
		results = []Result{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(results)
}

func groupsInOrder(results []Result) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range results {
		if !seen[r.Group] {
			seen[r.Group] = true
			out = append(out, r.Group)
		}
	}
	return out
}

func formatRelative(r Result) string {
	if r.Reference == "" || r.Reference == r.Name {
		return ""
	}
	return fmt.Sprintf("%.1f%%", r.Relative)
}

// formatNs prints a duration in ns, us, ms or s with four significant
// digits, as folly does.
func formatNs(ns float64) string {
	switch {
	case ns < 1e3:
		return fmt.Sprintf("%.2fns", ns)
	case ns < 1e6:
		return fmt.Sprintf("%.2fus", ns/1e3)
	case ns < 1e9:
		return fmt.Sprintf("%.2fms", ns/1e6)
	}
	return fmt.Sprintf("%.3fs", ns/1e9)
}

// formatCount prints a count with a K, M or G suffix.
func formatCount(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v < 1e3:
		return fmt.Sprintf("%.0f", v)
	case v < 1e6:
		return fmt.Sprintf("%.2fK", v/1e3)
	case v < 1e9:
		return fmt.Sprintf("%.2fM", v/1e6)
	}
	return fmt.Sprintf("%.2fG", v/1e9)
}

// formatFloat prints v with one decimal, blank when it is unknown (zero).
func formatFloat(v float64) string {
	if v == 0 || math.IsNaN(v) {
		return ""
	}
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// formatAllocs prints allocations per iteration: whole numbers from 10 on,
// one decimal below (a GC's own few allocations spread over many
// iterations round away); zero is a result here, not a blank.
func formatAllocs(v float64) string {
	if v >= 10 {
		return strconv.FormatFloat(math.Round(v), 'f', -1, 64)
	}
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}
