package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// arrowInputDDL is arrowInputSchema in DDL, to decode what encode wrote.
const arrowInputDDL = "id BIGINT NOT NULL, tags ARRAY<STRING>, name STRING"

// streamOf writes the rows (JSON, of arrowInputSchema) as an IPC stream,
// one batch per element of batches.
func streamOf(t *testing.T, mem memory.Allocator, batches ...string) []byte {
	t.Helper()
	var recs []arrow.RecordBatch
	for _, rows := range batches {
		rec, _, err := array.RecordFromJSON(mem, arrowInputSchema, strings.NewReader(rows))
		require.NoError(t, err)
		defer rec.Release()
		recs = append(recs, rec)
	}
	return writeArrowStream(t, arrowInputSchema, recs, mem)
}

// encodeDecode encodes the Arrow input to UnsafeRow rows and decodes those
// to JSON lines.
func encodeDecode(t *testing.T, input []byte) string {
	t.Helper()
	rows, stderr, code := cli(t, input, "encode", "--format", "unsaferow")
	require.Equal(t, 0, code, stderr)
	jsonl, stderr, code := cli(t, rows, "decode", "--format", "unsaferow", "--schema", arrowInputDDL, "--to", "jsonl")
	require.Equal(t, 0, code, stderr)
	return string(jsonl)
}

func concat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// Concatenated streams (cat a.arrows b.arrows) are read to the end: every
// row of every stream, in order.
func TestConcatenatedArrowStreams(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := streamOf(t, mem, `[{"id": 1, "tags": ["a", "b"], "name": "one"}, {"id": 2, "tags": null, "name": null}]`, `[{"id": 3, "tags": [], "name": "three"}]`)
	b := streamOf(t, mem, `[{"id": 4, "tags": ["d"], "name": "four"}]`)
	c := streamOf(t, mem, `[{"id": 5, "tags": null, "name": "five"}, {"id": 6, "tags": ["f", null], "name": "six"}]`)
	empty := streamOf(t, mem) // a schema and the end-of-stream marker
	// b again, its body compressed.
	rec, _, err := array.RecordFromJSON(mem, arrowInputSchema, strings.NewReader(`[{"id": 4, "tags": ["d"], "name": "four"}]`))
	require.NoError(t, err)
	var zb bytes.Buffer
	w := ipc.NewWriter(&zb, ipc.WithSchema(arrowInputSchema), ipc.WithAllocator(mem), ipc.WithZstd())
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	rec.Release()
	lines := []string{
		`{"id":1,"tags":["a","b"],"name":"one"}` + "\n",
		`{"id":2,"tags":null,"name":null}` + "\n",
		`{"id":3,"tags":[],"name":"three"}` + "\n",
		`{"id":4,"tags":["d"],"name":"four"}` + "\n",
		`{"id":5,"tags":null,"name":"five"}` + "\n",
		`{"id":6,"tags":["f",null],"name":"six"}` + "\n",
	}
	abc := strings.Join(lines, "")
	require.Equal(t, strings.Join(lines[:3], ""), encodeDecode(t, a), "one stream")

	eos := []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}
	require.True(t, bytes.HasSuffix(a, eos))
	// The pre-0.15 end-of-stream marker is a zero length alone.
	aLegacyEnd := concat(a[:len(a)-len(eos)], []byte{0, 0, 0, 0})

	for _, tc := range []struct {
		name  string
		input []byte
		want  string
	}{
		{"two", concat(a, b), strings.Join(lines[:4], "")},
		{"three", concat(a, b, c), abc},
		{"three the other way", concat(c, b, a), strings.Join(append(append([]string{}, lines[4:]...), append([]string{lines[3]}, lines[:3]...)...), "")},
		{"with empty streams", concat(empty, a, empty, b, c, empty), abc},
		{"one compressed", concat(a, zb.Bytes(), c), abc},
		{"pre-0.15 end marker", concat(aLegacyEnd, b, c), abc},
		{"the last without its end marker", concat(a, b, c[:len(c)-len(eos)]), abc},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, encodeDecode(t, tc.input))
			out, stderr, code := cli(t, tc.input, "inspect", "--count")
			require.Equal(t, 0, code, stderr)
			require.Contains(t, string(out), "\nRows: "+strconv.Itoa(strings.Count(tc.want, "\n"))+"\n")
		})
	}
}

