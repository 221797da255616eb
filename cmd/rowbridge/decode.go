package main

import (
	"flag"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
)

func init() {
	register(&command{
		name:    "decode",
		summary: "decode UnsafeRow or CompactRow streams into one Arrow IPC stream or file, Parquet file or JSON lines",
		usage:   "--format unsaferow|compactrow --schema SCHEMA [--framing spark|velox] [--codec C] [--batch-rows N] [--to arrow-stream|arrow-file|jsonl|parquet] [--parquet-codec C] [-o OUT] [--no-progress] [IN...]",
		examples: []string{
			`rowbridge decode --format unsaferow --schema @testdata/sample/schema.ddl --to jsonl testdata/sample/unsaferow-spark.bin`,
			`rowbridge decode --format compactrow --framing velox --codec lz4 --schema @testdata/sample/schema.ddl --to arrow-file -o rows.arrow testdata/sample/compactrow-velox-lz4.bin`,
			`rowbridge encode --format unsaferow --codec lz4 testdata/sample/sample.arrow | rowbridge decode --format unsaferow --codec auto --schema @testdata/sample/schema.ddl --to jsonl   # Spark's lz4, snappy, zstd or lzf stream (or none), sniffed`,
			`rowbridge encode --format unsaferow --codec lz4 testdata/sample/sample.arrow | rowbridge decode --format unsaferow --codec auto --schema @testdata/sample/schema.ddl --to jsonl testdata/sample/unsaferow-spark.bin -   # several inputs read in order as one stream, each in its own codec ("-" is stdin)`,
			`rowbridge decode --format unsaferow --schema @testdata/sample/schema.ddl --to parquet -o rows.parquet testdata/sample/unsaferow-spark.bin   # zstd; rowbridge encode reads it back`,
		},
		flags: decodeFlags,
	})
}

// Output kinds of decode.
const (
	toArrowStream = "arrow-stream"
	toArrowFile   = "arrow-file"
	toJSONL       = "jsonl"
	// toParquet is in parquet.go.
)

func decodeFlags(fs *flag.FlagSet) func(*env, []string) error {
	var (
		stream    streamFlags
		schema    string
		batchRows int
		to, out   string
		pqCodec   string
	)
	stream.declare(fs)
	noProgress := declareProgress(fs)
	fs.StringVar(&schema, "schema", "", schemaFlagUsage+" (required)")
	fs.IntVar(&batchRows, "batch-rows", 4096, "most rows per Arrow record batch")
	fs.StringVar(&to, "to", toArrowStream, "output: arrow-stream, arrow-file, jsonl or parquet")
	fs.StringVar(&pqCodec, "parquet-codec", "zstd", "with --to parquet, the page codec: zstd, snappy, gzip, lz4 (LZ4_RAW), brotli or none; row groups hold at most 1Mi rows or 128 MiB")
	fs.StringVar(&out, "o", "", "output file (default stdout); a file there is replaced only when the command succeeds")
	return func(e *env, args []string) error {
		layout, err := stream.resolve()
		if err != nil {
			return err
		}
		if batchRows < 1 {
			return usagef("--batch-rows %d: want at least 1", batchRows)
		}
		sink, sc, err := decodeOutput(e, to, out, schema)
		if err != nil {
			return err
		}
		if strings.EqualFold(to, toParquet) {
			codec, err := parseParquetCodec(pqCodec)
			if err != nil {
				return err
			}
			sink = parquetSink(codec)
		} else if flagSet(fs, "parquet-codec") {
			return usagef("--parquet-codec applies to --to parquet only")
		}
		return convert(e, "decode", args, out, *noProgress, func(ins *inputSet, o io.Writer) error {
			return decode(layout, ins, sc, batchRows, sink, o)
		})
	}
}

// decodeOutput checks the flags decode and shuffle decode share: the
// output kind --to (binary output never to a terminal) and the schema.
func decodeOutput(e *env, to, out, schema string) (sink, *arrow.Schema, error) {
	sink, err := openSink(e, to, out)
	if err != nil {
		return nil, nil, err
	}
	sc, err := loadSchema(schema)
	if err != nil {
		return nil, nil, err
	}
	return sink, sc, nil
}

