package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkshuffle"
)

var shuffleDecodeCommand = &command{
	name:    "shuffle decode",
	summary: "decode the UnsafeRows of a shuffle's partitions into Arrow IPC or JSON lines, in parallel",
	usage:   "--schema SCHEMA [--shuffle N] [--partition P | --partitions A-B] [--codec auto] [--checksum verify|ignore] [--workers W] [--batch-rows R] [--to arrow-stream|arrow-file|jsonl] [-o OUT] [--no-progress] DIR...",
	examples: []string{
		`rowbridge shuffle decode --schema @testdata/sample/shuffle/schema.ddl --to jsonl testdata/sample/shuffle`,
		`rowbridge shuffle decode --schema @testdata/sample/shuffle/schema.ddl --partitions 1-3 --to arrow-file -o rows.arrow testdata/sample/shuffle   # partitions 1, 2 and 3`,
		`rowbridge shuffle decode --schema @testdata/sample/shuffle/schema.ddl --partition 0 --workers 1 --to jsonl testdata/sample/shuffle   # one partition, on one core`,
		`rowbridge shuffle decode --schema 'id BIGINT, name STRING' --shuffle 4 --checksum ignore -o shuffle4.arrow /data/spark-local-1 /data/spark-local-2   # an executor's two local dirs`,
	},
	flags: shuffleDecodeFlags,
}

func shuffleDecodeFlags(fs *flag.FlagSet) func(*env, []string) error {
	var (
		schema, partitions, codec, checksum, to, out string
		shuffle, partition                           optionalID
		workers, batchRows                           int
	)
	noProgress := declareProgress(fs)
	fs.StringVar(&schema, "schema", "", schemaFlagUsage+" (required; the files do not record it)")
	fs.Var(&shuffle, "shuffle", "shuffle `id` (may be omitted when the DIRs hold one shuffle only)")
	fs.Var(&partition, "partition", "decode reduce partition `P` only")
	fs.StringVar(&partitions, "partitions", "", "decode reduce partitions A to B, both included (A-B; default every partition)")
	fs.StringVar(&codec, "codec", "auto", "Spark's codec of the segments: auto (recognised from each segment's first bytes), lz4, snappy, zstd, lzf or none")
	fs.StringVar(&checksum, "checksum", "verify", "verify (each segment against its map output's checksum file, when there is one) or ignore")
	fs.IntVar(&workers, "workers", 0, fmt.Sprintf("goroutines that decompress and decode segments (default GOMAXPROCS, %d here)", runtime.GOMAXPROCS(0)))
	fs.IntVar(&batchRows, "batch-rows", 4096, "most rows per Arrow record batch (a batch never spans two segments)")
	fs.StringVar(&to, "to", toArrowStream, "output: arrow-stream, arrow-file or jsonl")
	fs.StringVar(&out, "o", "", "output file (default stdout); a file there is replaced only when the command succeeds")
	return func(e *env, args []string) error {
		// First: the collection that the floor's allocation starts then
		// runs on the idle core while the shuffle is opened.
		defer holdHeapFloor()()
		opts, err := shuffleReadOptions(fs, partition, partitions, codec, checksum, workers, batchRows)
		if err != nil {
			return err
		}
		sink, sc, err := decodeOutput(e, to, out, schema)
		if err != nil {
			return err
		}
		set, err := openShuffles(args)
		if err != nil {
			return err
		}
		sh, err := pickShuffle(set, shuffle.id(), args)
		if err != nil {
			return err
		}
		first, last := 0, sh.Partitions-1
		if opts.ranged {
			first, last = opts.first, opts.last
			switch {
			case sh.Partitions == 0:
				return usagef("%s: shuffle %d has no partitions", opts.what, sh.ID)
			case last >= sh.Partitions:
				return usagef("%s: shuffle %d has partitions 0-%d", opts.what, sh.ID, sh.Partitions-1)
			}
		}
		var total int64
		if sh.Partitions > 0 {
			for _, n := range sh.PartitionSizes()[first : last+1] {
				total += n
			}
		}
		o, err := createOutput(e, "-o", out, shuffleFiles(set)...)
		if err != nil {
			return err
		}
		prog := startShuffleProgress(e, total, *noProgress)
		defer prog.done()
		return o.finish(decodeShuffle(sh, sc, opts.list, sink, o, prog))
	}
}

// partitionSelection is what the --partition and --partitions flags select.
type partitionSelection struct {
	ranged      bool // --partition or --partitions
	first, last int
	what        string // the partition flag, for messages
}

// selectPartitions checks the --partition and --partitions flags; every
// mistake is a usage error.
func selectPartitions(fs *flag.FlagSet, partition optionalID, partitions string) (partitionSelection, error) {
	var p partitionSelection
	switch {
	case flagSet(fs, "partition") && flagSet(fs, "partitions"):
		return p, usagef("--partition and --partitions exclude each other")
	case partition.set:
		p.ranged, p.first, p.last, p.what = true, partition.v, partition.v, fmt.Sprintf("--partition %d", partition.v)
	case flagSet(fs, "partitions"):
		first, last, err := parsePartitionRange(partitions)
		if err != nil {
			return p, err
		}
		p.ranged, p.first, p.last, p.what = true, first, last, "--partitions "+partitions
	}
	return p, nil
}

