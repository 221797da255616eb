package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rowbridge/rowbridge/sparkshuffle"
)

// The shuffle commands read and write the map outputs Spark's sort-based
// shuffle leaves on disk (package sparkshuffle; docs/shuffle.md).
func init() {
	register(&command{
		name:    "shuffle",
		summary: "list, decode and write the shuffle files Spark leaves in its local dirs (shuffle ls, shuffle decode, shuffle write)",
		usage:   "ls|decode|write [flags] ...",
		examples: []string{
			`rowbridge shuffle ls testdata/sample/shuffle`,
			`rowbridge shuffle decode --schema @testdata/sample/shuffle/schema.ddl --to jsonl testdata/sample/shuffle`,
			`rowbridge shuffle write --partitions 4 --partition-by id -o /tmp/shuffle testdata/sample/sample.arrow`,
		},
		subs: map[string]*command{
			"ls":     shuffleLsCommand,
			"decode": shuffleDecodeCommand,
			"write":  shuffleWriteCommand,
		},
	})
}

// shuffleDirsHelp is what the DIR arguments of the shuffle commands may be.
const shuffleDirsHelp = "DIR is a Spark local dir (holding blockmgr-* folders), a blockmgr-* folder or a folder of copied shuffle files; several DIRs form one set (one application's)"

// openShuffles opens the shuffle files in the directories args.
func openShuffles(args []string) (*sparkshuffle.Set, error) {
	if len(args) == 0 {
		return nil, usagef("no DIR given (%s)", shuffleDirsHelp)
	}
	set, err := sparkshuffle.Open(args...)
	if err != nil {
		return nil, shuffleError(err)
	}
	return set, nil
}

// shuffleError drops the package prefix some sparkshuffle errors carry:
// the command's name already says where the message comes from.
func shuffleError(err error) error {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "sparkshuffle: "); ok {
		return &prefixlessError{msg: rest, err: err}
	}
	return err
}

type prefixlessError struct {
	msg string
	err error
}

func (e *prefixlessError) Error() string { return e.msg }
func (e *prefixlessError) Unwrap() error { return e.err }

// pickShuffle returns the shuffle of id, or with id < 0 (no --shuffle)
// the set's only shuffle. An unknown id is a failure naming the ids
// found; a missing --shuffle among several shuffles a usage error.
func pickShuffle(set *sparkshuffle.Set, id int, dirs []string) (*sparkshuffle.Shuffle, error) {
	shuffles := set.Shuffles()
	if len(shuffles) == 0 {
		return nil, fmt.Errorf("no shuffle files in %s", strings.Join(dirs, ", "))
	}
	if id < 0 {
		if len(shuffles) > 1 {
			return nil, usagef("--shuffle is required: %s hold shuffles %s", strings.Join(dirs, ", "), shuffleIDs(shuffles))
		}
		return shuffles[0], nil
	}
	sh, err := set.Shuffle(id)
	if errors.Is(err, sparkshuffle.ErrNoShuffle) {
		return nil, fmt.Errorf("--shuffle %d: no such shuffle in %s (shuffles found: %s)", id, strings.Join(dirs, ", "), shuffleIDs(shuffles))
	}
	return sh, err
}

func shuffleIDs(shuffles []*sparkshuffle.Shuffle) string {
	ids := make([]string, len(shuffles))
	for i, s := range shuffles {
		ids[i] = fmt.Sprint(s.ID)
	}
	return strings.Join(ids, ", ")
}

// shuffleFiles are the paths of every file of the set, so that -o is never
// one of them.
func shuffleFiles(set *sparkshuffle.Set) []string {
	var paths []string
	for _, s := range set.Shuffles() {
		for _, m := range s.Maps {
			for _, p := range []string{m.IndexPath, m.DataPath, m.ChecksumPath} {
				if p != "" {
					paths = append(paths, p)
				}
			}
		}
	}
	return paths
}

// formatBytes writes a byte count for people: exact below 10,000 bytes,
// else in KiB, MiB, GiB or TiB with one decimal.
func formatBytes(n int64) string {
	if n < 10000 {
		return fmt.Sprintf("%d B", n)
	}
	v := float64(n) / 1024
	for _, unit := range []string{"KiB", "MiB", "GiB"} {
		if v < 1024 {
			return fmt.Sprintf("%.1f %s", v, unit)
		}
		v /= 1024
	}
	return fmt.Sprintf("%.1f TiB", v)
}
