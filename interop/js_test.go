package interop

import (
	"bytes"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	jsSeed  = 20261129
	jsCases = 48 // 16 per codec, all checked in one Node run
)

// rowCase is one random schema and batch taken through a row codec.
type rowCase struct {
	jsCase
	codec   string
	schema  *arrow.Schema
	rows    rowbridge.Rows    // the codec's bytes, which Go decoded
	decoded arrow.RecordBatch // what rowbridge handed to JS, as one batch
}

// makeRowCase encodes a random batch with codec, decodes the bytes (the
// Arrow data under test) and writes it as IPC stream and file plus the
// expected JSON into dir.
func makeRowCase(t *testing.T, mem memory.Allocator, r *rand.Rand, dir string, i int, codec string) rowCase {
	t.Helper()
	schema := testgen.RandomSchema(r)
	nrows := r.Intn(120) + 1
	if i%17 == 5 {
		nrows = 0
	}
	src := testgen.RandomBatch(mem, r, schema, nrows)
	defer src.Release()
	enc, dec, err := newCodec(codec, schema, mem)
	require.NoError(t, err, schema)
	rows, err := encodeAll(enc, []arrow.RecordBatch{src})
	require.NoError(t, err, "%s encode %s", codec, schema)
	// Every fourth case goes through the codec's framed stream Writer and
	// Reader (Spark framing, or Velox framing with zstd row groups) in small
	// batches, so the IPC holds several record batches.
	var batches []arrow.RecordBatch
	how := "rows"
	if i%4 == 1 {
		velox := i%8 == 1
		how = map[bool]string{false: "spark-stream", true: "velox-zstd-stream"}[velox]
		batches, err = streamDecode(codec, schema, mem, src, velox, 1+r.Intn(40))
		require.NoError(t, err, "%s %s %s", codec, how, schema)
	} else {
		decoded, err := dec.Decode(rows.Slices())
		require.NoError(t, err, "%s decode %s", codec, schema)
		batches = []arrow.RecordBatch{decoded}
	}
	defer releaseAll(batches)
	for _, b := range batches {
		testgen.ValidateBatch(t, b)
	}
	decoded := concatBatches(t, mem, schema, batches)
	testgen.EqualBatches(t, src, decoded)

	name := fmt.Sprintf("c%02d-%s-%s", i, codec, how)
	c := rowCase{
		jsCase: jsCase{
			Name: name, Stream: name + ".arrows", File: name + ".arrow", Expect: name + ".json",
			OutStream: name + ".js.arrows", OutFile: name + ".js.arrow",
		},
		codec: codec, schema: schema, rows: rows, decoded: decoded,
	}
	writeIPC(t, mem, schema, filepath.Join(dir, c.Stream), filepath.Join(dir, c.File), batches...)
	writeJSON(t, filepath.Join(dir, c.Expect), expect(decoded))
	return c
}

