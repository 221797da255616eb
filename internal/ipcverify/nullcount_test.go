package ipcverify

import (
	"bytes"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// nullSchema has Null-typed fields at the top level and as a list element,
// a struct field and a map value, where apache-arrow JS writes null_count
// -1, and two Int32 columns: one with nulls (so a validity bitmap), one
// without (so an empty validity buffer).
var nullSchema = arrow.NewSchema([]arrow.Field{
	{Name: "n", Type: arrow.Null, Nullable: true},
	{Name: "ln", Type: arrow.ListOf(arrow.Null), Nullable: true},
	{Name: "st", Type: arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.Null, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Int32, Nullable: true}), Nullable: true},
	{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.Null), Nullable: true},
	{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "j", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
}, nil)

const nullRows = `[
{"n": null, "ln": [null, null], "st": {"a": null, "b": 1}, "m": [{"key": "k", "value": null}], "i": 1, "j": 1},
{"n": null, "ln": null, "st": null, "m": null, "i": null, "j": 2},
{"n": null, "ln": [], "st": {"a": null, "b": null}, "m": [], "i": 3, "j": 3},
{"n": null, "ln": [null], "st": {"a": null, "b": 4}, "m": [{"key": "x", "value": null}, {"key": "y", "value": null}], "i": null, "j": 4},
{"n": null, "ln": [null, null, null], "st": {"a": null, "b": 5}, "m": [], "i": 5, "j": 5},
{"n": null, "ln": null, "st": null, "m": null, "i": null, "j": 6},
{"n": null, "ln": [], "st": {"a": null, "b": 7}, "m": [], "i": 7, "j": 7},
{"n": null, "ln": [null], "st": {"a": null, "b": 8}, "m": [], "i": 8, "j": 8},
{"n": null, "ln": [null], "st": {"a": null, "b": 9}, "m": [], "i": 9, "j": 9}
]`

// nullNode names the field nodes of nullSchema in the order a record batch
// lists them, with the first node of each column.
var nullNodes = []string{"n", "ln", "ln.item", "st", "st.a", "st.b", "m", "m.entries", "m.key", "m.value", "i", "j"}

func nullNode(name string) int {
	for i, n := range nullNodes {
		if n == name {
			return i
		}
	}
	panic(name)
}

// nullTyped are the Null-typed nodes.
var nullTyped = []string{"n", "ln.item", "st.a", "m.value"}

// setNullCounts returns a copy of the IPC stream (file false) or file data
// with the null_count of the named field nodes set to count in every record
// batch.
func setNullCounts(t *testing.T, data []byte, file bool, count int64, nodes ...string) []byte {
	t.Helper()
	var indices []int
	for _, name := range nodes {
		indices = append(indices, nullNode(name))
	}
	return setNodeNullCounts(t, data, file, count, indices...)
}

// setNodeNullCounts returns a copy of the IPC stream (file false) or file
// data with the null_count of field nodes i set to count in every record
// batch.
func setNodeNullCounts(t testing.TB, data []byte, file bool, count int64, i ...int) []byte {
	t.Helper()
	out := bytes.Clone(data)
	start := 0
	if file {
		start = len(FileMagic) + 2 // magic and padding
	}
	n := 0
	for _, f := range framesOf(t, out[start:]) {
		if f.msg.uint8(messageHeaderType, 0) != headerRecordBatch {
			continue
		}
		rb, _ := f.msg.child(messageHeader)
		vec, nn := rb.vector(recordBatchNodes)
		for _, node := range i {
			require.Less(t, node, nn)
			put64(out, start+f.meta+vec+fieldNodeSize*node+8, uint64(count))
		}
		n++
	}
	require.Positive(t, n)
	return out
}

// nullIPC writes the nullSchema rows (in two batches) as a stream or file.
func nullIPC(t *testing.T, mem memory.Allocator, file bool, opts ...ipc.Option) ([]byte, []arrow.RecordBatch) {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, nullSchema, strings.NewReader(nullRows))
	require.NoError(t, err)
	defer rec.Release()
	recs := []arrow.RecordBatch{rec.NewSlice(0, 4), rec.NewSlice(4, rec.NumRows())}
	return writeIPC(t, file, recs, append(opts, ipc.WithAllocator(mem))...), recs
}

