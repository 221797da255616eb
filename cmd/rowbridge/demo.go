package main

import (
	"bytes"
	_ "embed"
	"flag"
	"fmt"
	"strings"

	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/framing"
)

// The bundled sample: a Spark-framed UnsafeRow stream (Spark flavour) and
// its schema. TestSampleIsCurrent regenerates them with -update.
var (
	//go:embed sample/sample.ddl
	sampleDDL string
	//go:embed sample/sample.unsaferow
	sampleRows []byte
)

func init() {
	register(&command{
		name:    "demo",
		summary: "decode the bundled sample UnsafeRow stream and print it as a table",
		usage:   "",
		examples: []string{
			`rowbridge demo`,
			`rowbridge decode --format unsaferow --schema @testdata/sample/schema.ddl --to jsonl testdata/sample/unsaferow-spark.bin   # the same sample from its file, as JSON lines`,
		},
		flags: demoFlags,
	})
}

func demoFlags(fs *flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usagef("demo takes no arguments")
		}
		return demo(e)
	}
}

func demo(e *env) error {
	schema, err := ddl.Parse(sampleDDL)
	if err != nil {
		return wrapf(err, "sample schema")
	}
	layout := streamLayout{format: formatUnsafeRow, framing: framing.Spark, codec: framing.None}
	rr, err := newRowReader(layout, bytes.NewReader(sampleRows), schema, 4096)
	if err != nil {
		return err
	}
	defer rr.Release()
	t := newTable(schema)
	for rr.Next() {
		t.addBatch(rr.RecordBatch())
	}
	if err := rr.Err(); err != nil {
		return wrapf(err, "sample stream")
	}
	text, err := ddl.FormatDDL(schema)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Bundled sample: a Spark UnsafeRow stream of %d rows in %d bytes (4-byte big-endian size + row, repeated).\n\n", t.rows(), len(sampleRows))
	fmt.Fprintf(&b, "Schema: %s\n\n", text)
	t.render(&b)
	b.WriteString("\nDecode your own: rowbridge decode --format unsaferow --schema '<schema>' --to jsonl rows.bin\n")
	b.WriteString("Spark's shuffle files (a sample in testdata/sample/shuffle): rowbridge shuffle ls DIR, rowbridge shuffle decode --schema '<schema>' DIR\n")
	_, err = e.stdout.Write([]byte(b.String()))
	return err
}
