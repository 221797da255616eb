package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/compactrow"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite sample/sample.unsaferow and testdata/sample from sampleJSON")

// sampleJSON is the bundled sample's content.
const sampleJSON = `[
{"id":1,"name":"espresso","price":"2.50","tags":["hot","small"],"attrs":[{"key":"shots","value":1}],"seen":"2024-03-01T08:15:00Z","active":true},
{"id":2,"name":"cappuccino","price":"3.75","tags":["hot","milk"],"attrs":[{"key":"shots","value":2},{"key":"milk_ml","value":150}],"seen":"2024-03-01T08:20:30.5Z","active":true},
{"id":3,"name":null,"price":"0.99","tags":[],"attrs":null,"seen":null,"active":false},
{"id":4,"name":"iced latte","price":"4.20","tags":["cold",null],"attrs":[{"key":"shots","value":2}],"seen":"2024-03-02T14:00:00Z","active":null},
{"id":5,"name":"matcha","price":null,"tags":null,"attrs":[],"seen":"2024-03-03T09:45:12.123456Z","active":true}
]`

// sampleRecord builds the sample from sampleJSON and the bundled schema.
func sampleRecord(t *testing.T, mem memory.Allocator) (*arrow.Schema, arrow.RecordBatch) {
	t.Helper()
	schema, err := ddl.Parse(sampleDDL)
	require.NoError(t, err)
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(sampleJSON))
	require.NoError(t, err)
	return schema, rec
}

// TestSampleIsCurrent checks the embedded sample bytes are what the
// encoder makes of sampleJSON; go test -run TestSampleIsCurrent -update
// rewrites them.
func TestSampleIsCurrent(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema, rec := sampleRecord(t, mem)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := unsaferow.NewWriter(&buf, schema, unsaferow.WithAllocator(mem))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	if *update {
		require.NoError(t, os.WriteFile("sample/sample.unsaferow", buf.Bytes(), 0o644))
		writeTestdataSample(t, mem, schema, rec, buf.Bytes())
		return
	}
	require.Equal(t, buf.Bytes(), sampleRows, "run go test ./cmd/rowbridge -run TestSampleIsCurrent -update")
}

// testdataSample is the copy of the sample in other shapes, for tests and
// tools outside this command (interop, docs).
const testdataSample = "../../testdata/sample"

// sampleFiles renders the testdata/sample files from the sample record.
func sampleFiles(t *testing.T, mem memory.Allocator, schema *arrow.Schema, rec arrow.RecordBatch, unsafeRows []byte) map[string][]byte {
	t.Helper()
	files := map[string][]byte{
		"schema.ddl":          []byte(sampleDDL),
		"unsaferow-spark.bin": unsafeRows,
	}
	var cr bytes.Buffer
	w, err := compactrow.NewWriter(&cr, schema, compactrow.WithAllocator(mem), compactrow.WithFraming(framing.Velox), compactrow.WithCodec(framing.LZ4))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	files["compactrow-velox-lz4.bin"] = cr.Bytes()
	files["sample.arrow"] = writeArrowFile(t, schema, []arrow.RecordBatch{rec}, mem)
	var jsonl []byte
	for i := range int(rec.NumRows()) {
		jsonl = append(appendRowJSON(jsonl, rec, i), '\n')
	}
	files["sample.jsonl"] = jsonl
	return files
}

func writeTestdataSample(t *testing.T, mem memory.Allocator, schema *arrow.Schema, rec arrow.RecordBatch, unsafeRows []byte) {
	require.NoError(t, os.MkdirAll(testdataSample, 0o755))
	for name, b := range sampleFiles(t, mem, schema, rec, unsafeRows) {
		require.NoError(t, os.WriteFile(filepath.Join(testdataSample, name), b, 0o644))
	}
}

func TestTestdataSampleIsCurrent(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema, rec := sampleRecord(t, mem)
	defer rec.Release()
	for name, want := range sampleFiles(t, mem, schema, rec, sampleRows) {
		got, err := os.ReadFile(filepath.Join(testdataSample, name))
		require.NoError(t, err)
		require.Equal(t, want, got, "%s is stale: run go test ./cmd/rowbridge -run TestSampleIsCurrent -update", name)
	}
}
