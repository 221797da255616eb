package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/rowbridge/rowbridge/internal/ipcverify"
)

// Parquet output (decode --to parquet) and input (encode of a Parquet
// file), through arrow-go's pqarrow.

// toParquet is decode's Parquet output kind.
const toParquet = "parquet"

// The bounds of a row group that decode writes: a row group is closed
// once it holds parquetRowGroupRows rows, or once the batches written to
// it hold parquetRowGroupBytes bytes of Arrow data (their buffers, as
// decode holds them in memory: about what the values take uncompressed),
// at the end of the batch that passes the bound. Until it is closed a row
// group is buffered in memory, encoded and compressed, so the bytes bound
// also bounds what the writer holds. Variables so that tests can lower
// them; parquetPageBytes is arrow-go's default data page size.
var (
	parquetRowGroupRows  int64 = 1 << 20
	parquetRowGroupBytes int64 = 128 << 20
	parquetPageBytes     int64 = 1 << 20
)

// parquetCodecs are the values of --parquet-codec: the codecs arrow-go
// writes. lz4 is LZ4_RAW, the lz4 of current Parquet (arrow-go neither
// writes nor reads the deprecated Hadoop-framed LZ4).
var parquetCodecs = []struct {
	name  string
	codec compress.Compression
}{
	{"zstd", compress.Codecs.Zstd},
	{"snappy", compress.Codecs.Snappy},
	{"gzip", compress.Codecs.Gzip},
	{"lz4", compress.Codecs.Lz4Raw},
	{"brotli", compress.Codecs.Brotli},
	{"none", compress.Codecs.Uncompressed},
}

// parseParquetCodec resolves a --parquet-codec value.
func parseParquetCodec(s string) (compress.Compression, error) {
	names := make([]string, len(parquetCodecs))
	for i, c := range parquetCodecs {
		if strings.EqualFold(s, c.name) || strings.EqualFold(s, "lz4_raw") && c.name == "lz4" ||
			strings.EqualFold(s, "uncompressed") && c.name == "none" {
			return c.codec, nil
		}
		names[i] = c.name
	}
	return 0, usagef("unknown --parquet-codec %q (want %s)", s, strings.Join(names, ", "))
}

// parquetSink is decode's sink for --to parquet with codec.
func parquetSink(codec compress.Compression) sink {
	return func(w io.Writer, s *arrow.Schema, mem memory.Allocator) (batchWriter, error) {
		props := parquet.NewWriterProperties(
			parquet.WithAllocator(mem),
			parquet.WithCompression(codec),
			parquet.WithMaxRowGroupLength(parquetRowGroupRows),
			parquet.WithDataPageSize(parquetPageBytes),
			parquet.WithCreatedBy("rowbridge"),
		)
		// The stored Arrow schema brings back what Parquet has no type for
		// (a timestamp without a time zone stays one, a Null column stays
		// Null) when rowbridge or another Arrow reader reads the file.
		fw, err := pqarrow.NewFileWriter(s, w, props, pqarrow.NewArrowWriterProperties(
			pqarrow.WithAllocator(mem), pqarrow.WithStoreSchema()))
		if err != nil {
			return nil, wrapf(err, "writing Parquet")
		}
		return &parquetWriter{fw: fw}, nil
	}
}

// parquetWriter writes batches into buffered row groups as they arrive,
// starting a new row group when the current one has reached a bound.
type parquetWriter struct {
	fw         *pqarrow.FileWriter
	groupRows  int64 // in the current row group
	groupBytes int64 // of Arrow data written to the current row group
}

func (p *parquetWriter) Write(rec arrow.RecordBatch) error {
	n := rec.NumRows()
	size := columnar.RecordBytes(rec)
	for off := int64(0); off < n; {
		if p.groupRows > 0 && (p.groupRows >= parquetRowGroupRows || p.groupBytes >= parquetRowGroupBytes) {
			if err := p.fw.NewBufferedRowGroupChecked(); err != nil {
				return wrapf(err, "writing Parquet")
			}
			p.groupRows, p.groupBytes = 0, 0
		}
		k := min(n-off, parquetRowGroupRows-p.groupRows)
		part := rec
		if k < n {
			part = rec.NewSlice(off, off+k)
		}
		err := p.fw.WriteBuffered(part)
		if k < n {
			part.Release()
		}
		if err != nil {
			return wrapf(err, "writing Parquet")
		}
		p.groupRows += k
		p.groupBytes += size / n * k
		off += k
	}
	return nil
}

