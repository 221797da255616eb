package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/compactrow"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// The row formats the CLI converts.
const (
	formatUnsafeRow  = "unsaferow"
	formatCompactRow = "compactrow"
)

// streamFlags are the flags that say how a row stream is laid out.
type streamFlags struct {
	format, framing, codec string
}

func (s *streamFlags) declare(fs *flag.FlagSet) {
	fs.StringVar(&s.format, "format", "", "row format: unsaferow or compactrow (required)")
	fs.StringVar(&s.framing, "framing", "spark", "stream framing: spark (size-prefixed rows) or velox (row groups)")
	fs.StringVar(&s.codec, "codec", "none", "compression: with --framing spark, Spark's stream codec around the records (none, lz4, snappy, zstd, lzf, or auto to sniff it when reading); with --framing velox, the row-group codec (none, lz4, zstd, snappy, zlib or gzip)")
}

// streamLayout is a resolved streamFlags.
type streamLayout struct {
	format  string
	framing framing.Framing
	codec   framing.Codec
}

func (s *streamFlags) resolve() (streamLayout, error) {
	var l streamLayout
	switch strings.ToLower(s.format) {
	case formatUnsafeRow, formatCompactRow:
		l.format = strings.ToLower(s.format)
	case "":
		return l, usagef("--format is required (unsaferow or compactrow)")
	default:
		return l, usagef("unknown --format %q (want unsaferow or compactrow)", s.format)
	}
	var err error
	if l.framing, err = framing.ParseFraming(s.framing); err != nil {
		return l, usagef("--framing: %v", err)
	}
	if l.codec, err = framing.ParseCodec(s.codec); err != nil {
		return l, usagef("--codec: %v", err)
	}
	switch {
	case l.framing == framing.Spark && (l.codec == framing.Zlib || l.codec == framing.Gzip):
		return l, usagef("--codec %v needs --framing velox (Spark's codecs are lz4, snappy, zstd and lzf)", l.codec)
	case l.framing == framing.Velox && (l.codec == framing.LZF || l.codec == framing.Auto):
		return l, usagef("--codec %v applies to --framing spark only (Velox row groups use none, lz4, zstd, snappy, zlib or gzip)", l.codec)
	}
	return l, nil
}

// writable refuses what a stream cannot be written with (before any
// output is opened).
func (l streamLayout) writable() error {
	if l.codec == framing.Auto {
		return usagef("--codec auto applies to reading only: name the codec to write (lz4, snappy, zstd or lzf)")
	}
	return nil
}

// newRowReader returns the format's stream reader.
func newRowReader(l streamLayout, r io.Reader, schema *arrow.Schema, batchRows int) (array.RecordReader, error) {
	// No allocator option: each Reader recycles its batches' buffers.
	if l.format == formatUnsafeRow {
		return unsaferow.NewReader(r, schema, unsaferow.WithFraming(l.framing),
			unsaferow.WithCodec(l.codec), unsaferow.WithBatchRows(batchRows))
	}
	return compactrow.NewReader(r, schema, compactrow.WithFraming(l.framing),
		compactrow.WithCodec(l.codec), compactrow.WithBatchRows(batchRows))
}

// rowWriter is what unsaferow.Writer and compactrow.Writer share.
type rowWriter interface {
	Write(rec arrow.RecordBatch) error
	Close() error
}

// newRowWriter returns the format's stream writer; flavor applies to
// UnsafeRow only; truncate lets lossy conversions round down.
func newRowWriter(l streamLayout, w io.Writer, schema *arrow.Schema, flavor unsaferow.Flavor, truncate bool, mem memory.Allocator) (rowWriter, error) {
	if err := l.writable(); err != nil {
		return nil, err
	}
	if l.format == formatUnsafeRow {
		opts := []unsaferow.Option{unsaferow.WithAllocator(mem), unsaferow.WithFraming(l.framing),
			unsaferow.WithCodec(l.codec), unsaferow.WithFlavor(flavor)}
		if truncate {
			opts = append(opts, unsaferow.WithTruncate())
		}
		return unsaferow.NewWriter(w, schema, opts...)
	}
	opts := []compactrow.Option{compactrow.WithAllocator(mem), compactrow.WithFraming(l.framing), compactrow.WithCodec(l.codec)}
	if truncate {
		opts = append(opts, compactrow.WithTruncate())
	}
	return compactrow.NewWriter(w, schema, opts...)
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// wrapf prefixes an error with what was being done.
func wrapf(err error, format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), err)
}
