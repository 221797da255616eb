package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rowbridge/rowbridge/sparkshuffle"
)

var shuffleLsCommand = &command{
	name:    "shuffle ls",
	summary: "list the shuffles in Spark local dirs: map outputs, partition sizes, skew, codec, checksums",
	usage:   "[--json] [--checksum verify|ignore] DIR...",
	examples: []string{
		`rowbridge shuffle ls testdata/sample/shuffle`,
		`rowbridge shuffle ls --json testdata/sample/shuffle   # a JSON document for scripts (docs/shuffle.md), every partition's bytes`,
		`rowbridge shuffle ls --checksum ignore /data/spark-local-1 /data/spark-local-2   # quick: no segment is read`,
	},
	flags: shuffleLsFlags,
}

// Listing status of a shuffle's checksums (the JSON "status").
const (
	checksumsVerified  = "verified"  // every segment with a checksum matches it
	checksumsMismatch  = "mismatch"  // some segment does not (or could not be read)
	checksumsNone      = "none"      // no map output has a checksum file
	checksumsUnchecked = "unchecked" // --checksum ignore
)

// listingVersion is the version of the --json document; it changes only
// when a field changes meaning or goes away (fields may be added).
const listingVersion = 1

// shuffleListing is the --json document of shuffle ls.
type shuffleListing struct {
	Version  int              `json:"version"`
	Dirs     []string         `json:"dirs"`
	Shuffles []shuffleSummary `json:"shuffles"`
}

type shuffleSummary struct {
	ID              int     `json:"id"`
	Partitions      int     `json:"partitions"`
	Bytes           int64   `json:"bytes"`
	EmptyPartitions int     `json:"empty_partitions"`
	PartitionBytes  []int64 `json:"partition_bytes"`
	// Skew is the largest partition's bytes over the median's, 0 when the
	// median is 0 bytes.
	Skew                 float64 `json:"skew"`
	LargestPartition     int     `json:"largest_partition"` // -1 without partitions
	MedianPartitionBytes float64 `json:"median_partition_bytes"`
	// Codec is the codec sniffed from the segments' first bytes (lz4,
	// snappy, zstd, lzf, none), null when the shuffle has no bytes or the
	// bytes name no codec (then CodecError says why).
	Codec      *string         `json:"codec"`
	CodecError string          `json:"codec_error,omitempty"`
	Checksums  checksumSummary `json:"checksums"`
	Maps       []mapSummary    `json:"maps"`
}

type checksumSummary struct {
	Status     string            `json:"status"`     // verified, mismatch, none or unchecked
	Algorithms []string          `json:"algorithms"` // of the checksum files, [] when none
	Maps       int               `json:"maps"`       // map outputs with a checksum file
	Segments   int               `json:"segments"`   // segments checked (0 when unchecked)
	Failures   []checksumFailure `json:"failures"`
}

type checksumFailure struct {
	Map          int64  `json:"map"`
	Partition    int    `json:"partition"`
	File         string `json:"file"`
	ChecksumFile string `json:"checksum_file"`
	Want         *int64 `json:"want"` // null when the segment could not be read
	Got          *int64 `json:"got"`
	Message      string `json:"message"`
}

type mapSummary struct {
	Map                int64   `json:"map"`
	Bytes              int64   `json:"bytes"`
	NonEmptyPartitions int     `json:"nonempty_partitions"`
	Index              string  `json:"index"`
	Data               *string `json:"data"`          // null when there is no data file
	ChecksumFile       *string `json:"checksum_file"` // null when there is none
	Algorithm          *string `json:"algorithm"`     // null without a checksum file
	PartitionBytes     []int64 `json:"partition_bytes"`
}

