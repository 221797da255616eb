package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/stretchr/testify/require"
)

// arrowInputSchema has a list column (a field with children) after an
// integer one.
var arrowInputSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// arrowInputFile writes rows of arrowInputSchema as an IPC file.
func arrowInputFile(t *testing.T, rows string) []byte {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec, _, err := array.RecordFromJSON(mem, arrowInputSchema, strings.NewReader(rows))
	require.NoError(t, err)
	defer rec.Release()
	return writeArrowFile(t, arrowInputSchema, []arrow.RecordBatch{rec}, mem)
}

const arrowInputRows = `[{"id": 1, "tags": ["a", "b"], "name": "xyz"}, {"id": 2, "tags": null, "name": "uvw"}]`

// footerField returns field i of the schema in the footer of the IPC
// file data, and where the footer starts (add it to the table's positions).
func footerField(data []byte, i int) (flatbuffers.Table, int) {
	size := len(data)
	start := size - 10 - int(binary.LittleEndian.Uint32(data[size-10:]))
	footer := data[start : size-10]
	root := flatbuffers.Table{Bytes: footer, Pos: flatbuffers.GetUOffsetT(footer)}
	schema := flatbuffers.Table{Bytes: footer, Pos: root.Indirect(root.Pos + flatbuffers.UOffsetT(root.Offset(6)))} // Footer.schema
	fields := schema.Vector(flatbuffers.UOffsetT(schema.Offset(6)))                                                 // Schema.fields
	return flatbuffers.Table{Bytes: footer, Pos: schema.Indirect(fields + flatbuffers.UOffsetT(4*i))}, start
}

// corruptArrowFiles are the audit's two crashes, rebuilt from a valid file.
func corruptArrowFiles(t *testing.T) map[string][]byte {
	valid := arrowInputFile(t, arrowInputRows)

	// The list field's children vector says 2^31-1 elements: arrow-go made
	// a slice of that many fields and the process died out of memory.
	oom := bytes.Clone(valid)
	tags, base := footerField(oom, 1)
	children := tags.Pos + flatbuffers.UOffsetT(tags.Offset(14)) // Field.children
	children += flatbuffers.GetUOffsetT(tags.Bytes[children:])
	binary.LittleEndian.PutUint32(oom[base+int(children):], 0x7fff_ffff)

	// The id field's type offset points past the footer: arrow-go panicked.
	panics := bytes.Clone(valid)
	id, base := footerField(panics, 0)
	typ := id.Pos + flatbuffers.UOffsetT(id.Offset(10)) // Field.type
	binary.LittleEndian.PutUint32(panics[base+int(typ):], 14360)
	require.Panics(t, func() { _, _ = ipc.NewFileReader(bytes.NewReader(panics)) }, "unverified, arrow-go panics")

	return map[string][]byte{"oom": oom, "panic": panics}
}

func TestCorruptArrowInputFailsWithOneLine(t *testing.T) {
	dir := t.TempDir()
	want := map[string]string{
		"oom":   "Footer.schema.fields[1].children: vector of 2147483647 elements (4 bytes each) runs past the end of the",
		"panic": "Footer.schema.fields[0].type: offset 14360 points past the end of the",
	}
	for name, data := range corruptArrowFiles(t) {
		path := filepath.Join(dir, name+".arrow")
		require.NoError(t, os.WriteFile(path, data, 0o644))
		var cases []cliFailure
		for _, cmd := range []string{"inspect", "schema", "encode"} {
			args := []string{path}
			if cmd == "encode" {
				args = append(args, "--format", "unsaferow")
			}
			msg := "rowbridge " + cmd + ": reading Arrow IPC file: malformed input at byte …"
			msgStdin, code := msg, 1
			if cmd != "schema" { // the commands that read inputs name the input file
				msg = "rowbridge " + cmd + ": " + path + ": reading Arrow IPC file: malformed input at byte …"
			}
			if cmd == "schema" { // a bad schema is a usage error, from every command
				msg = "rowbridge schema: bad schema in " + path + ": reading Arrow IPC file: malformed input at byte …"
				msgStdin, code = "rowbridge schema: bad schema on stdin: reading Arrow IPC file: malformed input at byte …", 2
			}
			cases = append(cases,
				cliFailure{cmd + " " + name + " file", nil, args, code, msg},
				cliFailure{cmd + " " + name + " stdin", data, append(args[1:], "-"), code, msgStdin})
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				cmd, _, _ := strings.Cut(tc.name, " ")
				out, stderr, code := cli(t, tc.stdin, append([]string{cmd}, tc.args...)...)
				require.Equal(t, tc.code, code, stderr)
				requireStderrLine(t, stderr, tc.msg)
				require.Contains(t, stderr, want[name])
				require.Empty(t, out)
			})
		}
	}
}