func (p *parquetWriter) Close() error {
	if err := p.fw.Close(); err != nil {
		return wrapf(err, "writing Parquet")
	}
	return nil
}

// parquetMagic starts and ends a Parquet file; parquetEncryptedMagic
// ends one whose footer is encrypted.
var (
	parquetMagic          = []byte("PAR1")
	parquetEncryptedMagic = []byte("PARE")
)

// parquetBatchRows is the most rows per batch read from Parquet.
const parquetBatchRows = 16 << 10

// openParquet opens the Parquet input in, which br has peeked at (and
// read nothing of yet). Parquet is read through io.ReaderAt (its footer,
// which says where everything is, is at the end): in must be a regular
// file, stdin redirected from one included; a pipe is refused.
func openParquet(in io.Reader, br *bufio.Reader, mem memory.Allocator) (batchSource, error) {
	f, start, size, onRead, err := regularInput(in, br)
	if err != nil {
		return nil, wrapf(err, "reading Parquet input")
	}
	if f == nil {
		return nil, errors.New("reading Parquet input: Parquet is read from a file (its footer is at the end), not a pipe: give its path as the input")
	}
	var r io.ReaderAt = io.NewSectionReader(f, start, size)
	if onRead != nil {
		r = &countingSection{SectionReader: r.(*io.SectionReader), onRead: onRead}
	}
	return openParquetReaderAt(r, size, mem)
}

// openParquetReaderAt opens the Parquet file of size bytes that r reads.
// The footer is untrusted: its length is checked against the file, its
// column chunks' byte ranges against the file's data, and its stored
// Arrow schema is verified before arrow-go reads it; arrow-go is called
// under guardArrow.
func openParquetReaderAt(r io.ReaderAt, size int64, mem memory.Allocator) (batchSource, error) {
	footerLen, err := checkParquetFooter(r, size)
	if err != nil {
		return nil, wrapf(err, "reading Parquet file")
	}
	props := parquet.NewReaderProperties(mem)
	// Column chunks are read through a buffer, not loaded whole into
	// memory, and no page may claim more bytes than the file has.
	props.BufferedStreamEnabled = true
	props.BufferSize = 1 << 20
	props.MaxCompressedPageSize = min(parquet.DefaultMaxCompressedPageSize, size)
	var src parquetSource
	err = guardArrow(func() error {
		pf, err := file.NewParquetReader(io.NewSectionReader(r, 0, size), file.WithReadProps(props))
		if err != nil {
			return err
		}
		src.pf = pf
		if err := checkParquetMetadata(pf.MetaData(), size-int64(footerLen)-8); err != nil {
			return err
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: parquetBatchRows}, mem)
		if err != nil {
			return err
		}
		if src.schema, err = fr.Schema(); err != nil {
			return err
		}
		if pf.NumRows() == 0 {
			return nil
		}
		src.rr, err = fr.GetRecordReader(context.Background(), nil, nil)
		return err
	})
	if err != nil {
		src.Close()
		return nil, wrapf(err, "reading Parquet file")
	}
	return &src, nil
}

// checkParquetFooter checks the end of a Parquet file of size bytes: the
// magic, and a footer length that fits in the file. It returns that
// length.
func checkParquetFooter(r io.ReaderAt, size int64) (uint32, error) {
	const minSize = 4 + 4 + 4 // magic, footer length, magic (an empty footer)
	if size < minSize {
		return 0, fmt.Errorf("the input is %d bytes, too short for a Parquet file (at least %d)", size, minSize)
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return 0, err
	}
	switch {
	case bytes.Equal(tail[4:], parquetEncryptedMagic):
		return 0, errors.New("the file's footer is encrypted: encrypted Parquet is not supported")
	case !bytes.Equal(tail[4:], parquetMagic):
		return 0, fmt.Errorf("the file does not end in the Parquet magic PAR1 (it ends in %q at byte %d): truncated or not Parquet", tail[4:], size-4)
	}
	n := binary.LittleEndian.Uint32(tail[:4])
	if int64(n) > size-minSize {
		return 0, fmt.Errorf("the footer length %d at byte %d is more than the %d bytes before it", n, size-8, size-8-4)
	}
	return n, nil
}

