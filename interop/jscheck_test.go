package interop

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJSCheckerRejects feeds check.mjs altered expectations for a batch it
// otherwise accepts and asserts that each alteration is caught, so a
// passing TestJSArrowRoundTrip means something.
func TestJSCheckerRejects(t *testing.T) {
	node := requireNode(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()

	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "l", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int64, Nullable: true}), Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 0, 3}, []bool{true, false, true})
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"a", "b", ""}, []bool{true, true, false})
	lb := b.Field(2).(*array.ListBuilder)
	lb.Append(true)
	lb.ValueBuilder().(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	lb.Append(true)
	lb.AppendNull()
	b.Field(3).(*array.Float64Builder).AppendValues([]float64{1.5, 0, math.Copysign(0, -1)}, []bool{true, false, true})
	src := b.NewRecordBatch()
	defer src.Release()

	// The batch goes through a row codec first, like every interop case.
	enc, dec, err := newCodec("unsaferow-spark", schema, mem)
	require.NoError(t, err)
	rows, err := encodeAll(enc, []arrow.RecordBatch{src})
	require.NoError(t, err)
	rb, err := dec.Decode(rows.Slices())
	require.NoError(t, err)
	defer rb.Release()
	writeIPC(t, mem, schema, filepath.Join(dir, "b.arrows"), filepath.Join(dir, "b.arrow"), rb)

	alterations := []struct {
		name    string
		alter   func(e *expectation)
		message string // what check.mjs must report
	}{
		{"control", func(*expectation) {}, ""},
		{"value", func(e *expectation) { e.Columns[0][0] = 2 }, "i32[0]: want 2, got 1"},
		{"null", func(e *expectation) { e.Columns[1][1] = nil; e.NullCounts[1]++ }, `s[1]: want null, got "b"`},
		{"not-null", func(e *expectation) { e.Columns[0][1] = 0; e.NullCounts[0]-- }, "i32[1]: want 0, got null"},
		{"type", func(e *expectation) { e.Fields[0].Type = typeDesc{"id": "int64"} }, `schema[0].type.id: want "int64", got "int32"`},
		{"nullable", func(e *expectation) { e.Fields[1].Nullable = false }, "schema[1].nullable: want false, got true"},
		{"nested value", func(e *expectation) { e.Columns[2][0].([]any)[1] = "3" }, `l[0][1]: want "3", got "2"`},
		{"empty vs null list", func(e *expectation) { e.Columns[2][1] = nil; e.NullCounts[2]++ }, "l[1]: want null, got []"},
		{"float sign bit", func(e *expectation) { e.Columns[3][2] = "0x0000000000000000" }, `f[2]: want "0x0000000000000000", got "0x8000000000000000"`},
		{"null count", func(e *expectation) { e.NullCounts[0] = 2 }, "i32: null count want 2, got 1"},
	}
	manifest := struct {
		Cases []jsCase `json:"cases"`
	}{}
	for _, a := range alterations {
		e := expect(rb)
		a.alter(&e)
		name := strings.ReplaceAll(a.name, " ", "-")
		writeJSON(t, filepath.Join(dir, name+".json"), e)
		manifest.Cases = append(manifest.Cases, jsCase{Name: a.name, Stream: "b.arrows", File: "b.arrow", Expect: name + ".json"})
	}
	// A column whose NullN() is 0 while its bitmap holds a null, as a stale
	// null count from a compute kernel would leave it (docs/arrow-go-pitfalls.md,
	// "Stale null count of chunked results"): the IPC writer trusts NullN, and the checker must notice.
	stale := staleNullCountBatch(t, mem)
	defer stale.Release()
	writeIPC(t, mem, stale.Schema(), filepath.Join(dir, "stale.arrows"), filepath.Join(dir, "stale.arrow"), stale)
	writeJSON(t, filepath.Join(dir, "stale.json"), expect(stale))
	manifest.Cases = append(manifest.Cases, jsCase{Name: "stale null count", Stream: "stale.arrows", File: "stale.arrow", Expect: "stale.json"})
	writeJSON(t, filepath.Join(dir, "manifest.json"), manifest)

	code, _, stderr := runNode(t, node, "check.mjs", dir)
	assert.Equal(t, 1, code, "check.mjs must fail on altered expectations:\n%s", stderr)
	report := readReport(t, dir)
	require.Len(t, report.Cases, len(alterations)+1)
	staleCase := report.Cases[len(alterations)]
	assert.False(t, staleCase.OK, "a stale null count was not caught")
	t.Logf("stale null count: %v", staleCase.Errors)
	assert.Regexp(t, `v(: null count 0 in IPC, bitmap has 1 nulls|\[1\]: want null, got 2)`, strings.Join(staleCase.Errors, "\n"))
	for i, a := range alterations {
		rc := report.Cases[i]
		if a.message == "" {
			assert.True(t, rc.OK, "%s: %v", a.name, rc.Errors)
			continue
		}
		assert.False(t, rc.OK, "%s was not caught", a.name)
		all := strings.Join(rc.Errors, "\n")
		// Both the stream and the file reading must catch it.
		assert.Contains(t, all, "stream: "+a.message, a.name)
		assert.Contains(t, all, "file: "+a.message, a.name)
	}
}

func staleNullCountBatch(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	vals := memory.NewResizableBuffer(mem)
	vals.Resize(arrow.Int32Traits.BytesRequired(3))
	copy(arrow.Int32Traits.CastFromBytes(vals.Bytes()), []int32{1, 2, 3})
	valid := memory.NewResizableBuffer(mem)
	valid.Resize(1)
	valid.Bytes()[0] = 0b101 // row 1 is null
	d := array.NewData(arrow.PrimitiveTypes.Int32, 3, []*memory.Buffer{valid, vals}, nil, 0, 0)
	vals.Release()
	valid.Release()
	col := array.MakeFromData(d)
	d.Release()
	defer col.Release()
	require.True(t, col.IsNull(1))
	require.Equal(t, 0, col.NullN())
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, 3)
}
