package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/ddl"
)

func init() {
	register(&command{
		name:    "schema",
		summary: "convert a schema between Spark DDL, catalog strings, Spark's StructType JSON, Velox type strings and Arrow",
		usage:   "[--from auto|ddl|catalog|velox|json|arrow|parquet] [--to ddl|catalog|velox|json|arrow] SCHEMA|@FILE|FILE|-",
		examples: []string{
			`rowbridge schema --to velox 'id BIGINT NOT NULL, tags ARRAY<STRING>'`,
			`rowbridge schema 'ROW(id BIGINT, attrs MAP(VARCHAR, INTEGER))'`,
			`rowbridge schema --to json 'struct<id:bigint,price:decimal(10,2)>'   # Spark's StructType JSON, as df.schema.json() prints it`,
			`rowbridge schema --to ddl data.parquet   # the row schema of a Parquet file or an Arrow IPC file or stream`,
			`rowbridge schema --to catalog @schema.json   # what Spark's catalog shows`,
		},
		flags: schemaFlags,
	})
}

func schemaFlags(fs *flag.FlagSet) func(*env, []string) error {
	var from, to string
	fs.StringVar(&from, "from", notationAuto, "input notation: auto, ddl, catalog, velox, json (Spark's StructType JSON), arrow (an Arrow IPC file or stream) or parquet; auto tells them apart")
	fs.StringVar(&to, "to", "ddl", "output notation: ddl, catalog (Spark's catalogString), velox, json (Spark's StructType JSON) or arrow (arrow-go's schema text)")
	return func(e *env, args []string) error {
		from, to := strings.ToLower(from), strings.ToLower(to)
		switch from {
		case notationAuto, "ddl", "catalog", "velox", notationJSON, notationArrow, notationParquet:
		default:
			return usagef("unknown --from %q (want auto, ddl, catalog, velox, json, arrow or parquet)", from)
		}
		switch to {
		case "ddl", "catalog", "velox", notationArrow, notationJSON:
		default:
			return usagef("unknown --to %q (want ddl, catalog, velox, json or arrow)", to)
		}
		if len(args) != 1 {
			return usagef("want one schema, @FILE, FILE or - (stdin), got %d arguments", len(args))
		}
		sc, err := readSchemaArg(e, from, args[0])
		if err != nil {
			return err
		}
		text, err := formatSchema(sc, to)
		if err != nil {
			return err
		}
		noteDropped(e, sc, to)
		_, err = io.WriteString(e.stdout, text+"\n")
		return err
	}
}

// noteDropped says on stderr what the output notation cannot say.
func noteDropped(e *env, sc *arrow.Schema, to string) {
	var what string
	switch to {
	case "velox":
		what = "Velox type strings cannot say NOT NULL"
	case "catalog":
		what = "Spark's catalog strings say neither NOT NULL nor comments"
	default:
		return
	}
	if paths := droppedFields(sc.Fields(), "", to == "catalog"); len(paths) > 0 {
		fmt.Fprintf(e.stderr, "rowbridge schema: note: %s; dropped for %s\n", what, strings.Join(paths, ", "))
	}
}

// droppedFields lists the paths of the non-nullable fields (and, with
// comments, the commented ones), struct fields included, the way errors
// name them (s.a).
func droppedFields(fields []arrow.Field, prefix string, comments bool) []string {
	var out []string
	for _, f := range fields {
		_, commented := f.Metadata.GetValue(ddl.CommentKey)
		if !f.Nullable || comments && commented {
			out = append(out, prefix+f.Name)
		}
		if st, ok := f.Type.(*arrow.StructType); ok {
			out = append(out, droppedFields(st.Fields(), prefix+f.Name+".", comments)...)
		}
	}
	return out
}

// readSchemaArg reads the schema named by arg: stdin for "-", a file for
// @FILE or an existing file, else the schema text itself.
func readSchemaArg(e *env, from, arg string) (*arrow.Schema, error) {
	path, isPath := strings.CutPrefix(arg, "@")
	if !isPath && arg != "-" && (from == notationArrow || from == notationParquet || isRegularFile(arg)) {
		path, isPath = arg, true
	}
	switch {
	case isPath:
		return schemaFromFile(path, from)
	case arg == "-":
		return schemaFromStdin(e.stdin, from)
	case from == notationArrow || from == notationParquet:
		return nil, usagef("--from %s needs a file", from)
	}
	return schemaFromText(from, arg, "")
}

func isRegularFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
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
		return ddl.FormatJSON(sc)
	}
	return "", fmt.Errorf("unknown notation %q", to)
}
