package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/unsaferow"
)

func init() {
	register(&command{
		name:    "encode",
		summary: "encode an Arrow IPC stream or file into an UnsafeRow or CompactRow stream",
		usage:   "--format unsaferow|compactrow [--flavor spark|velox] [--framing spark|velox] [--codec C] [-o OUT] [--no-progress] [IN]",
		examples: []string{
			`rowbridge encode --format compactrow --framing velox --codec lz4 -o rows.bin testdata/sample/sample.arrow`,
			`rowbridge encode --format unsaferow --flavor velox --framing velox --codec zstd -o rows.bin testdata/sample/sample.arrow`,
			`rowbridge decode --format unsaferow --schema @testdata/sample/schema.ddl testdata/sample/unsaferow-spark.bin | rowbridge encode --format unsaferow | cmp - testdata/sample/unsaferow-spark.bin   # exact round trip`,
		},
		flags: encodeFlags,
	})
}

// arrowFileMagic opens an Arrow IPC file; a stream starts otherwise.
var arrowFileMagic = []byte("ARROW1")

func encodeFlags(fs *flag.FlagSet) func(*env, []string) error {
	var (
		stream streamFlags
		flavor string
		out    string
	)
	stream.declare(fs)
	noProgress := declareProgress(fs)
	fs.StringVar(&flavor, "flavor", "spark", "unsaferow only: whose bytes to write, spark (exactly Spark's) or velox (Velox's)")
	fs.StringVar(&out, "o", "", "output file (default stdout)")
	return func(e *env, args []string) error {
		layout, err := stream.resolve()
		if err != nil {
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
		return convert(e, "encode", args, out, *noProgress, func(in io.Reader, o io.Writer, prog *progress) error {
			return encode(layout, fl, in, o, prog)
		})
	}
}

// batchSource is an Arrow IPC stream or file, read batch by batch.
type batchSource interface {
	Schema() *arrow.Schema
	Next() (arrow.RecordBatch, bool, error) // the batch is valid until the next call
	Close()
}

// openArrow reads in as an Arrow IPC file if it starts with the file
// magic, else as an IPC stream.
func openArrow(in io.Reader, mem memory.Allocator) (batchSource, error) {
	br := bufio.NewReaderSize(in, 64<<10)
	head, _ := br.Peek(len(arrowFileMagic))
	if bytes.Equal(head, arrowFileMagic) {
		// The file format needs random access: its footer is at the end.
		data, err := io.ReadAll(br)
		if err != nil {
			return nil, err
		}
		fr, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(mem))
		if err != nil {
			return nil, wrapf(err, "reading Arrow IPC file")
		}
		return &fileSource{r: fr}, nil
	}
	if len(head) == 0 {
		return nil, fmt.Errorf("reading Arrow IPC input: the input is empty")
	}
	sr, err := ipc.NewReader(br, ipc.WithAllocator(mem))
	if err != nil {
		return nil, wrapf(err, "reading Arrow IPC stream")
	}
	return &streamSource{r: sr}, nil
}

type streamSource struct{ r *ipc.Reader }

func (s *streamSource) Schema() *arrow.Schema { return s.r.Schema() }
func (s *streamSource) Close()                { s.r.Release() }
func (s *streamSource) Next() (arrow.RecordBatch, bool, error) {
	if s.r.Next() {
		return s.r.RecordBatch(), true, nil
	}
	if err := s.r.Err(); err != nil {
		return nil, false, wrapf(err, "reading Arrow IPC stream")
	}
	return nil, false, nil
}

type fileSource struct {
	r    *ipc.FileReader
	next int
}

func (s *fileSource) Schema() *arrow.Schema { return s.r.Schema() }
func (s *fileSource) Close()                { s.r.Close() }
func (s *fileSource) Next() (arrow.RecordBatch, bool, error) {
	if s.next >= s.r.NumRecords() {
		return nil, false, nil
	}
	rec, err := s.r.RecordBatch(s.next)
	if err != nil {
		return nil, false, wrapf(err, "reading Arrow IPC file batch %d", s.next)
	}
	s.next++
	return rec, true, nil
}

func encode(l streamLayout, flavor unsaferow.Flavor, in io.Reader, out io.Writer, prog *progress) error {
	mem := memory.DefaultAllocator
	src, err := openArrow(in, mem)
	if err != nil {
		return err
	}
	defer src.Close()
	w, err := newRowWriter(l, out, src.Schema(), flavor, mem)
	if err != nil {
		return err
	}
	for {
		rec, ok, err := src.Next()
		if err != nil {
			return err
		}
		if !ok {
			return w.Close()
		}
		if err := w.Write(rec); err != nil {
			return err
		}
		prog.addRows(rec.NumRows())
	}
}
