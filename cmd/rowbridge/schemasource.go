package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/internal/ipcverify"
)

// Every command that takes a schema reads it here, so the same schema
// means the same thing, and the same bad schema fails with the same exit
// code (2) and message, whichever command is given it.

// schemaFlagUsage describes a --schema flag.
const schemaFlagUsage = "row schema: Spark DDL, a catalog string, a Velox type string or Spark's StructType JSON; " +
	"or @FILE: a file holding one, or an Arrow IPC file or stream, or a Parquet file, whose schema is taken"

// Input notations beyond package ddl's text notations.
const (
	notationAuto    = "auto"
	notationArrow   = "arrow"
	notationParquet = "parquet"
	notationJSON    = "json"
)

// maxSchemaText bounds a schema text file: a larger one is surely not one.
const maxSchemaText = 16 << 20

// maxParquetFooter bounds the Parquet footer read for a schema.
const maxParquetFooter = 64 << 20

// loadSchema reads the value of a --schema flag: schema text in any
// notation, or @FILE.
func loadSchema(s string) (*arrow.Schema, error) {
	if s == "" {
		return nil, usagef("--schema is required (for example --schema 'id BIGINT, name STRING')")
	}
	if path, ok := strings.CutPrefix(s, "@"); ok {
		return schemaFromFile(path, notationAuto)
	}
	return schemaFromText(notationAuto, s, "")
}

// schemaFromText parses text in notation from ("auto" tells them apart);
// where names the file it came from, if any, in errors. Blank text is an
// error: it is far likelier a mistake (an unset shell variable) than a
// wish for rows of no columns.
func schemaFromText(from, text, where string) (*arrow.Schema, error) {
	if strings.TrimSpace(text) == "" {
		return nil, badSchema(where, errors.New("it is empty (a schema of no columns is written struct<>)"))
	}
	var sc *arrow.Schema
	var err error
	switch from {
	case "ddl":
		sc, err = ddl.ParseDDL(text)
	case "catalog":
		sc, err = ddl.ParseCatalog(text)
	case "velox":
		sc, err = ddl.ParseVelox(text)
	case notationJSON:
		sc, err = ddl.ParseJSON(text)
	default:
		sc, err = ddl.Parse(text)
	}
	if err != nil {
		return nil, badSchema(where, err)
	}
	return sc, nil
}

// schemaFromFile reads the schema in the file at path: an Arrow IPC file
// or stream or a Parquet file (told apart by their magic bytes, not the
// name), else schema text.
func schemaFromFile(path, from string) (*arrow.Schema, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, badSchema("", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, badSchema(path, err)
	}
	if fi.IsDir() {
		return nil, badSchema(path, errors.New("it is a directory"))
	}
	head := make([]byte, len(ipcverify.FileMagic))
	n, err := f.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return nil, badSchema(path, err)
	}
	head = head[:n]
	kind := sniffSchema(head)
	if err := checkSchemaKind(from, kind); err != nil {
		return nil, badSchema(path, err)
	}
	var sc *arrow.Schema
	switch kind {
	case notationArrow:
		off := int64(0)
		if bytes.HasPrefix(head, ipcverify.FileMagic) {
			// The whole file is verified, footer and blocks, as every
			// command that reads it does; the schema is the stream
			// format's, after the magic padded to 8 bytes.
			if err := ipcverify.File(f, fi.Size()); err != nil {
				return nil, badSchema(path, wrapf(err, "reading Arrow IPC file"))
			}
			off = 8
		}
		sc, err = arrowSchemaOf(bufio.NewReader(io.NewSectionReader(f, off, fi.Size()-off)), off)
	case notationParquet:
		sc, err = parquetSchemaOf(f, fi.Size())
	default:
		if fi.Size() > maxSchemaText {
			return nil, badSchema(path, fmt.Errorf("%d bytes are too many for schema text, and it is not an Arrow IPC or Parquet file", fi.Size()))
		}
		b, err := io.ReadAll(f)
		if err != nil {
			return nil, badSchema(path, err)
		}
		if len(bytes.TrimSpace(b)) == 0 {
			return nil, badSchema(path, errors.New("the file is empty (a schema of no columns is written struct<>)"))
		}
		return schemaFromText(from, string(b), path)
	}
	if err != nil {
		return nil, badSchema(path, err)
	}
	return rowSchema(sc, path)
}