// decode writes the rows of the inputs, in order, as one output.
func decode(l streamLayout, ins *inputSet, schema *arrow.Schema, batchRows int, sink sink, out io.Writer) error {
	src, err := openChain(ins, func(in *inputSource) (batchSource, error) {
		return openRows(l, in, schema, batchRows)
	})
	if err != nil {
		return err
	}
	defer src.Close()
	w, err := sink(out, schema, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	return copyBatches(src, w, ins.prog, func(err error) error { return err })
}

// copyBatches writes every batch of src to w, counting the rows on prog,
// then closes w; wrap words w's errors.
func copyBatches(src batchSource, w batchWriter, prog *progress, wrap func(error) error) error {
	for {
		rec, ok, err := src.Next()
		if err != nil {
			return err
		}
		if !ok {
			return w.Close()
		}
		if err := w.Write(rec); err != nil {
			return wrap(err)
		}
		prog.addRows(rec.NumRows())
	}
}

// openRows opens a row stream input laid out as l, refusing with
// inputKindError a kind known not to be one.
func openRows(l streamLayout, in *inputSource, schema *arrow.Schema, batchRows int) (batchSource, error) {
	if !l.acceptsRows(in.kind, in.head) {
		return nil, inputKindError(in.name, in.kind, in.head)
	}
	rr, err := newRowReader(l, in.br, schema, batchRows)
	if err != nil {
		return nil, err
	}
	return &recordReaderSource{rr: rr}, nil
}

// writeBatches writes the batches of rr to out as sink writes them (what
// decode and shuffle decode output), counting the rows on prog and
// calling afterBatch, if not nil, after each batch.
func writeBatches(rr array.RecordReader, sink sink, out io.Writer, mem memory.Allocator, prog *progress, afterBatch func()) error {
	w, err := sink(out, rr.Schema(), mem)
	if err != nil {
		return err
	}
	for rr.Next() {
		if err := w.Write(rr.RecordBatch()); err != nil {
			return err
		}
		prog.addRows(rr.RecordBatch().NumRows())
		if afterBatch != nil {
			afterBatch()
		}
	}
	if err := rr.Err(); err != nil {
		return err
	}
	return w.Close()
}

// sink opens a writer of record batches of one kind.
type sink func(w io.Writer, schema *arrow.Schema, mem memory.Allocator) (batchWriter, error)

type batchWriter interface {
	Write(rec arrow.RecordBatch) error
	Close() error
}

// openSink is the sink of --to, refusing binary output to a terminal.
func openSink(e *env, to, out string) (sink, error) {
	sink, err := newSink(to)
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(to, toJSONL) {
		if err := refuseTerminal(e, out); err != nil {
			return nil, err
		}
	}
	return sink, nil
}

func newSink(to string) (sink, error) {
	switch strings.ToLower(to) {
	case toArrowStream:
		return func(w io.Writer, s *arrow.Schema, mem memory.Allocator) (batchWriter, error) {
			return ipc.NewWriter(w, ipc.WithSchema(s), ipc.WithAllocator(mem)), nil
		}, nil
	case toArrowFile:
		return func(w io.Writer, s *arrow.Schema, mem memory.Allocator) (batchWriter, error) {
			return ipc.NewFileWriter(w, ipc.WithSchema(s), ipc.WithAllocator(mem))
		}, nil
	case toJSONL:
		return func(w io.Writer, s *arrow.Schema, _ memory.Allocator) (batchWriter, error) {
			return &jsonlWriter{w: w}, nil
		}, nil
	case toParquet:
		return parquetSink(compress.Codecs.Zstd), nil
	}
	return nil, usagef("unknown --to %q (want arrow-stream, arrow-file, jsonl or parquet)", to)
}

// jsonlWriter writes one JSON object per row.
type jsonlWriter struct {
	w   io.Writer
	buf []byte
}

func (j *jsonlWriter) Write(rec arrow.RecordBatch) error {
	for i := range int(rec.NumRows()) {
		j.buf = appendRowJSON(j.buf[:0], rec, i)
		j.buf = append(j.buf, '\n')
		if _, err := j.w.Write(j.buf); err != nil {
			return err
		}
	}
	return nil
}

func (j *jsonlWriter) Close() error { return nil }
