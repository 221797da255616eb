package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkhash"
	"github.com/rowbridge/rowbridge/sparkshuffle"
)

var shuffleWriteCommand = &command{
	name:    "shuffle write",
	summary: "write Arrow IPC streams or files, or Parquet files, as one Spark map output (.data, .index, .checksum), partitioned as Spark's HashPartitioning",
	usage:   "--partitions R [--partition-by COL[,COL...]] [--codec lz4|lzf|snappy|zstd|none] [--checksum ADLER32|CRC32|CRC32C|none] [--shuffle N] [--map M] [--spill-rows K] [--force] [--sync] -o DIR [--no-progress] [IN...]",
	examples: []string{
		`rowbridge shuffle write --partitions 4 --partition-by id -o /tmp/shuffle testdata/sample/sample.arrow   # pmod(hash(id), 4), as Spark's repartition(4, id)`,
		`rowbridge shuffle write --partitions 8 --codec zstd --checksum CRC32C --shuffle 2 --map 17 -o /tmp/shuffle testdata/sample/sample.arrow   # round robin from partition 0`,
		`rowbridge shuffle write --partitions 3 --partition-by id --spill-rows 100 --force -o /tmp/shuffle testdata/sample/sample.arrow   # concatenated streams, as Spark's fast spill merge leaves them`,
		`rowbridge decode --format unsaferow --schema @testdata/sample/schema.ddl testdata/sample/unsaferow-spark.bin | rowbridge shuffle write --partitions 2 --partition-by id,name -o /tmp/shuffle   # Arrow on stdin`,
	},
	flags: shuffleWriteFlags,
}

func shuffleWriteFlags(fs *flag.FlagSet) func(*env, []string) error {
	var (
		partitions               int
		partitionBy, codec, algo string
		out                      string
		shuffle                  int
		mapID, spillRows         int64
		force, sync              bool
	)
	noProgress := declareProgress(fs)
	fs.IntVar(&partitions, "partitions", 0, "number of reduce partitions (required)")
	fs.StringVar(&partitionBy, "partition-by", "", "top-level columns to partition by, comma-separated: row goes to pmod(Spark's hash(COL...), R); without it rows are dealt round robin from partition 0")
	fs.StringVar(&codec, "codec", "lz4", "codec of each partition's stream, as spark.io.compression.codec: lz4, lzf, snappy, zstd, or none (spark.shuffle.compress=false)")
	fs.StringVar(&algo, "checksum", "ADLER32", "checksum file algorithm, as spark.shuffle.checksum.algorithm: ADLER32, CRC32, CRC32C, or none (no checksum file)")
	fs.IntVar(&shuffle, "shuffle", 0, "shuffle id in the file names")
	fs.Int64Var(&mapID, "map", 0, "map id in the file names (a task attempt id in Spark 3.0+)")
	fs.Int64Var(&spillRows, "spill-rows", 0, "start a new codec stream every K rows within a partition, as Spark's fast spill merge concatenates them (0: one stream per partition)")
	fs.BoolVar(&force, "force", false, "replace a map output of the same shuffle and map id in DIR")
	fs.BoolVar(&sync, "sync", false, "fsync the files and the folder before and after renaming them into place (Spark's spark.shuffle.sync, default false, as here)")
	fs.StringVar(&out, "o", "", "output folder DIR (required; created if missing); the files appear only when the command succeeds")
	return func(e *env, args []string) error {
		opts, err := shuffleWriteOptions(fs, partitions, codec, algo, shuffle, mapID, spillRows, force, sync)
		if err != nil {
			return err
		}
		if out == "" {
			return usagef("-o DIR is required")
		}
		ins, err := newInputSet(e, args)
		if err != nil {
			return err
		}
		ins.startProgress("shuffle write", *noProgress)
		defer ins.prog.done()
		return writeShuffle(ins, out, partitionBy, partitions, shuffle, mapID, opts)
	}
}