// schemaFromStdin reads a schema from r: an Arrow IPC stream or file, or
// schema text. A Parquet file needs random access and is refused.
func schemaFromStdin(r io.Reader, from string) (*arrow.Schema, error) {
	const where = "stdin"
	br := bufio.NewReader(r)
	head, _ := br.Peek(len(ipcverify.FileMagic))
	kind := sniffSchema(head)
	if err := checkSchemaKind(from, kind); err != nil {
		return nil, badSchema(where, err)
	}
	switch kind {
	case notationArrow:
		var in io.Reader = br
		off := int64(0)
		if bytes.HasPrefix(head, ipcverify.FileMagic) {
			// An IPC file needs random access to verify: read it whole.
			data, err := io.ReadAll(br)
			if err != nil {
				return nil, badSchema(where, err)
			}
			if err := ipcverify.File(bytes.NewReader(data), int64(len(data))); err != nil {
				return nil, badSchema(where, wrapf(err, "reading Arrow IPC file"))
			}
			in, off = bytes.NewReader(data[8:]), 8
		}
		sc, err := arrowSchemaOf(in, off)
		if err != nil {
			return nil, badSchema(where, err)
		}
		return rowSchema(sc, where)
	case notationParquet:
		return nil, badSchema(where, errors.New("a Parquet file's schema is in its footer, at the end: name the file instead of piping it"))
	}
	b, err := io.ReadAll(io.LimitReader(br, maxSchemaText+1))
	if err != nil {
		return nil, badSchema(where, err)
	}
	if len(b) > maxSchemaText {
		return nil, badSchema(where, fmt.Errorf("more than %d bytes are too many for schema text", maxSchemaText))
	}
	return schemaFromText(from, string(b), where)
}

// sniffSchema tells from a file's first bytes whether it is Arrow IPC (a
// file's magic or a stream's continuation marker), Parquet, or text ("").
func sniffSchema(head []byte) string {
	switch {
	case bytes.HasPrefix(head, ipcverify.FileMagic), bytes.HasPrefix(head, arrowContinuation):
		return notationArrow
	case bytes.HasPrefix(head, parquetMagic):
		return notationParquet
	}
	return ""
}

// checkSchemaKind checks what was found against what --from asked for.
func checkSchemaKind(from, kind string) error {
	switch {
	case from == notationArrow && kind != notationArrow:
		return errors.New("it is not an Arrow IPC file or stream (no magic \"ARROW1\" or continuation marker at its start)")
	case from == notationParquet && kind != notationParquet:
		return errors.New("it is not a Parquet file (no magic \"PAR1\" at its start)")
	case from != notationAuto && from != notationArrow && from != notationParquet && kind != "":
		return fmt.Errorf("--from %s wants schema text, and this is %s data", from, map[string]string{notationArrow: "Arrow IPC", notationParquet: "Parquet"}[kind])
	}
	return nil
}

// rowSchema is the schema of rows holding the data of a file with schema
// sc: each type as Spark reads it.
func rowSchema(sc *arrow.Schema, where string) (*arrow.Schema, error) {
	rs, err := ddl.Normalize(sc)
	if err != nil {
		return nil, badSchema(where, err)
	}
	return rs, nil
}

// arrowSchemaOf reads the schema message that starts an Arrow IPC stream
// (r's first byte at offset off of the file), verified by ipcverify before
// arrow-go reads it; nothing after it is read.
func arrowSchemaOf(r io.Reader, off int64) (*arrow.Schema, error) {
	mr := ipcverify.NewMessageReaderAt(r, off)
	defer mr.Release()
	var sc *arrow.Schema
	err := guardArrow(func() error {
		rdr, err := ipc.NewReaderFromMessageReader(mr)
		if err != nil {
			return err
		}
		sc = rdr.Schema()
		rdr.Release()
		return nil
	})
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("reading Arrow IPC schema: the stream ends before its schema")
		}
		return nil, arrowError(err, "reading Arrow IPC schema")
	}
	return sc, nil
}

