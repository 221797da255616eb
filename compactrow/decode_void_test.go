package compactrow

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/stretchr/testify/require"
)

// VOID (Arrow's Null type) is exempt from NOT NULL: its values are null
// whatever the declaration says. The Encoder writes such values (as null
// flags, or nothing), and the Decoder must read them back, in every place
// a NOT NULL VOID can sit: a field, a list element, a map value, a struct
// field inside a list.
func TestRoundTripVoidNotNull(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	void := arrow.Field{Name: "v", Type: arrow.Null}
	mapVoid := arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.Null)
	mapVoid.SetItemNullable(false)
	cases := []struct {
		name   string
		schema *arrow.Schema
		js     string
	}{
		{"ARRAY<VOID NOT NULL>", fields(nf("a", arrow.ListOfNonNullable(arrow.Null)), nf("i", arrow.PrimitiveTypes.Int32)),
			`[{"a":[null,null],"i":1},{"a":[],"i":2},{"a":null,"i":3},{"a":[null],"i":4}]`},
		{"ARRAY<ARRAY<VOID NOT NULL>>", fields(nf("a", arrow.ListOf(arrow.ListOfNonNullable(arrow.Null)))),
			`[{"a":[[null,null,null],[],null]},{"a":[[null]]}]`},
		{"VOID NOT NULL field", fields(void, nf("i", arrow.PrimitiveTypes.Int64)),
			`[{"v":null,"i":1},{"v":null,"i":2}]`},
		{"STRUCT<VOID NOT NULL, STRING>", fields(nf("s", arrow.StructOf(void, nf("t", arrow.BinaryTypes.String)))),
			`[{"s":{"v":null,"t":"a"}},{"s":null},{"s":{"v":null,"t":null}}]`},
		{"ARRAY<STRUCT<STRING, VOID NOT NULL>>", fields(nf("a", arrow.ListOf(arrow.StructOf(nf("t", arrow.BinaryTypes.String), void)))),
			`[{"a":[{"t":"a","v":null},null,{"t":null,"v":null}]},{"a":[]}]`},
	}
	t.Run("MAP<INT, VOID NOT NULL>", func(t *testing.T) {
		// arrow-go's MapBuilder cannot build a NOT NULL item; assemble it.
		// Rows: {1: null, 2: null}, {}, null.
		keys := columnar.NewBuffer(mem, 8)
		copy(keys.Bytes(), []byte{1, 0, 0, 0, 2, 0, 0, 0})
		keyData := columnar.NewFixedData(arrow.PrimitiveTypes.Int32, 2, nil, 0, keys)
		offs, o := columnar.NewOffsets(mem, 3)
		o[1], o[2], o[3] = 2, 2, 2
		var v columnar.Validity
		v.Reset(mem, 3)
		v.SetNull(2)
		valid, nulls := v.Finish()
		m := columnar.NewMapData(mapVoid, 3, valid, nulls, offs, keyData, columnar.NewNullData(2))
		rec := columnar.NewRecordBatch(fields(nf("m", mapVoid)), 3, []arrow.ArrayData{m})
		defer rec.Release()
		rows := roundTrip(t, mem, rec)
		require.Equal(t, 3, rows.Len())
	})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := fromJSON(t, mem, tc.schema, tc.js)
			defer rec.Release()
			roundTrip(t, mem, rec)
		})
	}
}
