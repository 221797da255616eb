package interop

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// jsTypesWant is what the columns jstypes.mjs writes convert to, as JSON
// rows of the row-format types.
const jsTypesWant = `[
{"s": "a", "d": "y", "ts": 0, "tsz": 1000, "dt": 0, "u8": 0, "u64": "0", "f16": 1.5, "fsl": [1, 2]},
{"s": "", "d": "x", "ts": -1000, "tsz": 2000, "dt": 1, "u8": 255, "u64": "18446744073709551615", "f16": -0.25, "fsl": [3, 4]},
{"s": null, "d": null, "ts": null, "tsz": null, "dt": null, "u8": null, "u64": null, "f16": null, "fsl": null},
{"s": "héllo ✓", "d": "y", "ts": 1700000000123000, "tsz": 3000, "dt": -1, "u8": 7, "u64": "42", "f16": 65504, "fsl": [5, 6]}
]`

// TestJSProducerTypesEncode: an IPC stream apache-arrow JS writes with
// large_utf8, dictionary<int32, utf8>, timestamp[ms] with and without a
// zone, date64, uint8, uint64, float16 and fixed_size_list columns encodes,
// with rowbridge encode in both row formats, to exactly the rows of the
// converted values (written by arrow-go in the row-format types).
func TestJSProducerTypesEncode(t *testing.T) {
	node := requireNode(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	code, stdout, stderr := runNode(t, node, "jstypes.mjs", dir)
	require.Equal(t, 0, code, "jstypes.mjs: %s", stderr)
	t.Log(stdout)

	// JS wrote the producer types themselves, not the converted ones.
	schema, batches := readIPCStream(t, mem, filepath.Join(dir, "jstypes.arrows"))
	releaseAll(batches)
	var got []string
	for _, f := range schema.Fields() {
		got = append(got, f.Name+": "+f.Type.String())
	}
	require.Equal(t, "s: large_utf8, d: dictionary<values=utf8, indices=int32, ordered=false>, ts: timestamp[ms], "+
		"tsz: timestamp[ms, tz=Europe/Paris], dt: date64, u8: uint8, u64: uint64, f16: float16, fsl: fixed_size_list<item: int16, nullable>[2]",
		strings.Join(got, ", "))

	wantSchema := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "d", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "tsz", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Paris"}, Nullable: true},
		{Name: "dt", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "u8", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "u64", Type: &arrow.Decimal128Type{Precision: 20, Scale: 0}, Nullable: true},
		{Name: "f16", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "fsl", Type: arrow.ListOf(arrow.PrimitiveTypes.Int16), Nullable: true},
	}, nil)
	want, _, err := array.RecordFromJSON(mem, wantSchema, strings.NewReader(jsTypesWant))
	require.NoError(t, err)
	defer want.Release()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(wantSchema))
	require.NoError(t, w.Write(want))
	require.NoError(t, w.Close())
	wantPath := filepath.Join(dir, "want.arrows")
	require.NoError(t, os.WriteFile(wantPath, buf.Bytes(), 0o644))

	bin := buildRowbridge(t, dir)
	for _, args := range [][]string{{"--format", "unsaferow"}, {"--format", "unsaferow", "--flavor", "velox"}, {"--format", "compactrow"}} {
		encode := func(in string) []byte {
			var out, errb bytes.Buffer
			cmd := exec.Command(bin, append(append([]string{"encode", "--no-progress"}, args...), in)...)
			cmd.Stdout, cmd.Stderr = &out, &errb
			require.NoError(t, cmd.Run(), "rowbridge encode %v %s: %s", args, in, errb.String())
			return out.Bytes()
		}
		gotRows, wantRows := encode(filepath.Join(dir, "jstypes.arrows")), encode(wantPath)
		require.NotEmpty(t, gotRows)
		require.Equal(t, wantRows, gotRows, "%v", args)
	}
}
