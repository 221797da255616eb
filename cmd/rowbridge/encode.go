package main

import (
	"flag"
	"io"

	"github.com/rowbridge/rowbridge/unsaferow"
)

func init() {
	register(&command{
		name:    "encode",
		summary: "encode Arrow IPC streams or files, or Parquet files, into one UnsafeRow or CompactRow stream",
		usage:   "--format unsaferow|compactrow [--flavor spark|velox] [--framing spark|velox] [--codec C] [--truncate] [-o OUT] [--no-progress] [IN...]",
		examples: []string{
			`rowbridge encode --format compactrow --framing velox --codec lz4 -o rows.bin testdata/sample/sample.arrow`,
			`rowbridge encode --format unsaferow --flavor velox --framing velox --codec zstd -o rows.bin testdata/sample/sample.arrow testdata/sample/sample.arrow   # several inputs of one schema (Arrow IPC streams or files, Parquet files), read in order as one stream`,
			`rowbridge encode --format unsaferow --codec lz4 -o rows.lz4 testdata/sample/sample.arrow   # Spark-framed rows in lz4-java's stream, as a Spark shuffle holds them`,
			`rowbridge encode --format unsaferow data.parquet > rows.bin   # a Parquet file, read row group by row group (a file, not a pipe: Parquet's footer is at its end)`,
			`rowbridge decode --format unsaferow --schema @testdata/sample/schema.ddl testdata/sample/unsaferow-spark.bin | rowbridge encode --format unsaferow | cmp - testdata/sample/unsaferow-spark.bin   # exact round trip`,
		},
		flags: encodeFlags,
	})
}

func encodeFlags(fs *flag.FlagSet) func(*env, []string) error {
	var (
		stream   streamFlags
		flavor   string
		out      string
		truncate bool
	)
	stream.declare(fs)
	noProgress := declareProgress(fs)
	fs.StringVar(&flavor, "flavor", "spark", "unsaferow only: whose bytes to write, spark (exactly Spark's) or velox (Velox's)")
	fs.BoolVar(&truncate, "truncate", false, "round down values the row format cannot hold exactly (timestamps below a microsecond, date64 times of day) instead of failing on them")
	fs.StringVar(&out, "o", "", "output file (default stdout); a file there is replaced only when the command succeeds")
	return func(e *env, args []string) error {
		layout, err := stream.resolve()
		if err != nil {
			return err
		}
		if err := layout.writable(); err != nil {
			return err
		}
		fl, err := unsaferow.ParseFlavor(flavor)
		if err != nil {
			return usagef("--flavor: %v", err)
		}
		if layout.format != formatUnsafeRow && flagSet(fs, "flavor") {
			return usagef("--flavor applies to --format unsaferow only")
		}
		if err := refuseTerminal(e, out); err != nil {
			return err
		}
		return convert(e, "encode", args, out, *noProgress, func(ins *inputSet, o io.Writer) error {
			return encode(layout, fl, truncate, ins, o)
		})
	}
}

// encode writes the rows of the inputs, in order, as one row stream.
func encode(l streamLayout, flavor unsaferow.Flavor, truncate bool, ins *inputSet, out io.Writer) error {
	mem := inputAllocator()
	src, err := openChain(ins, func(in *inputSource) (batchSource, error) { return openArrow(in, mem) })
	if err != nil {
		return err
	}
	defer src.Close()
	w, err := newRowWriter(l, out, src.Schema(), flavor, truncate, mem)
	if err != nil {
		return err
	}
	// An encoding error is the current input's.
	return copyBatches(src, w, ins.prog, func(err error) error { return ins.named(src.in.name, err) })
}