// TestCorruptArrowStreamFailsWithOneLine sends streams whose lengths are
// corrupt: they end as truncated without allocating what they claim.
func TestCorruptArrowStreamFailsWithOneLine(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec, _, err := array.RecordFromJSON(mem, arrowInputSchema, strings.NewReader(arrowInputRows))
	require.NoError(t, err)
	defer rec.Release()
	stream := writeArrowStream(t, arrowInputSchema, []arrow.RecordBatch{rec}, mem)
	schemaLen := int(binary.LittleEndian.Uint32(stream[4:]))
	batch := 8 + schemaLen // the record batch message

	huge := bytes.Clone(stream)
	binary.LittleEndian.PutUint32(huge[batch+4:], 0x7fff_fff0)
	requireFailures(t, "encode", []cliFailure{
		{"metadata length huge", huge, []string{"--format", "unsaferow"}, 1, "rowbridge encode: reading Arrow IPC stream batch 0: truncated input at byte " +
			strconv.Itoa(len(stream)) + ": the stream ends " + strconv.Itoa(len(stream)-batch-8) + " bytes into 2147483632 bytes of message metadata"},
		{"truncated schema", stream[:20], []string{"--format", "unsaferow"}, 1, "rowbridge encode: reading Arrow IPC stream: truncated input at byte 20: the stream ends 12 bytes into…"},
	})
}

// TestArrowInputValidatesBatches gives inspect and encode files whose
// buffers are inconsistent: a string offset past the data, which makes
// arrow-go's own validation panic, and offsets that decrease.
func TestArrowInputValidatesBatches(t *testing.T) {
	valid := arrowInputFile(t, arrowInputRows)
	offsets := []byte{0, 0, 0, 0, 3, 0, 0, 0, 6, 0, 0, 0} // of "xyz", "uvw"
	at := bytes.Index(valid, offsets)
	require.Positive(t, at)

	pastData := bytes.Clone(valid)
	pastData[at+4] = 127
	decreasing := bytes.Clone(valid)
	decreasing[at+4] = 5
	decreasing[at+8] = 3
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"offset past the data", pastData, "reading Arrow IPC file batch 0: malformed input: runtime error: slice bounds out of range [:127] with length 6"},
		{"decreasing offsets", decreasing, "reading Arrow IPC file batch 0: invalid data: column 2 (name): arrow/array: string offsets are not monotonically non-decreasing at index 2: 3 < 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// inspect shows what it read before the error: no rows.
			out, stderr, code := cli(t, tc.data, "inspect")
			require.Equal(t, 1, code, stderr)
			requireStderrLine(t, stderr, "rowbridge inspect: "+tc.msg)
			require.Contains(t, string(out), "\nRows: 0 read before an error\n")

			out, stderr, code = cli(t, tc.data, "encode", "--format", "compactrow")
			require.Equal(t, 1, code, stderr)
			requireStderrLine(t, stderr, "rowbridge encode: "+tc.msg)
			require.Empty(t, out)
		})
	}
}

// TestArrowInputWithNullColumns reads Null columns, which arrow-go's IPC
// reader builds without the buffer its validation expects.
func TestArrowInputWithNullColumns(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "n", Type: arrow.Null, Nullable: true},
		{Name: "ln", Type: arrow.ListOf(arrow.Null), Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(`[{"n": null, "ln": [null, null], "i": 1}, {"n": null, "ln": null, "i": null}]`))
	require.NoError(t, err)
	defer rec.Release()
	for name, data := range map[string][]byte{
		"file":   writeArrowFile(t, schema, []arrow.RecordBatch{rec}, mem),
		"stream": writeArrowStream(t, schema, []arrow.RecordBatch{rec}, mem),
	} {
		t.Run(name, func(t *testing.T) {
			out, stderr, code := cli(t, data, "inspect")
			require.Equal(t, 0, code, stderr)
			require.Contains(t, string(out), "\nRows: 2\n")
			_, stderr, code = cli(t, data, "encode", "--format", "unsaferow")
			require.Equal(t, 0, code, stderr)
		})
	}
}
