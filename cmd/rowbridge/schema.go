package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/internal/ipcverify"
)

func init() {
	register(&command{
		name:    "schema",
		summary: "convert a schema between Spark DDL, Spark catalog strings, Velox type strings and Arrow",
		usage:   "[--from auto|ddl|catalog|velox|arrow] [--to ddl|catalog|velox|arrow|json] SCHEMA|@FILE|FILE|-",
		examples: []string{
			`rowbridge schema --to velox 'id BIGINT NOT NULL, tags ARRAY<STRING>'`,
			`rowbridge schema 'ROW(id BIGINT, attrs MAP(VARCHAR, INTEGER))'`,
			`rowbridge schema --to catalog @schema.ddl`,
			`rowbridge schema --to ddl rows.arrow   # the schema of an Arrow IPC file or stream`,
			`rowbridge schema --to json 'struct<id:bigint,price:decimal(10,2)>'   # Spark's StructType JSON`,
		},
		flags: schemaFlags,
	})
}

// Notations the schema command reads and writes beyond package ddl's.
const (
	notationAuto  = "auto"
	notationArrow = "arrow"
	notationJSON  = "json"
)

func schemaFlags(fs *flag.FlagSet) func(*env, []string) error {
	var from, to string
	fs.StringVar(&from, "from", notationAuto, "input notation: auto, ddl, catalog, velox or arrow (an Arrow IPC file or stream); auto tells them apart")
	fs.StringVar(&to, "to", "ddl", "output notation: ddl, catalog, velox, arrow (arrow-go's schema text) or json (Spark's StructType JSON)")
	return func(e *env, args []string) error {
		from, to := strings.ToLower(from), strings.ToLower(to)
		switch from {
		case notationAuto, "ddl", "catalog", "velox", notationArrow:
		default:
			return usagef("unknown --from %q (want auto, ddl, catalog, velox or arrow)", from)
		}
		switch to {
		case "ddl", "catalog", "velox", notationArrow, notationJSON:
		default:
			return usagef("unknown --to %q (want ddl, catalog, velox, arrow or json)", to)
		}
		if len(args) != 1 {
			return usagef("want one schema, @FILE, FILE or - (stdin), got %d arguments", len(args))
		}
		sc, err := readSchemaArg(e, from, args[0])
		if err != nil {
			var se *ddl.SyntaxError
			if errors.As(err, &se) {
				// run prints the one-line message after this; the caret
				// goes first, indented, the way Python shows a bad line.
				fmt.Fprintln(e.stderr, indent(se.Caret(), "  "))
			}
			return err
		}
		text, err := formatSchema(sc, to)
		if err != nil {
			return err
		}
		if paths := notNullFields(sc.Fields(), ""); to == "velox" && len(paths) > 0 {
			fmt.Fprintf(e.stderr, "rowbridge schema: note: Velox type strings cannot say NOT NULL; dropped for %s\n", strings.Join(paths, ", "))
		}
		_, err = io.WriteString(e.stdout, text+"\n")
		return err
	}
}

// notNullFields lists the paths of the non-nullable fields, struct fields
// included, the way errors name them (s.a).
func notNullFields(fields []arrow.Field, prefix string) []string {
	var out []string
	for _, f := range fields {
		if !f.Nullable {
			out = append(out, prefix+f.Name)
		}
		if st, ok := f.Type.(*arrow.StructType); ok {
			out = append(out, notNullFields(st.Fields(), prefix+f.Name+".")...)
		}
	}
	return out
}

// readSchemaArg reads the schema named by arg: stdin for "-", a file for
// @FILE or an existing file, else the schema text itself.
func readSchemaArg(e *env, from, arg string) (*arrow.Schema, error) {
	path, isPath := strings.CutPrefix(arg, "@")
	if !isPath && arg != "-" && (from == notationArrow || isRegularFile(arg)) {
		path, isPath = arg, true
	}
	switch {
	case isPath:
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		// A file can be read again from its start, as an IPC file must be.
		return readSchemaFrom(f, from, func(io.Reader) (*arrow.Schema, error) { return arrowFileSchema(f) })
	case arg == "-":
		return readSchemaFrom(e.stdin, from, arrowSchema)
	}
	return parseSchema(from, arg)
}

// readSchemaFrom reads r's schema: with arrowOf if it is Arrow IPC (so
// --from says, or auto sees its magic), else as schema text.
func readSchemaFrom(r io.Reader, from string, arrowOf func(io.Reader) (*arrow.Schema, error)) (*arrow.Schema, error) {
	br := bufio.NewReader(r)
	if from == notationArrow || from == notationAuto && looksLikeArrow(br) {
		return arrowOf(br)
	}
	b, err := io.ReadAll(br)
	if err != nil {
		return nil, err
	}
	return parseSchema(from, string(b))
}

