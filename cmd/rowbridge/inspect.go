package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/ipcverify"
)

func init() {
	register(&command{
		name:    "inspect",
		summary: "show the schema and first rows of a row stream or an Arrow IPC stream or file",
		usage:   "[--format unsaferow|compactrow|arrow] [--schema SCHEMA] [--framing spark|velox] [--codec C] [--rows N] [--count] [--json] [IN]",
		examples: []string{
			`rowbridge inspect rows.arrow   # an Arrow IPC file or stream carries its schema`,
			`rowbridge inspect --format unsaferow --schema 'id BIGINT, name STRING' --rows 20 rows.bin`,
			`rowbridge inspect --format compactrow --framing velox --codec lz4 --schema @schema.ddl --count rows.bin`,
			`rowbridge inspect --json --rows 3 rows.arrow   # rows as JSON lines, as decode --to jsonl writes them`,
		},
		flags: inspectFlags,
	})
}

// formatArrow is the Arrow IPC input of inspect.
const formatArrow = "arrow"

// maxInspectBatch bounds the rows decoded at once while counting.
const maxInspectBatch = 4096

func inspectFlags(fs *flag.FlagSet) func(*env, []string) error {
	var (
		stream       streamFlags
		schema       string
		rows         int
		count, jsonl bool
	)
	stream.declare(fs)
	fs.Lookup("format").Usage = "input: unsaferow, compactrow or arrow (default arrow when the input starts with Arrow IPC magic)"
	fs.StringVar(&schema, "schema", "", schemaFlagUsage+" (row streams only)")
	fs.IntVar(&rows, "rows", 10, "rows to show")
	fs.BoolVar(&count, "count", false, "read to the end and report the total row count")
	fs.BoolVar(&jsonl, "json", false, "print only the rows, as JSON lines (the decode --to jsonl form)")
	return func(e *env, args []string) error {
		if rows < 0 {
			return usagef("--rows %d: want 0 or more", rows)
		}
		if count && jsonl {
			return usagef("--count does not combine with --json (the output is only rows)")
		}
		format := strings.ToLower(stream.format)
		if format == "" && schema != "" {
			return usagef("--schema needs --format unsaferow or compactrow")
		}
		// Row-stream flags are checked before the input is opened.
		var (
			layout streamLayout
			sc     *arrow.Schema
			err    error
		)
		switch format {
		case formatArrow:
			err = rejectRowFlags(fs)
		case "":
		default:
			if layout, err = stream.resolve(); err == nil {
				sc, err = loadSchema(schema)
			}
		}
		if err != nil {
			return err
		}
		in, closeIn, err := openInput(e, args)
		if err != nil {
			return err
		}
		defer closeIn()
		br := bufio.NewReaderSize(in, 64<<10)
		if format == "" {
			if _, err := br.Peek(1); err == io.EOF {
				return fmt.Errorf("the input is empty")
			}
			if !looksLikeArrow(br) {
				return usagef("the input is not Arrow IPC: a row stream needs --format unsaferow|compactrow and --schema")
			}
			if err := rejectRowFlags(fs); err != nil {
				return err
			}
			format = formatArrow
		}
		batchRows := min(max(rows, 1), maxInspectBatch)
		if count {
			batchRows = maxInspectBatch
		}
		var src batchSource
		var what string
		if format == formatArrow {
			src, what, err = openArrowInput(in, br)
		} else {
			src, what, err = openRowInput(layout, sc, br, batchRows)
		}
		if err != nil {
			return err
		}
		defer src.Close()
		// Unlike decode's output, whatever was read before an error is
		// still shown: it helps to find the bad row.
		o := bufio.NewWriterSize(e.stdout, 64<<10)
		err = inspect(src, what, rows, count, jsonl, o)
		if ferr := o.Flush(); err == nil {
			err = ferr
		}
		return err
	}
}

// rejectRowFlags refuses the row-stream flags for Arrow input.
func rejectRowFlags(fs *flag.FlagSet) error {
	for _, name := range []string{"schema", "framing", "codec"} {
		if flagSet(fs, name) {
			return usagef("--%s applies to row streams only (Arrow IPC input carries its schema)", name)
		}
	}
	return nil
}

