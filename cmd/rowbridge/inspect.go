package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/framing"
)

func init() {
	register(&command{
		name:    "inspect",
		summary: "show the schema and first rows of row streams, Arrow IPC streams or files, or Parquet files",
		usage:   "[--format unsaferow|compactrow|arrow] [--schema SCHEMA] [--framing spark|velox] [--codec C] [--rows N] [--count] [--json] [IN...]",
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
	fs.Lookup("format").Usage = "input: unsaferow, compactrow, or arrow for Arrow IPC and Parquet (the default, when the input starts with their magic)"
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
		ins, err := newInputSet(e, args)
		if err != nil {
			return err
		}
		batchRows := min(max(rows, 1), maxInspectBatch)
		if count {
			batchRows = maxInspectBatch
		}
		open := func(in *inputSource) (batchSource, error) {
			if format == formatArrow {
				return openArrow(in, memory.DefaultAllocator)
			}
			if format != "" {
				return openRows(layout, in, sc, batchRows)
			}
			if !acceptsArrow(in.kind) {
				return nil, inputKindError(in.name, in.kind, in.head)
			}
			if err := rejectRowFlags(fs); err != nil {
				return nil, err
			}
			return openArrow(in, memory.DefaultAllocator)
		}
		src, err := openChain(ins, open)
		if err != nil {
			return err
		}
		defer src.Close()
		what := describeSource(src.current(), layout)
		if n := len(ins.args); n > 1 {
			what += fmt.Sprintf(" (%s, the first of %d inputs read as one)", src.first, n)
		}
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

// describeSource says what the input src reads is, for inspect's
// "Input:" line; l is the layout of a row stream.
func describeSource(src batchSource, l streamLayout) string {
	switch s := src.(type) {
	case *fileSource:
		if n := s.r.NumRecords(); n != 1 {
			return fmt.Sprintf("Arrow IPC file, %d record batches", n)
		}
		return "Arrow IPC file, 1 record batch"
	case *streamSource:
		return "Arrow IPC stream"
	case *parquetSource:
		groups := "row groups"
		if s.pf.NumRowGroups() == 1 {
			groups = "row group"
		}
		return fmt.Sprintf("Parquet file, %d rows in %d %s", s.pf.NumRows(), s.pf.NumRowGroups(), groups)
	}
	name := "UnsafeRow"
	if l.format == formatCompactRow {
		name = "CompactRow"
	}
	what := fmt.Sprintf("%s stream, %v framing", name, l.framing)
	if l.codec != framing.None {
		what += fmt.Sprintf(", %v codec", l.codec)
	}
	return what
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