// shuffleWriteOptions checks the flags of the writer; every mistake is a
// usage error.
func shuffleWriteOptions(fs *flag.FlagSet, partitions int, codec, algo string, shuffle int, mapID, spillRows int64, force, sync bool) ([]sparkshuffle.WriterOption, error) {
	switch {
	case !flagSet(fs, "partitions"):
		return nil, usagef("--partitions is required")
	case partitions < 1 || partitions > sparkshuffle.MaxWritePartitions:
		return nil, usagef("--partitions %d: want 1 to %d", partitions, sparkshuffle.MaxWritePartitions)
	case shuffle < 0 || int64(shuffle) > 1<<31-1:
		return nil, usagef("--shuffle %d: want 0 to %d", shuffle, 1<<31-1)
	case mapID < 0:
		return nil, usagef("--map %d: want 0 or more", mapID)
	case spillRows < 0:
		return nil, usagef("--spill-rows %d: want 0 (one stream per partition) or more", spillRows)
	}
	c, err := framing.ParseCodec(codec)
	if err != nil {
		return nil, usagef("unknown --codec %q: Spark's codecs are lz4, lzf, snappy and zstd (or none)", codec)
	}
	switch c {
	case framing.None, framing.LZ4, framing.Snappy, framing.Zstd, framing.LZF:
	default:
		return nil, usagef("--codec %v: Spark's codecs are lz4, lzf, snappy and zstd (or none)", c)
	}
	alg := sparkshuffle.NoChecksum
	if !strings.EqualFold(algo, "none") {
		if alg, err = sparkshuffle.ParseAlgorithm(algo); err != nil || algo == "" {
			return nil, usagef("unknown --checksum %q (want ADLER32, CRC32, CRC32C or none)", algo)
		}
	}
	return []sparkshuffle.WriterOption{sparkshuffle.WithWriteCodec(c), sparkshuffle.WithWriteChecksum(alg),
		sparkshuffle.WithSpillRows(spillRows), sparkshuffle.WithOverwrite(force), sparkshuffle.WithSync(sync)}, nil
}

// partitionKeys resolves --partition-by against the input's schema.
func partitionKeys(schema *arrow.Schema, partitionBy string) ([]int, error) {
	if partitionBy == "" {
		return nil, nil
	}
	var keys []int
	for _, name := range strings.Split(partitionBy, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, usagef("--partition-by %q: an empty column name", partitionBy)
		}
		idx := schema.FieldIndices(name)
		switch len(idx) {
		case 0:
			names := make([]string, schema.NumFields())
			for i, f := range schema.Fields() {
				names[i] = f.Name
			}
			return nil, usagef("--partition-by: the input has no column %q (its columns: %s)", name, strings.Join(names, ", "))
		case 1:
		default:
			return nil, usagef("--partition-by: the input has %d columns named %q", len(idx), name)
		}
		if err := sparkhash.Check(fmt.Sprintf("column %q", name), schema.Field(idx[0]).Type); err != nil {
			return nil, usagef("--partition-by: %s", strings.TrimPrefix(err.Error(), "sparkhash: "))
		}
		keys = append(keys, idx[0])
	}
	return keys, nil
}

// writeShuffle writes the Arrow input as map output shuffle/mapID in dir,
// creating dir if it is missing (and removing what it created if the
// command fails). Like encode it prints nothing; shuffle ls shows what it
// wrote.
func writeShuffle(ins *inputSet, dir, partitionBy string, partitions, shuffle int, mapID int64, opts []sparkshuffle.WriterOption) (err error) {
	mem := memory.DefaultAllocator
	src, err := openChain(ins, func(in *inputSource) (batchSource, error) { return openArrow(in, mem) })
	if err != nil {
		return err
	}
	defer src.Close()
	keys, err := partitionKeys(src.Schema(), partitionBy)
	if err != nil {
		return err
	}
	var part sparkhash.Partitioner
	if len(keys) > 0 {
		part, err = sparkhash.NewHashPartitioner(partitions, keys)
	} else {
		part, err = sparkhash.NewRoundRobinPartitioner(partitions, 0)
	}
	if err != nil {
		return err
	}
	created, err := makeOutputDir(dir)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil && created != "" {
			os.RemoveAll(created) // only folders this command made, empty again after an abort
		}
	}()
	w, err := sparkshuffle.NewMapOutputWriter(dir, shuffle, mapID, partitions, src.Schema(), opts...)
	if err != nil {
		return writerError(err)
	}
	defer w.Abort() // nothing after a successful Close
	var dst []int32
	for {
		rec, ok, err := src.Next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if dst, err = part.Partitions(rec, dst); err != nil {
			return err
		}
		if err := w.Write(rec, dst); err != nil {
			return writerError(err)
		}
		ins.prog.addRows(rec.NumRows())
	}
	if err := w.Close(); err != nil {
		return writerError(err)
	}
	return nil
}

// makeOutputDir creates dir if it is missing and returns the topmost
// folder it created ("" if dir existed).
func makeOutputDir(dir string) (string, error) {
	st, err := os.Stat(dir)
	switch {
	case err == nil && st.IsDir():
		return "", nil
	case err == nil:
		return "", fmt.Errorf("-o %s: not a directory", dir)
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	}
	top := filepath.Clean(dir)
	for {
		parent := filepath.Dir(top)
		if parent == top {
			break
		}
		if _, err := os.Stat(parent); err == nil {
			break
		}
		top = parent
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return top, nil
}

// writerError words the writer's errors for the command line.
func writerError(err error) error {
	var fe *sparkshuffle.FileError
	if errors.Is(err, sparkshuffle.ErrExists) && errors.As(err, &fe) {
		return fmt.Errorf("%s: a map output of this shuffle and map id exists (--force replaces it)", fe.Path)
	}
	return shuffleError(err)
}
