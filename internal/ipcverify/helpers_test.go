package ipcverify

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// nestedSchema has a column of each layout the array loader knows:
// nested types, a dictionary, views, unions, run-end encoding.
var nestedSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "l", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	{Name: "st", Type: arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Float64, Nullable: true}), Nullable: true},
	{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
	{Name: "d", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}, Nullable: true},
	{Name: "ld", Type: arrow.ListOf(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.PrimitiveTypes.Int64}), Nullable: true},
	{Name: "sv", Type: arrow.BinaryTypes.StringView, Nullable: true},
	{Name: "su", Type: arrow.SparseUnionOf([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, []arrow.UnionTypeCode{5, 7}), Nullable: true},
	{Name: "du", Type: arrow.DenseUnionOf([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, []arrow.UnionTypeCode{0, 1}), Nullable: true},
	{Name: "ree", Type: arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String), Nullable: true},
	{Name: "n", Type: arrow.Null, Nullable: true},
	{Name: "fsl", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int8), Nullable: true},
	{Name: "lv", Type: arrow.ListViewOf(arrow.PrimitiveTypes.Int16), Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "dec", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
	{Name: "fsb", Type: &arrow.FixedSizeBinaryType{ByteWidth: 3}, Nullable: true},
}, &nestedMetadata)

var nestedMetadata = arrow.NewMetadata([]string{"origin"}, []string{"ipcverify test"})

// nestedRows are two batches of nestedSchema, as JSON.
var nestedRows = []string{`[
{"id": 1, "s": "a", "l": ["x", null], "st": {"a": 1, "b": 2.5}, "m": [{"key": "k", "value": 1}], "d": "red", "ld": [10, 20, 10],
 "sv": "a string longer than twelve", "su": [5, 3], "du": [1, "z"], "ree": "r", "n": null, "fsl": [1, 2], "lv": [1, 2, 3],
 "ts": "2024-01-01T00:00:00Z", "dec": "1.25", "fsb": "YWJj"},
{"id": 2, "s": null, "l": null, "st": null, "m": null, "d": null, "ld": null, "sv": null, "su": [7, "q"], "du": [0, 4],
 "ree": "r", "n": null, "fsl": null, "lv": null, "ts": null, "dec": null, "fsb": null}
]`, `[
{"id": 3, "s": "b", "l": [], "st": {"a": null, "b": null}, "m": [], "d": "red", "ld": [10, 20], "sv": "short", "su": [5, null],
 "du": [0, null], "ree": null, "n": null, "fsl": [3, 4], "lv": [], "ts": "2024-01-02T00:00:00Z", "dec": "-0.01", "fsb": "eHl6"}
]`}

// nestedBatches returns nestedRows as record batches allocated from mem.
func nestedBatches(t testing.TB, mem memory.Allocator) []arrow.RecordBatch {
	t.Helper()
	var recs []arrow.RecordBatch
	for _, rows := range nestedRows {
		rec, _, err := array.RecordFromJSON(mem, nestedSchema, strings.NewReader(rows))
		require.NoError(t, err)
		recs = append(recs, rec)
	}
	return recs
}

func release(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// writeIPC writes recs as an IPC file (file true) or stream with the
// writer options opts.
func writeIPC(t testing.TB, file bool, recs []arrow.RecordBatch, opts ...ipc.Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	opts = append(opts, ipc.WithSchema(recs[0].Schema()))
	var w interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	if file {
		fw, err := ipc.NewFileWriter(&buf, opts...)
		require.NoError(t, err)
		w = fw
	} else {
		w = ipc.NewWriter(&buf, opts...)
	}
	for _, r := range recs {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// nestedIPC writes nestedBatches as a file or stream, with opts.
func nestedIPC(t testing.TB, file bool, opts ...ipc.Option) []byte {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := nestedBatches(t, mem)
	defer release(recs)
	return writeIPC(t, file, recs, append(opts, ipc.WithAllocator(mem))...)
}

// footerOf returns the footer table of the valid IPC file data and the
// offset of the footer in data (add it to the table's positions).
func footerOf(t testing.TB, data []byte) (table, int) {
	t.Helper()
	size := len(data)
	start := size - fileTrailerSize - int(binary.LittleEndian.Uint32(data[size-fileTrailerSize:]))
	footer, err := newVerifier(data[start:size-fileTrailerSize], int64(start)).root(footerTable)
	require.Nil(t, err)
	return footer, start
}

// frame is one message of a valid IPC stream: its metadata table, and
// where the metadata and the body start in the stream.
type frame struct {
	msg          table
	meta, body   int
	bodyLen      int
	metaLenField int // the position of the metadata length
}

// framesOf splits the valid IPC stream data into its messages.
func framesOf(t testing.TB, data []byte) []frame {
	t.Helper()
	var frames []frame
	for pos := 0; pos+8 <= len(data); {
		n := int(binary.LittleEndian.Uint32(data[pos+4:]))
		if n == 0 {
			break
		}
		msg, err := newVerifier(data[pos+8:pos+8+n], int64(pos+8)).root(messageTable)
		require.Nil(t, err)
		f := frame{msg: msg, meta: pos + 8, body: pos + 8 + n, bodyLen: int(msg.int64(messageBodyLength, 0)), metaLenField: pos + 4}
		frames = append(frames, f)
		pos = f.body + f.bodyLen
	}
	return frames
}

// fieldAt returns field i of the verified Schema table s.
func fieldAt(s table, i int) table {
	elems, _ := s.vector(schemaFields)
	return s.element(elems, i)
}

// fieldPos returns the position of the field in slot i of t (add the
// buffer's offset for its position in the input).
func fieldPos(t table, i int) int {
	if !t.has(i) {
		panic("fieldPos: the field is absent (the builder leaves out defaults)")
	}
	return t.pos + t.fieldOffset(i)
}

func put16(b []byte, pos int, v uint16) { binary.LittleEndian.PutUint16(b[pos:], v) }
func put32(b []byte, pos int, v uint32) { binary.LittleEndian.PutUint32(b[pos:], v) }
func le32(b []byte) uint32              { return binary.LittleEndian.Uint32(b) }
func le64(b []byte) int64               { return int64(binary.LittleEndian.Uint64(b)) }
func put64(b []byte, pos int, v uint64) { binary.LittleEndian.PutUint64(b[pos:], v) }

// requireError checks that err is an *Error whose text contains each of
// parts.
func requireError(t testing.TB, err error, parts ...string) *Error {
	t.Helper()
	var e *Error
	require.ErrorAs(t, err, &e)
	for _, p := range parts {
		require.Contains(t, e.Error(), p)
	}
	require.NotContains(t, e.Error(), "\n")
	return e
}
