package interop

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildRowbridge builds the rowbridge command into dir and returns its path.
func buildRowbridge(t *testing.T, dir string) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	require.NoError(t, err, "the go command builds rowbridge")
	_, file, _, _ := runtime.Caller(0)
	bin := filepath.Join(dir, "rowbridge")
	cmd := exec.Command(goCmd, "build", "-o", bin, "./cmd/rowbridge")
	cmd.Dir = filepath.Dir(filepath.Dir(file)) // the module root
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build ./cmd/rowbridge:\n%s", out)
	return bin
}

// runRowbridge runs the rowbridge binary and requires it to succeed.
func runRowbridge(t *testing.T, bin string, args ...string) {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Run(), "rowbridge %v: %s", args, stderr.String())
}

// TestJSNullColumnsEncode: apache-arrow JS writes Null-typed columns (at
// the top level, as a list element, a struct field and a map value) with
// null_count -1 where it sliced them; rowbridge encode takes that stream
// and file to both row formats, and rowbridge decode gives back the values
// arrow-go reads from what JS wrote.
func TestJSNullColumnsEncode(t *testing.T) {
	node := requireNode(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	code, stdout, stderr := runNode(t, node, "jsnull.mjs", dir)
	require.Equal(t, 0, code, "jsnull.mjs: %s", stderr)
	t.Log(stdout)

	// What JS wrote: -1 for the sliced Null-typed arrays, the case rowbridge
	// refused. Nodes: n, ln, ln.element, st, st.a, st.b, m, m.entries,
	// m.key, m.value, i.
	var report struct {
		Batches [][]struct {
			Length    int64 `json:"length"`
			NullCount int64 `json:"nullCount"`
		} `json:"batches"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "jsnull.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &report))
	require.Len(t, report.Batches, 2)
	unknown := func(batch int) []int {
		var out []int
		for i, n := range report.Batches[batch] {
			if n.NullCount == -1 {
				out = append(out, i)
			}
		}
		return out
	}
	require.Equal(t, []int{2, 9}, unknown(0), "JS writes -1 for the list element and the map value")
	require.Equal(t, []int{0, 2, 4, 9}, unknown(1), "and, sliced, for the column and the struct field")

	// The values, as arrow-go reads them from what JS wrote.
	schema, batches := readIPCStream(t, mem, filepath.Join(dir, "jsnull.arrows"))
	ref := concatBatches(t, mem, schema, batches)
	releaseAll(batches)
	defer ref.Release()
	want := expect(ref)
	require.EqualValues(t, 11, want.Rows)
	require.Equal(t, []any{float64(1), nil, float64(3), float64(4), float64(5), float64(6), nil, float64(3), float64(4), float64(5), float64(6)},
		jsonRoundTrip(t, want.Columns[2], func(v any) any { return v.([]any)[1] }), "st.b")
	require.Equal(t, []int{11, 2, 0, 0, 2}, want.NullCounts)
	schemaDDL, err := ddl.FormatDDL(schema)
	require.NoError(t, err)
	require.Equal(t, "n VOID NOT NULL, ln ARRAY<VOID>, st STRUCT<a: VOID, b: INT>, m MAP<STRING, VOID>, i INT", schemaDDL)

	bin := buildRowbridge(t, dir)
	for _, input := range []string{"jsnull.arrows", "jsnull.arrow"} {
		for _, format := range []string{"unsaferow", "compactrow"} {
			t.Run(input+"/"+format, func(t *testing.T) {
				rows := filepath.Join(dir, input+"."+format)
				back := rows + ".arrows"
				runRowbridge(t, bin, "encode", "--format", format, "-o", rows, filepath.Join(dir, input))
				runRowbridge(t, bin, "decode", "--format", format, "--schema", schemaDDL, "--to", "arrow-stream", "-o", back, rows)
				gotSchema, gotBatches := readIPCStream(t, mem, back)
				got := concatBatches(t, mem, gotSchema, gotBatches)
				releaseAll(gotBatches)
				defer got.Release()
				e := expect(got)
				assert.Equal(t, want.Rows, e.Rows)
				assert.Equal(t, want.NullCounts, e.NullCounts)
				assert.Equal(t, want.Columns, e.Columns)
			})
		}
	}
}

// jsonRoundTrip maps each value of col through f, after a JSON round trip
// (so numbers compare as JSON numbers).
func jsonRoundTrip(t *testing.T, col []any, f func(any) any) []any {
	t.Helper()
	b, err := json.Marshal(col)
	require.NoError(t, err)
	var vals []any
	require.NoError(t, json.Unmarshal(b, &vals))
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = f(v)
	}
	return out
}
