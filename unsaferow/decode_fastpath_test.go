package unsaferow

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// longArrayJSON is a row whose array has n elements, null at the indexes
// in nulls.
func longArrayJSON(n int, nulls ...int) string {
	vals := make([]string, n)
	for i := range vals {
		vals[i] = fmt.Sprint(i + 1)
	}
	for _, i := range nulls {
		vals[i] = "null"
	}
	return "[" + strings.Join(vals, ",") + "]"
}

// The one-pass array paths (arrays of words, arrays of arrays of words,
// map keys and values) on what they hand to the general path: nulls past
// the first bitset word, null inner arrays and null inner elements, and
// arrays longer than 64 elements, in both flavours, on dirty memory.
func TestDecodeWordArraysWithNulls(t *testing.T) {
	cases := []struct{ name, ddl, js string }{
		{"null past word one", "a ARRAY<BIGINT>",
			`[{"a": ` + longArrayJSON(70, 66) + `}, {"a": [1, 2]}, {"a": null}, {"a": ` + longArrayJSON(130) + `}]`},
		{"null in word one of a long array", "a ARRAY<INT>",
			`[{"a": ` + longArrayJSON(65, 3) + `}, {"a": [7]}]`},
		{"short elements", "a ARRAY<SMALLINT>, b ARRAY<TINYINT>",
			`[{"a": [1, null, 3], "b": [4, 5, 6, 7, 8, 9, 10, 11, 12]}, {"a": [], "b": [null]}]`},
		{"nested without nulls", "a ARRAY<ARRAY<BIGINT>>",
			`[{"a": [[1], [], [2, 3], [4]]}, {"a": []}, {"a": [[` + strings.Trim(longArrayJSON(70), "[]") + `]]}]`},
		{"nested null inner array", "a ARRAY<ARRAY<BIGINT>>",
			`[{"a": [[1], null, [2]]}, {"a": [[3]]}]`},
		{"nested null inner element", "a ARRAY<ARRAY<INT>>",
			`[{"a": [[1, null], [2]]}, {"a": [[null]]}]`},
		{"array field of null structs", "s STRUCT<a: ARRAY<INT>, b: ARRAY<DOUBLE>>",
			`[{"s": {"a": [1, 2], "b": null}}, {"s": null}, {"s": {"a": [], "b": [0.5]}}]`},
		{"array field of 64 and 65 elements", "a ARRAY<BIGINT>",
			`[{"a": ` + longArrayJSON(64) + `}, {"a": ` + longArrayJSON(65) + `}, {"a": ` + longArrayJSON(64, 63) + `}]`},
		{"map of words with null values", "m MAP<BIGINT, DOUBLE>",
			`[{"m": [{"key": 1, "value": 1.5}, {"key": 2, "value": null}]}, {"m": null}, {"m": []}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := checkedMem(t)
			dirty := testgen.DirtyAllocator(mem)
			schema := mustParseDDL(t, c.ddl)
			dec := mustDecoder(t, schema, dirty)
			for _, fl := range []Flavor{Spark, Velox} {
				rows := encodeJSON(t, mem, fl, c.ddl, c.js)
				rec := decodeValid(t, dec, rows)
				want := jsonRecord(t, mem, schema, c.js)
				assertBatch(t, rec, want)
				rec.Release()
				want.Release()
			}
		})
	}
}

// A null bit past the last field of a row is reported after any row of a
// bad size, as before the check joined the pass over the row sizes; a
// schema without fields decodes rows of no bytes.
func TestDecodeRowChecksOrder(t *testing.T) {
	mem := checkedMem(t)
	schema := mustParseDDL(t, "a INT, b INT")
	dec := mustDecoder(t, schema, mem)
	good := handRow(hI32(1), hI32(2))
	stray := handRow(hI32(1), hI32(2))
	stray[0] |= 0x04
	_, err := dec.Decode([][]byte{good, stray, good[:16]})
	assertDecodeError(t, err, rowbridge.ErrTruncated, "", 16)
	_, err = dec.Decode([][]byte{good, stray, good})
	assertDecodeError(t, err, rowbridge.ErrLayout, "", 0)
	if de := err.(*rowbridge.DecodeError); de.Row != 1 {
		t.Fatalf("row %d, want 1", de.Row)
	}

	none := mustDecoder(t, arrow.NewSchema(nil, nil), mem)
	rec := decodeValid(t, none, [][]byte{{}, {}})
	if rec.NumRows() != 2 {
		t.Fatalf("%d rows", rec.NumRows())
	}
	rec.Release()
}