// What follows a stream's end must be another stream of the same schema;
// anything else fails with one line instead of being dropped.
func TestConcatenatedArrowStreamsMustMatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := streamOf(t, mem, arrowInputRows)
	b := streamOf(t, mem, `[{"id": 4, "tags": ["d"], "name": "four"}]`)
	at := strconv.Itoa(len(a))
	atB := strconv.Itoa(len(a) + len(b))

	other := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}, nil)
	otherRec, _, err := array.RecordFromJSON(mem, other, strings.NewReader(`[{"id": 7}]`))
	require.NoError(t, err)
	defer otherRec.Release()
	otherStream := writeArrowStream(t, other, []arrow.RecordBatch{otherRec}, mem)

	renamed := arrow.NewSchema([]arrow.Field{arrowInputSchema.Field(0), arrowInputSchema.Field(1), {Name: "label", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	renamedRec, _, err := array.RecordFromJSON(mem, renamed, strings.NewReader(`[{"id": 8, "tags": null, "label": "x"}]`))
	require.NoError(t, err)
	defer renamedRec.Release()
	renamedStream := writeArrowStream(t, renamed, []arrow.RecordBatch{renamedRec}, mem)

	md := arrow.NewSchema(arrowInputSchema.Fields(), func() *arrow.Metadata { m := arrow.NewMetadata([]string{"k"}, []string{"v"}); return &m }())
	mdRec, _, err := array.RecordFromJSON(mem, md, strings.NewReader(arrowInputRows))
	require.NoError(t, err)
	defer mdRec.Release()
	mdStream := writeArrowStream(t, md, []arrow.RecordBatch{mdRec}, mem)

	for _, tc := range []struct {
		name  string
		input []byte
		msg   string
	}{
		{"different schema", concat(a, otherStream), "rowbridge encode: reading Arrow IPC stream 2 (at byte " + at + "): its schema differs from the first stream's: 1 fields, not 3"},
		{"different field", concat(a, b, renamedStream), "rowbridge encode: reading Arrow IPC stream 3 (at byte " + atB + "): its schema differs from the first stream's: field 2 is label: type=utf8, nullable, not name: type=utf8, nullable"},
		{"different schema metadata", concat(a, mdStream), "rowbridge encode: reading Arrow IPC stream 2 (at byte " + at + "): its schema differs from the first stream's: schema metadata …"},
		{"junk", concat(a, []byte("junk after the stream")), "rowbridge encode: reading Arrow IPC stream: the bytes after the end of the stream at byte " + at + " are not another Arrow IPC stream: truncated input at byte " + strconv.Itoa(len(a)+21) + ": …"},
		{"one junk byte", concat(a, b, []byte{0}), "rowbridge encode: reading Arrow IPC stream: the bytes after the end of the stream at byte " + atB + " are not another Arrow IPC stream: truncated input at byte " + strconv.Itoa(len(a)+len(b)+1) + ": the stream ends inside the length of the message at byte " + atB},
		{"a second end marker", concat(a, []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}), "rowbridge encode: reading Arrow IPC stream: the input goes on after the end of the stream at byte " + at + " with an end-of-stream marker, not another stream"},
		{"a cut stream", concat(a, b[:len(b)/2]), "rowbridge encode: reading Arrow IPC stream 2 (at byte " + at + ") batch 1: truncated input at byte " + strconv.Itoa(len(a)+len(b)/2) + ": …"},
		{"no end marker between", concat(a[:len(a)-8], b), "rowbridge encode: reading Arrow IPC stream batch 1: a schema message stands where a batch or the end-of-stream marker should: a second stream begins without the first one's end marker (concatenate whole streams)"},
		{"an Arrow file", concat(a, arrowInputFile(t, arrowInputRows)), "rowbridge encode: reading Arrow IPC stream: the bytes after the end of the stream at byte " + at + " are not another Arrow IPC stream: …"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := cli(t, tc.input, "encode", "--format", "unsaferow")
			require.Equal(t, 1, code, stderr)
			requireStderrLine(t, stderr, tc.msg)
			_, stderr, code = cli(t, tc.input, "inspect", "--count")
			require.Equal(t, 1, code, stderr)
			requireStderrLine(t, stderr, strings.Replace(tc.msg, "rowbridge encode:", "rowbridge inspect:", 1))
		})
	}
}

// Arrow files end to end (cat a.arrow b.arrow) fail with one line: read by
// the last footer they would give the first file's rows only.
func TestConcatenatedArrowFilesFail(t *testing.T) {
	file := arrowInputFile(t, arrowInputRows)
	for _, verb := range [][]string{{"encode", "--format", "unsaferow"}, {"inspect", "--count"}} {
		out, stderr, code := cli(t, concat(file, file), verb...)
		require.Equal(t, 1, code, "%s: %s", verb[0], out)
		require.Contains(t, stderr, "several Arrow files concatenated are not one file")
		require.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, stderr)
	}
}