func shuffleLsFlags(fs *flag.FlagSet) func(*env, []string) error {
	var (
		jsonOut  bool
		checksum string
	)
	fs.BoolVar(&jsonOut, "json", false, "print a JSON document (see docs/shuffle.md) instead of the table")
	fs.StringVar(&checksum, "checksum", "verify", "verify (read every segment of the map outputs with checksum files and check it) or ignore")
	return func(e *env, args []string) error {
		policy, err := checksumPolicy(checksum)
		if err != nil {
			return err
		}
		set, err := openShuffles(args)
		if err != nil {
			return err
		}
		listing := shuffleListing{Version: listingVersion, Dirs: args, Shuffles: []shuffleSummary{}}
		var problems []error
		for _, sh := range set.Shuffles() {
			s, errs := summarize(sh, policy == sparkshuffle.Verify)
			listing.Shuffles = append(listing.Shuffles, s)
			problems = append(problems, errs...)
		}
		o, err := createOutput(e, "-o", "")
		if err != nil {
			return err
		}
		if jsonOut {
			enc := json.NewEncoder(o)
			enc.SetIndent("", "  ")
			err = enc.Encode(listing)
		} else {
			err = writeListing(o, listing)
		}
		if err = o.finish(err); err != nil {
			return err
		}
		if len(listing.Shuffles) == 0 {
			// A mistyped folder must not pass in a script: exit 1, as
			// shuffle decode does on the same folder.
			return fmt.Errorf("no shuffle files in %s", strings.Join(args, ", "))
		}
		if len(problems) > 0 {
			return fmt.Errorf("%d problem%s found (listed above); the first: %w", len(problems), plural(len(problems)), problems[0])
		}
		return nil
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// summarize lists sh, verifying its checksums when verify is set. The
// errors are what the listing reports as problems: a codec the segments
// do not name, checksum mismatches, segments that could not be read.
func summarize(sh *sparkshuffle.Shuffle, verify bool) (shuffleSummary, []error) {
	s := shuffleSummary{ID: sh.ID, Partitions: sh.Partitions, Bytes: sh.Size(), PartitionBytes: sh.PartitionSizes(), Skew: sh.Skew(), LargestPartition: -1}
	for p, n := range s.PartitionBytes {
		if n == 0 {
			s.EmptyPartitions++
		}
		if s.LargestPartition < 0 || n > s.PartitionBytes[s.LargestPartition] {
			s.LargestPartition = p
		}
	}
	if sorted := slices.Sorted(slices.Values(s.PartitionBytes)); len(sorted) > 0 {
		n := len(sorted)
		s.MedianPartitionBytes = float64(sorted[n/2])
		if n%2 == 0 {
			s.MedianPartitionBytes = (float64(sorted[n/2-1]) + float64(sorted[n/2])) / 2
		}
	}
	var problems []error
	if s.Bytes > 0 {
		codec, err := sh.SniffCodec()
		if err != nil {
			s.CodecError = oneLine(err.Error())
			problems = append(problems, err)
		} else {
			name := codec.String()
			s.Codec = &name
		}
	}
	s.Checksums = checksumSummary{Algorithms: []string{}, Failures: []checksumFailure{}}
	for _, a := range sh.Algorithms() {
		s.Checksums.Algorithms = append(s.Checksums.Algorithms, a.String())
	}
	for _, m := range sh.Maps {
		ms := mapSummary{Map: m.Map, Bytes: m.Size(), Index: m.IndexPath, PartitionBytes: make([]int64, m.Partitions())}
		for p := range ms.PartitionBytes {
			ms.PartitionBytes[p] = m.SegmentSize(p)
			if ms.PartitionBytes[p] > 0 {
				ms.NonEmptyPartitions++
			}
		}
		ms.Data = optional(m.DataPath)
		ms.ChecksumFile = optional(m.ChecksumPath)
		if m.Checksums != nil {
			ms.Algorithm = optional(m.Algorithm.String())
			s.Checksums.Maps++
		}
		s.Maps = append(s.Maps, ms)
	}
	switch {
	case s.Checksums.Maps == 0:
		s.Checksums.Status = checksumsNone
	case !verify:
		s.Checksums.Status = checksumsUnchecked
	default:
		s.Checksums.Status = checksumsVerified
		s.Checksums.Segments = s.Checksums.Maps * sh.Partitions
		for _, err := range unjoin(sh.VerifyChecksums()) {
			s.Checksums.Status = checksumsMismatch
			s.Checksums.Failures = append(s.Checksums.Failures, checksumFailureOf(err))
			problems = append(problems, err)
		}
	}
	return s, problems
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// unjoin splits what errors.Join made.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func checksumFailureOf(err error) checksumFailure {
	f := checksumFailure{Message: oneLine(err.Error())}
	var ce *sparkshuffle.ChecksumError
	var se *sparkshuffle.SegmentError
	switch {
	case errors.As(err, &ce):
		f.Map, f.Partition, f.File, f.ChecksumFile = ce.Map, ce.Partition, ce.Path, ce.Checksum
		f.Want, f.Got = &ce.Want, &ce.Got
	case errors.As(err, &se):
		f.Map, f.Partition, f.File = se.Map, se.Partition, se.Path
	}
	return f
}

// Above these counts the table summarises partitions and maps; --json
// lists every one.
const (
	listPartitions = 16
	listMaps       = 16
)

// writeListing writes the listing as text for people.
func writeListing(w io.Writer, l shuffleListing) error {
	var b strings.Builder
	for i, s := range l.Shuffles {
		if i > 0 {
			b.WriteByte('\n')
		}
		writeShuffleText(&b, s)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeShuffleText(b *strings.Builder, s shuffleSummary) {
	empty := ""
	if s.EmptyPartitions > 0 {
		empty = fmt.Sprintf(" (%d empty)", s.EmptyPartitions)
	}
	fmt.Fprintf(b, "shuffle %d: %d map output%s, %d partition%s%s, %s\n", s.ID, len(s.Maps), plural(len(s.Maps)), s.Partitions, plural(s.Partitions), empty, formatBytes(s.Bytes))
	codec := "- (no bytes)"
	switch {
	case s.Codec != nil:
		codec = *s.Codec
	case s.CodecError != "":
		codec = "UNKNOWN: " + s.CodecError
	}
	fmt.Fprintf(b, "  codec:       %s\n", codec)
	fmt.Fprintf(b, "  checksums:   %s\n", checksumText(s))
	switch {
	case s.Skew > 0:
		fmt.Fprintf(b, "  skew:        %.2f (largest partition %d: %s; median %s)\n", s.Skew, s.LargestPartition, formatBytes(s.PartitionBytes[s.LargestPartition]), formatBytes(int64(s.MedianPartitionBytes)))
	case s.Partitions == 0:
		fmt.Fprintf(b, "  skew:        - (no partitions)\n")
	default:
		fmt.Fprintf(b, "  skew:        - (the median partition is empty)\n")
	}
	fmt.Fprintf(b, "  partitions:  %s\n", partitionsText(s))
	t := textTable{header: []string{"map", "partitions", "bytes", "data file"}, right: []bool{true, true, true, false}}
	for i, m := range s.Maps {
		if i == listMaps && len(s.Maps) > listMaps+1 {
			fmt.Fprintf(b, "%s", t.render("  "))
			fmt.Fprintf(b, "  … %d more map outputs (--json lists every one)\n", len(s.Maps)-listMaps)
			return
		}
		file := "none (every partition empty)"
		if m.Data != nil {
			file = *m.Data
		}
		t.rows = append(t.rows, []string{fmt.Sprint(m.Map), fmt.Sprintf("%d of %d", m.NonEmptyPartitions, len(m.PartitionBytes)), formatBytes(m.Bytes), file})
	}
	fmt.Fprintf(b, "%s", t.render("  "))
}

func checksumText(s shuffleSummary) string {
	c := s.Checksums
	algs := strings.Join(c.Algorithms, ", ")
	if c.Maps < len(s.Maps) && c.Maps > 0 {
		algs += fmt.Sprintf(" (%d of %d map outputs have a checksum file)", c.Maps, len(s.Maps))
	}
	switch c.Status {
	case checksumsNone:
		return "none (no checksum files)"
	case checksumsUnchecked:
		return algs + ", not verified (--checksum ignore)"
	case checksumsVerified:
		return fmt.Sprintf("%s, all %d segments verify", algs, c.Segments)
	}
	f := c.Failures[0]
	return fmt.Sprintf("%s, %d of %d segments FAIL (first: map %d, partition %d)", algs, len(c.Failures), c.Segments, f.Map, f.Partition)
}

// partitionsText lists every partition's bytes, or for many partitions
// summarises them: the spread and the largest three.
func partitionsText(s shuffleSummary) string {
	if len(s.PartitionBytes) == 0 {
		return "none"
	}
	if len(s.PartitionBytes) <= listPartitions {
		parts := make([]string, len(s.PartitionBytes))
		for p, n := range s.PartitionBytes {
			parts[p] = fmt.Sprintf("%d: %s", p, formatBytes(n))
		}
		return strings.Join(parts, ", ")
	}
	order := make([]int, len(s.PartitionBytes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(s.PartitionBytes[b], s.PartitionBytes[a])
	})
	var largest []string
	for _, p := range order[:3] {
		largest = append(largest, fmt.Sprintf("%d (%s)", p, formatBytes(s.PartitionBytes[p])))
	}
	return fmt.Sprintf("smallest %s, median %s, largest %s (--json lists every one)",
		formatBytes(s.PartitionBytes[order[len(order)-1]]), formatBytes(int64(s.MedianPartitionBytes)), strings.Join(largest, ", "))
}

// textTable is a table of text cells with aligned columns.
type textTable struct {
	header []string
	right  []bool
	rows   [][]string
}

func (t *textTable) render(indent string) string {
	widths := make([]int, len(t.header))
	for _, r := range append([][]string{t.header}, t.rows...) {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, r := range append([][]string{t.header}, t.rows...) {
		b.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			if i > 0 {
				b.WriteString("  ")
			}
			switch {
			case t.right[i]:
				b.WriteString(pad + c)
			case i == len(r)-1:
				b.WriteString(c)
			default:
				b.WriteString(c + pad)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