// readNullIPC reads data through the verifier and arrow-go and requires the
// batches to equal want, null counts included.
func readNullIPC(t *testing.T, data []byte, file bool, want []arrow.RecordBatch) error {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var got []arrow.RecordBatch
	if file {
		if err := File(bytes.NewReader(data), int64(len(data))); err != nil {
			return err
		}
		fr, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(mem))
		require.NoError(t, err)
		defer fr.Close()
		for i := range fr.NumRecords() {
			rec, err := fr.RecordBatch(i)
			require.NoError(t, err)
			rec.Retain() // the reader releases it at the next call
			defer rec.Release()
			got = append(got, rec)
		}
	} else {
		r, err := ipc.NewReaderFromMessageReader(NewMessageReader(bytes.NewReader(data)), ipc.WithAllocator(mem))
		if err != nil {
			return err
		}
		defer r.Release()
		for r.Next() {
			rec := r.RecordBatch()
			rec.Retain()
			defer rec.Release()
			got = append(got, rec)
		}
		if r.Err() != nil {
			return r.Err()
		}
	}
	require.Len(t, got, len(want))
	for i := range want {
		require.True(t, array.RecordEqual(want[i], got[i]), "batch %d:\nwant %v\ngot  %v", i, want[i], got[i])
		for c, col := range got[i].Columns() {
			require.Equal(t, want[i].Column(c).NullN(), col.NullN(), "batch %d column %d null count", i, c)
		}
	}
	return nil
}

// TestUnknownNullCounts reads the null_count -1 (unknown) that apache-arrow
// JS writes for Null-typed arrays, at the top level and nested in a list,
// a struct and a map, in streams and files, compressed or not; -1 for a
// typed array whose validity bitmap covers its length; and any count for
// a Null-typed array. It refuses -1 where the validity buffer is empty or
// short, and other counts outside 0 to the length.
func TestUnknownNullCounts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, file := range []bool{false, true} {
		for name, opts := range map[string][]ipc.Option{"uncompressed": nil, "lz4": {ipc.WithLZ4()}, "zstd": {ipc.WithZstd()}} {
			kind := map[bool]string{false: "stream", true: "file"}[file]
			t.Run(kind+"/"+name, func(t *testing.T) {
				data, want := nullIPC(t, mem, file, opts...)
				defer release(want)
				require.NoError(t, readNullIPC(t, data, file, want), "as arrow-go writes it")
				for _, tc := range []struct {
					name  string
					count int64
					nodes []string
					err   string // "" to accept
				}{
					{"JS: -1 for every Null-typed array", -1, nullTyped, ""},
					{"-1 at the top level", -1, []string{"n"}, ""},
					{"-1 for a list element", -1, []string{"ln.item"}, ""},
					{"-1 for a struct field", -1, []string{"st.a"}, ""},
					{"-1 for a map value", -1, []string{"m.value"}, ""},
					{"Null-typed, any count", 7, nullTyped, ""},
					{"Null-typed, negative count", -5, nullTyped, ""},
					{"Null-typed, count 0", 0, nullTyped, ""},
					{"-1 with a validity bitmap", -1, []string{"i", "st", "ln", "m"}, ""},
					{"-1 with an empty validity buffer", -1, []string{"j"}, "null_count -1 (unknown)"},
					{"-1 for a map's entries without nulls", -1, []string{"m.entries"}, "null_count -1 (unknown)"},
					{"-2 with a validity bitmap", -2, []string{"i"}, "null_count -2"},
					{"a count past the length", 100, []string{"i"}, "null_count 100"},
				} {
					t.Run(tc.name, func(t *testing.T) {
						err := readNullIPC(t, setNullCounts(t, data, file, tc.count, tc.nodes...), file, want)
						if tc.err == "" {
							require.NoError(t, err)
							return
						}
						where := ".nodes["
						if name != "uncompressed" && tc.count == -1 {
							where = "compressed buffer" // the body tells the buffer's length
						}
						requireError(t, err, tc.err, where)
					})
				}
			})
		}
	}
}