// openArrowInput opens Arrow IPC input. A file on disk is read through
// its footer, batch by batch, instead of all at once.
func openArrowInput(in io.Reader, br *bufio.Reader) (batchSource, string, error) {
	head, _ := br.Peek(len(ipcverify.FileMagic))
	isFile := bytes.Equal(head, ipcverify.FileMagic)
	if f, ok := in.(*os.File); ok && isFile && isRegularFile(f.Name()) {
		fi, err := f.Stat()
		if err != nil {
			return nil, "", err
		}
		src, err := openArrowFile(f, fi.Size(), memory.DefaultAllocator)
		if err != nil {
			return nil, "", err
		}
		return src, describeArrow(src.r.NumRecords()), nil
	}
	src, err := openArrow(br, memory.DefaultAllocator)
	if err != nil {
		return nil, "", err
	}
	if file, ok := src.(*fileSource); ok {
		return src, describeArrow(file.r.NumRecords()), nil
	}
	return src, "Arrow IPC stream", nil
}

func describeArrow(batches int) string {
	if batches == 1 {
		return "Arrow IPC file, 1 record batch"
	}
	return fmt.Sprintf("Arrow IPC file, %d record batches", batches)
}

func openRowInput(layout streamLayout, sc *arrow.Schema, in io.Reader, batchRows int) (batchSource, string, error) {
	rr, err := newRowReader(layout, in, sc, batchRows)
	if err != nil {
		return nil, "", err
	}
	name := "UnsafeRow"
	if layout.format == formatCompactRow {
		name = "CompactRow"
	}
	what := fmt.Sprintf("%s stream, %v framing", name, layout.framing)
	if layout.codec != framing.None {
		what += fmt.Sprintf(", %v codec", layout.codec)
	}
	return &recordReaderSource{rr: rr}, what, nil
}

// recordReaderSource reads a row stream as a batchSource.
type recordReaderSource struct{ rr array.RecordReader }

func (s *recordReaderSource) Schema() *arrow.Schema { return s.rr.Schema() }
func (s *recordReaderSource) Close()                { s.rr.Release() }
func (s *recordReaderSource) Next() (arrow.RecordBatch, bool, error) {
	if s.rr.Next() {
		return s.rr.RecordBatch(), true, nil
	}
	return nil, false, s.rr.Err()
}

// inspect writes the first rows of src, as a table after the schema or
// as JSON lines. Without count it stops reading once it has them and
// knows whether more follow, so memory stays bounded by about two batches.
func inspect(src batchSource, what string, rows int, count, jsonl bool, out io.Writer) error {
	var (
		t     = newTable(src.Schema())
		jw    = &jsonlWriter{w: out}
		shown int
		total int64
		ended bool
		err   error
	)
	// Every batch is shown whole until rows are reached, so total > shown
	// means more rows follow.
	for count || total == int64(shown) {
		var rec arrow.RecordBatch
		var ok bool
		rec, ok, err = src.Next()
		if err != nil || !ok {
			ended = err == nil
			break
		}
		if take := min(int64(rows-shown), rec.NumRows()); take > 0 {
			head := rec.NewSlice(0, take)
			if jsonl {
				err = jw.Write(head)
			} else {
				t.addBatch(head)
			}
			head.Release()
			if err != nil {
				return err
			}
			shown += int(take)
		}
		total += rec.NumRows()
	}
	if jsonl {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Input: %s\n", what)
	if text, ferr := ddl.FormatDDL(src.Schema()); ferr == nil {
		fmt.Fprintf(&b, "Schema: %s\n", text)
	} else {
		fmt.Fprintf(&b, "Schema: not expressible in Spark DDL (%v)\n", ferr)
	}
	fmt.Fprintf(&b, "Arrow %s\n", src.Schema())
	switch {
	case err != nil:
		fmt.Fprintf(&b, "Rows: %d read before an error\n", shown)
	case ended:
		fmt.Fprintf(&b, "Rows: %d", total)
		if int64(shown) < total {
			fmt.Fprintf(&b, " (showing the first %d)", shown)
		}
		b.WriteString("\n")
	default:
		fmt.Fprintf(&b, "Rows: more than %d", shown)
		if shown > 0 {
			fmt.Fprintf(&b, ", showing the first %d", shown)
		}
		b.WriteString(" (--count counts them all)\n")
	}
	if shown > 0 {
		b.WriteString("\n")
		t.render(&b)
	}
	if _, werr := io.WriteString(out, b.String()); werr != nil {
		return werr
	}
	return err
}