// parquetSchemaOf reads the schema of the Parquet file of size bytes that r
// reads, from its footer alone, as arrow-go's pqarrow maps it to Arrow (an
// Arrow schema stored by an Arrow writer, ARROW:schema, is used and is
// verified first). The footer's length is checked against the file's size
// and a bound before anything is allocated for it.
func parquetSchemaOf(r io.ReaderAt, size int64) (*arrow.Schema, error) {
	const trailer = 8 // footer length, magic
	if size < int64(len(parquetMagic))+trailer {
		return nil, fmt.Errorf("reading Parquet footer: %d bytes are too few for a Parquet file", size)
	}
	tail := make([]byte, trailer)
	if _, err := r.ReadAt(tail, size-trailer); err != nil {
		return nil, fmt.Errorf("reading Parquet footer: %w", err)
	}
	switch {
	case bytes.Equal(tail[4:], parquetMagic):
	case bytes.Equal(tail[4:], parquetEncryptedMagic):
		return nil, errors.New("reading Parquet footer: the footer is encrypted; rowbridge reads plaintext footers")
	default:
		return nil, fmt.Errorf("reading Parquet footer: the file does not end with the magic \"PAR1\" (is it truncated?)")
	}
	n := int64(binary.LittleEndian.Uint32(tail))
	if n == 0 || n > size-int64(len(parquetMagic))-trailer {
		return nil, fmt.Errorf("reading Parquet footer: footer length %d does not fit in the %d-byte file", n, size)
	}
	if n > maxParquetFooter {
		return nil, fmt.Errorf("reading Parquet footer: footer length %d is over rowbridge's bound of %d bytes", n, maxParquetFooter)
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-trailer-n); err != nil {
		return nil, fmt.Errorf("reading Parquet footer: %w", err)
	}
	var sc *arrow.Schema
	err := guardArrow(func() error {
		md, err := metadata.NewFileMetaData(footer, nil)
		if err != nil {
			return err
		}
		kv := md.KeyValueMetadata()
		if err := verifyStoredArrowSchema(kv); err != nil {
			return err
		}
		sc, err = pqarrow.FromParquet(md.Schema, &pqarrow.ArrowReadProperties{}, kv)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading Parquet footer: %w", err)
	}
	return sc, nil
}

// verifyStoredArrowSchema checks the Arrow schema an Arrow writer stores in
// a Parquet file's metadata (base64 of an IPC schema message) with
// ipcverify, before pqarrow decodes it without checks.
func verifyStoredArrowSchema(kv metadata.KeyValueMetadata) error {
	v := kv.FindValue("ARROW:schema")
	if v == nil {
		return nil
	}
	decoded, err := decodeStoredSchema(*v)
	if err != nil {
		return fmt.Errorf("the ARROW:schema metadata is not base64: %w", err)
	}
	if _, err := arrowSchemaOf(bytes.NewReader(decoded), 0); err != nil {
		return fmt.Errorf("the ARROW:schema metadata: %w", err)
	}
	return nil
}

// badSchema makes a schema's failure a usage error, the same from every
// command: "bad schema: ...", "bad schema in FILE: ..." (where names the
// file, or stdin). A syntax error shows its line with a caret first.
func badSchema(where string, err error) error {
	var ue *usageError
	if errors.As(err, &ue) {
		return err // already one
	}
	msg := err.Error()
	detail := ""
	var se *ddl.SyntaxError
	if errors.As(err, &se) {
		msg = strings.TrimPrefix(se.Error(), "ddl: ")
		detail = indent(se.Caret(), "  ")
	} else {
		msg = strings.TrimPrefix(msg, "ddl: ")
	}
	switch where {
	case "":
		return &usageError{msg: "bad schema: " + msg, detail: detail}
	case "stdin":
		return &usageError{msg: "bad schema on stdin: " + msg, detail: detail}
	}
	return &usageError{msg: "bad schema in " + where + ": " + msg, detail: detail}
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