// checkParquetMetadata checks the row groups of the footer md against the
// file's data, the dataEnd bytes before the footer: every column chunk of
// the schema present, its bytes within the data, and no negative count.
// Stored Arrow schema metadata must be a valid IPC schema message.
func checkParquetMetadata(md *metadata.FileMetaData, dataEnd int64) error {
	ncols := md.Schema.NumColumns()
	for i := range md.NumRowGroups() {
		rg := md.RowGroup(i)
		if rg.NumRows() < 0 {
			return fmt.Errorf("row group %d: %d rows", i, rg.NumRows())
		}
		if rg.NumColumns() != ncols {
			return fmt.Errorf("row group %d: %d column chunks, but the schema has %d columns", i, rg.NumColumns(), ncols)
		}
		for j := range ncols {
			cc, err := rg.ColumnChunk(j)
			if err != nil {
				return fmt.Errorf("row group %d column %d: %w", i, j, err)
			}
			if cc.FilePath() != "" {
				return fmt.Errorf("row group %d column %d (%s): the column chunk is in another file (%s), which is not supported", i, j, cc.PathInSchema(), cc.FilePath())
			}
			off := cc.DataPageOffset()
			if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < off {
				off = cc.DictionaryPageOffset()
			}
			n := cc.TotalCompressedSize()
			if off < 4 || n < 0 || n > dataEnd-off || cc.NumValues() < 0 {
				return fmt.Errorf("row group %d column %d (%s): the column chunk's %d bytes at byte %d are not within the file's data (bytes 4 to %d)", i, j, cc.PathInSchema(), n, off, dataEnd)
			}
		}
	}
	if v := md.KeyValueMetadata().FindValue("ARROW:schema"); v != nil {
		if err := checkStoredSchema(*v); err != nil {
			return fmt.Errorf("the stored Arrow schema (ARROW:schema): %w", err)
		}
	}
	return nil
}

// decodeStoredSchema decodes the base64 IPC schema message that pqarrow
// stores (ARROW:schema) as pqarrow decodes it: padded base64, else
// unpadded.
func decodeStoredSchema(s string) ([]byte, error) {
	var b []byte
	var err error
	if len(s)%4 == 0 {
		b, err = base64.StdEncoding.DecodeString(s)
	}
	if len(b) == 0 || err != nil {
		b, err = base64.RawStdEncoding.DecodeString(s)
	}
	return b, err
}

// checkStoredSchema verifies the base64 IPC schema message that pqarrow
// stores, decoded as pqarrow decodes it.
func checkStoredSchema(s string) error {
	b, err := decodeStoredSchema(s)
	if err != nil {
		return err
	}
	mr := ipcverify.NewMessageReader(bytes.NewReader(b))
	defer mr.Release()
	if _, err := mr.Message(); err != nil {
		return err
	}
	return nil
}

// parquetSource reads a Parquet file batch by batch, row group after row
// group.
type parquetSource struct {
	pf     *file.Reader
	rr     pqarrow.RecordReader // nil for a file of no rows
	schema *arrow.Schema
	next   int   // the next batch
	rows   int64 // rows read so far
}

func (s *parquetSource) Schema() *arrow.Schema { return s.schema }

func (s *parquetSource) Close() {
	if s.rr != nil {
		s.rr.Release()
		s.rr = nil
	}
	if s.pf != nil {
		s.pf.Close()
		s.pf = nil
	}
}

func (s *parquetSource) Next() (arrow.RecordBatch, bool, error) {
	if s.rr == nil {
		return nil, false, nil
	}
	var rec arrow.RecordBatch
	err := guardArrow(func() error {
		if !s.rr.Next() {
			if err := s.rr.Err(); err != nil && !errors.Is(err, io.EOF) {
				return err
			}
			return nil
		}
		rec = s.rr.RecordBatch()
		return validateBatch(rec)
	})
	if err != nil {
		return nil, false, wrapf(err, "reading Parquet file batch %d (from row %d)", s.next, s.rows)
	}
	if rec == nil {
		if want := s.pf.NumRows(); s.rows != want {
			return nil, false, fmt.Errorf("reading Parquet file: its footer says %d rows, its column chunks hold %d", want, s.rows)
		}
		s.Close()
		return nil, false, nil
	}
	s.next++
	s.rows += rec.NumRows()
	return rec, true, nil
}
