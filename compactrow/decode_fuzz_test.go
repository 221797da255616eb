package compactrow

import (
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// fuzzSchemas are the schemas FuzzDecode picks from with its first byte:
// the hostile cases', every golden case's, the testgen shapes and the
// benchmark's.
func fuzzSchemas() []*arrow.Schema {
	out := []*arrow.Schema{schemaE1, schemaE2, schemaE3, schemaE4, schemaE5, schemaE8, schemaUnknown, schemaStruct, schemaStructs, schemaBools}
	for _, tc := range goldenCases {
		if !slices.Contains(out, tc.schema) {
			out = append(out, tc.schema)
		}
	}
	for _, s := range testgen.Shapes() {
		out = append(out, s.Schema)
	}
	for _, bc := range testgen.BenchCases() { // the flat-row shapes
		out = append(out, bc.Schema)
	}
	return out
}

// FuzzDecode feeds arbitrary bytes as one or two rows of a fixed schema:
// data[0] picks the schema, data[1] where the rows split. Decoding must
// never panic, and a batch it returns must be valid.
func FuzzDecode(f *testing.F) {
	schemaIndex := map[*arrow.Schema]int{}
	for i, s := range fuzzSchemas() {
		schemaIndex[s] = i
	}
	for _, tc := range goldenCases {
		for _, h := range tc.rows {
			f.Add(append([]byte{byte(schemaIndex[tc.schema]), 0}, unhex(f, h)...))
		}
	}
	for _, tc := range hostileCases {
		good, bad := unhex(f, tc.good), unhex(f, tc.bad)
		f.Add(append(append([]byte{byte(schemaIndex[tc.schema]), byte(len(good))}, good...), bad...))
	}

	// Unused null-flag bits set, at the row and array level (schemaE2).
	f.Add(append([]byte{1, 0}, unhex(f, "f0 03000000 fa 01000000 00000000 03000000")...))

	schemas := fuzzSchemas()
	// Two rows of each benchmark shape, as their encoder writes them.
	bench := testgen.BenchCases()
	for j, bc := range bench {
		i := len(schemas) - len(bench) + j
		rec := testgen.BenchBatch(memory.NewGoAllocator(), bc.Name, 2, 1)
		enc, err := NewEncoder(schemas[i])
		require.NoError(f, err)
		rows, err := enc.Encode(rec)
		rec.Release()
		require.NoError(f, err)
		f.Add(append([]byte{byte(i), byte(len(rows.Row(0)))}, rows.Data...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		dec, err := NewDecoder(schemas[int(data[0])%len(schemas)], WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		body := data[2:]
		split := int(data[1])
		rows := [][]byte{body}
		if split > 0 && split < len(body) {
			rows = [][]byte{body[:split:split], body[split:]}
		}
		rec, err := dec.Decode(rows)
		if err != nil {
			var de *rowbridge.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v (%T) is not a *rowbridge.DecodeError", err, err)
			}
			return
		}
		defer rec.Release()
		for i, col := range rec.Columns() {
			if err := array.ValidateFull(col); err != nil {
				t.Fatalf("column %d: %v", i, err)
			}
		}
	})
}

// Each golden case's rows, seeded into FuzzDecode with the index of its own
// schema, decode there without error: the seeds start from valid rows.
func TestFuzzSeedSchemas(t *testing.T) {
	schemas := fuzzSchemas()
	for _, tc := range goldenCases {
		i := slices.Index(schemas, tc.schema)
		require.GreaterOrEqual(t, i, 0, tc.name)
		require.Less(t, i, 256, tc.name)
		for _, h := range tc.rows {
			dec, err := NewDecoder(schemas[i])
			require.NoError(t, err)
			rec, err := dec.Decode([][]byte{unhex(t, h)})
			require.NoError(t, err, tc.name)
			require.EqualValues(t, 1, rec.NumRows())
			rec.Release()
		}
	}
}