// TestJSArrowRoundTrip: random nested batches decoded from UnsafeRow (both
// flavours) and CompactRow go to apache-arrow JS as IPC stream and file;
// check.mjs checks every value, null and type, and writes the tables back;
// Go re-encodes what JS wrote and gets the original row bytes.
func TestJSArrowRoundTrip(t *testing.T) {
	node := requireNode(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	r := rand.New(rand.NewSource(jsSeed))

	var cases []rowCase
	defer func() {
		for _, c := range cases {
			c.decoded.Release()
		}
	}()
	manifest := struct {
		Cases []jsCase `json:"cases"`
	}{}
	for i := 0; i < jsCases; i++ {
		c := makeRowCase(t, mem, r, dir, i, codecs[i%len(codecs)])
		cases = append(cases, c)
		manifest.Cases = append(manifest.Cases, c.jsCase)
	}
	requireCoverage(t, cases)
	tc := makeTryCastCases(t, mem, dir)
	defer tc.release()
	manifest.Cases = append(manifest.Cases, tc.cases...)
	writeJSON(t, filepath.Join(dir, "manifest.json"), manifest)

	code, stdout, stderr := runNode(t, node, "check.mjs", dir)
	t.Log(strings.TrimSpace(stdout))
	if code != 0 {
		t.Errorf("check.mjs exited %d:\n%s", code, stderr)
	}
	report := readReport(t, dir)
	require.Len(t, report.Cases, len(manifest.Cases))
	for _, rc := range report.Cases {
		assert.True(t, rc.OK, "%s: %s", rc.Name, strings.Join(rc.Errors, "\n"))
	}

	for _, c := range cases {
		for _, kind := range []string{"stream", "file"} {
			var schema *arrow.Schema
			var back []arrow.RecordBatch
			if kind == "stream" {
				schema, back = readIPCStream(t, mem, filepath.Join(dir, c.OutStream))
			} else {
				schema, back = readIPCFile(t, mem, filepath.Join(dir, c.OutFile))
			}
			checkBack(t, mem, c, kind, schema, back)
			releaseAll(back)
		}
	}
	tc.checkGoRead(t, mem, dir)
}

// checkBack re-encodes the batches JS wrote and compares with the original
// row bytes, and decodes those bytes again to compare values.
func checkBack(t *testing.T, mem memory.Allocator, c rowCase, kind string, schema *arrow.Schema, back []arrow.RecordBatch) {
	t.Helper()
	where := fmt.Sprintf("%s (JS %s)", c.Name, kind)
	if !assert.True(t, schema.Equal(c.schema), "%s: schema\nwant %s\ngot  %s", where, c.schema, schema) {
		return
	}
	n := int64(0)
	for _, rb := range back {
		validateRead(t, rb)
		n += rb.NumRows()
	}
	assert.Equal(t, c.decoded.NumRows(), n, where)
	enc, dec, err := newCodec(c.codec, c.schema, mem)
	require.NoError(t, err)
	rows, err := encodeAll(enc, back)
	require.NoError(t, err, where)
	if !assert.Equal(t, c.rows.Len(), rows.Len(), where) {
		return
	}
	for i := 0; i < rows.Len(); i++ {
		if !bytes.Equal(c.rows.Row(i), rows.Row(i)) {
			t.Errorf("%s: row %d bytes differ from the original %s row\nwant %x\ngot  %x", where, i, c.codec, c.rows.Row(i), rows.Row(i))
			return
		}
	}
	again, err := dec.Decode(rows.Slices())
	require.NoError(t, err, where)
	defer again.Release()
	testgen.EqualBatches(t, c.decoded, again)
}

// requireCoverage fails unless the random schemas together use every type
// the row formats carry, short and long decimals, and empty batches.
func requireCoverage(t *testing.T, cases []rowCase) {
	t.Helper()
	seen := map[string]bool{}
	var walk func(dt arrow.DataType)
	walk = func(dt arrow.DataType) {
		name := dt.ID().String()
		if d, ok := dt.(*arrow.Decimal128Type); ok {
			name = map[bool]string{true: "decimal-short", false: "decimal-long"}[d.Precision <= 18]
		}
		seen[name] = true
		if n, ok := dt.(arrow.NestedType); ok {
			for _, f := range n.Fields() {
				walk(f.Type)
			}
		}
	}
	for _, c := range cases {
		for _, f := range c.schema.Fields() {
			walk(f.Type)
		}
		if c.decoded.NumRows() == 0 {
			seen["empty batch"] = true
		}
	}
	for _, want := range []string{"NULL", "BOOL", "INT8", "INT16", "INT32", "INT64", "FLOAT32", "FLOAT64",
		"DATE32", "TIMESTAMP", "decimal-short", "decimal-long", "STRING", "BINARY", "LIST", "STRUCT", "MAP", "empty batch"} {
		assert.True(t, seen[want], "no random case covers %s", want)
	}
}