// shuffleOptions are the reader options the flags give.
type shuffleOptions struct {
	list []sparkshuffle.Option
	partitionSelection
}

// shuffleReadOptions checks the flags of the Reader; every mistake is a
// usage error.
func shuffleReadOptions(fs *flag.FlagSet, partition optionalID, partitions, codec, checksum string, workers, batchRows int) (shuffleOptions, error) {
	var o shuffleOptions
	var err error
	if o.partitionSelection, err = selectPartitions(fs, partition, partitions); err != nil {
		return o, err
	}
	if o.ranged {
		o.list = append(o.list, sparkshuffle.WithPartitions(o.first, o.last))
	}
	c, err := framing.ParseCodec(codec)
	if err != nil {
		return o, usagef("unknown --codec %q: Spark's codecs are lz4, snappy, zstd and lzf (or auto, none)", codec)
	}
	switch c {
	case framing.Auto, framing.None, framing.LZ4, framing.Snappy, framing.Zstd, framing.LZF:
	default:
		return o, usagef("--codec %v: Spark's codecs are lz4, snappy, zstd and lzf (or auto, none)", c)
	}
	policy, err := checksumPolicy(checksum)
	if err != nil {
		return o, err
	}
	if flagSet(fs, "workers") && workers < 1 {
		return o, usagef("--workers %d: want at least 1", workers)
	}
	if batchRows < 1 {
		return o, usagef("--batch-rows %d: want at least 1", batchRows)
	}
	o.list = append(o.list, sparkshuffle.WithCodec(c), sparkshuffle.WithChecksum(policy), sparkshuffle.WithBatchRows(batchRows))
	if workers > 0 {
		o.list = append(o.list, sparkshuffle.WithWorkers(workers))
	}
	return o, nil
}

// checksumPolicy reads the --checksum of the shuffle readers.
func checksumPolicy(s string) (sparkshuffle.ChecksumPolicy, error) {
	policy, err := sparkshuffle.ParseChecksumPolicy(s)
	if err != nil || s == "" {
		return policy, usagef("unknown --checksum %q (want verify or ignore)", s)
	}
	return policy, nil
}

// optionalID is a flag of a shuffle or partition id that may be absent.
type optionalID struct {
	v   int
	set bool
}

func (o *optionalID) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.v)
}

func (o *optionalID) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 || strings.HasPrefix(s, "+") {
		return fmt.Errorf("want a number, 0 or more")
	}
	o.v, o.set = v, true
	return nil
}

// id is the id, or -1 when the flag was not given.
func (o optionalID) id() int {
	if !o.set {
		return -1
	}
	return o.v
}

// parsePartitionRange reads A-B (both included) or a single partition N.
func parsePartitionRange(s string) (first, last int, err error) {
	bad := usagef("--partitions %q: want A-B, the first and last partition (for example 0-3), or one partition", s)
	a, b, isRange := strings.Cut(s, "-")
	if !isRange {
		b = a
	}
	if first, err = strconv.Atoi(a); err != nil || first < 0 || strings.HasPrefix(a, "+") {
		return 0, 0, bad
	}
	if last, err = strconv.Atoi(b); err != nil || last < 0 || strings.HasPrefix(b, "+") {
		return 0, 0, bad
	}
	if last < first {
		return 0, 0, usagef("--partitions %s: the last partition is below the first", s)
	}
	return first, last, nil
}

// decodeShuffle writes the rows of shuffle sh's selected partitions to out.
func decodeShuffle(sh *sparkshuffle.Shuffle, schema *arrow.Schema, opts []sparkshuffle.Option, sink sink, out io.Writer, prog *progress) error {
	var read atomic.Int64 // segment bytes read, counted from the Reader's goroutines
	if prog != nil {
		opts = append(opts, sparkshuffle.WithProgress(func(n int64) { read.Add(n) }))
	}
	r, err := sh.NewReader(schema, opts...)
	if err != nil {
		return shuffleError(err)
	}
	defer r.Release()
	err = writeBatches(r, sink, out, memory.DefaultAllocator, prog, func() { prog.setBytes(read.Load()) })
	prog.setBytes(read.Load()) // the reads that found the end of the last segment
	return err
}

// startShuffleProgress returns a progress bar of the total segment bytes
// to read, or nil (no bar) unless stderr is a terminal and off is false.
func startShuffleProgress(e *env, total int64, off bool) *progress {
	if off || !isTerminal(e.stderr) {
		return nil
	}
	return newProgress(e.stderr, "shuffle decode", total, progressDelay, progressThrottle)
}