func parseSchema(from, text string) (*arrow.Schema, error) {
	switch from {
	case "ddl":
		return ddl.ParseDDL(text)
	case "catalog":
		return ddl.ParseCatalog(text)
	case "velox":
		return ddl.ParseVelox(text)
	}
	return ddl.Parse(text)
}

func isRegularFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// arrowStreamMagic starts every IPC stream message since Arrow 0.15 (the
// continuation marker).
var arrowStreamMagic = []byte{0xff, 0xff, 0xff, 0xff}

// looksLikeArrow peeks at br for the IPC file or stream magic.
func looksLikeArrow(br *bufio.Reader) bool {
	head, _ := br.Peek(len(ipcverify.FileMagic))
	return bytes.HasPrefix(head, ipcverify.FileMagic) || bytes.HasPrefix(head, arrowStreamMagic)
}

// arrowFileSchema reads the schema of an Arrow IPC file (from its footer,
// without reading the batches) or stream.
func arrowFileSchema(f *os.File) (*arrow.Schema, error) {
	head := make([]byte, len(ipcverify.FileMagic))
	if n, _ := f.ReadAt(head, 0); n == len(head) && bytes.Equal(head, ipcverify.FileMagic) {
		fi, err := f.Stat()
		if err != nil {
			return nil, err
		}
		src, err := openArrowFile(f, fi.Size(), memory.DefaultAllocator)
		if err != nil {
			return nil, err
		}
		defer src.Close()
		return src.Schema(), nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return arrowSchema(f)
}

// arrowSchema reads the schema of an Arrow IPC stream or file.
func arrowSchema(r io.Reader) (*arrow.Schema, error) {
	src, err := openArrow(r, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	return src.Schema(), nil
}

func formatSchema(sc *arrow.Schema, to string) (string, error) {
	switch to {
	case "ddl":
		return ddl.FormatDDL(sc)
	case "catalog":
		return ddl.FormatCatalog(sc)
	case "velox":
		return ddl.FormatVelox(sc)
	case notationArrow:
		return sc.String(), nil
	case notationJSON:
		b, err := appendSparkStructJSON(nil, sc.Fields())
		return string(b), err
	}
	return "", fmt.Errorf("unknown notation %q", to)
}

// appendSparkStructJSON writes fields the way Spark's StructType.json does:
// {"type":"struct","fields":[{"name":..,"type":..,"nullable":..,"metadata":{}}]}.
func appendSparkStructJSON(dst []byte, fields []arrow.Field) ([]byte, error) {
	dst = append(dst, `{"type":"struct","fields":[`...)
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"name":`...)
		dst = appendJSONString(dst, f.Name)
		dst = append(dst, `,"type":`...)
		var err error
		if dst, err = appendSparkTypeJSON(dst, f.Type); err != nil {
			return nil, err
		}
		dst = append(dst, `,"nullable":`...)
		dst = strconv.AppendBool(dst, f.Nullable)
		dst = append(dst, `,"metadata":{`...)
		if j := f.Metadata.FindKey(ddl.CommentKey); j >= 0 {
			dst = append(dst, `"comment":`...)
			dst = appendJSONString(dst, f.Metadata.Values()[j])
		}
		dst = append(dst, "}}"...)
	}
	return append(dst, "]}"...), nil
}

func appendSparkTypeJSON(dst []byte, t arrow.DataType) ([]byte, error) {
	var err error
	switch t := t.(type) {
	case *arrow.StructType:
		return appendSparkStructJSON(dst, t.Fields())
	case *arrow.ListType:
		dst = append(dst, `{"type":"array","elementType":`...)
		if dst, err = appendSparkTypeJSON(dst, t.Elem()); err != nil {
			return nil, err
		}
		dst = append(dst, `,"containsNull":`...)
		dst = strconv.AppendBool(dst, t.ElemField().Nullable)
		return append(dst, '}'), nil
	case *arrow.MapType:
		dst = append(dst, `{"type":"map","keyType":`...)
		if dst, err = appendSparkTypeJSON(dst, t.KeyType()); err != nil {
			return nil, err
		}
		dst = append(dst, `,"valueType":`...)
		if dst, err = appendSparkTypeJSON(dst, t.ItemType()); err != nil {
			return nil, err
		}
		dst = append(dst, `,"valueContainsNull":`...)
		dst = strconv.AppendBool(dst, t.ItemField().Nullable)
		return append(dst, '}'), nil
	}
	// The catalog name checks the type is one Spark has; JSON spells a few
	// integer names differently.
	name, err := ddl.FormatType(t, ddl.NotationCatalog)
	if err != nil {
		return nil, err
	}
	switch name {
	case "tinyint":
		name = "byte"
	case "smallint":
		name = "short"
	case "int":
		name = "integer"
	case "bigint":
		name = "long"
	}
	return appendJSONString(dst, name), nil
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
