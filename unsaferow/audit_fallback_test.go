package unsaferow

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// auditFallbacks are rows that send their whole level off today's one-pass
// paths (a null element gives up decodeWordListSlots, a null inner array
// decodeWordLists), so that a batch with one of them appended decodes the
// other rows through the general path.
var auditFallbacks = map[string]string{
	"a ARRAY<BIGINT>": `[{"a": [1, null]}]`,
	"a ARRAY<INT>, b ARRAY<SMALLINT>, c ARRAY<TINYINT>":              `[{"a": [null], "b": [null], "c": [null]}]`,
	"a ARRAY<ARRAY<BIGINT>>":                                         `[{"a": [[1], null]}]`,
	"a ARRAY<ARRAY<INT>>":                                            `[{"a": [null, [1]]}]`,
	"a ARRAY<ARRAY<SMALLINT>>":                                       `[{"a": [null]}]`,
	"s STRUCT<a: ARRAY<INT>, b: STRING, c: STRING>, d ARRAY<DOUBLE>": `[{"s": {"a": [null], "b": "x", "c": "y"}, "d": [null]}]`,
}

// decodeOrErr decodes rows with a fresh decoder, recovering a panic.
func decodeOrErr(schema *arrow.Schema, mem memory.Allocator, rows [][]byte) (rec arrow.RecordBatch, err error) {
	dec, err := NewDecoder(schema, WithAllocator(mem))
	if err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			rec, err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	return dec.Decode(rows)
}

// TestAuditFastPathsMatchGeneralPath: every hostile-word variant of the
// rows of the one-pass paths decodes alike alone and with a fallback row
// appended (which sends the level through the general path): both fail
// with the same error, or both succeed with the same values for the rows
// before the fallback row.
func TestAuditFastPathsMatchGeneralPath(t *testing.T) {
	mem := checkedMem(t)
	for _, sh := range auditShapes() {
		fbJSON, ok := auditFallbacks[sh.ddl]
		if !ok {
			continue
		}
		schema := mustParseDDL(t, sh.ddl)
		for _, fl := range []Flavor{Spark, Velox} {
			rows := encodeJSON(t, mem, fl, sh.ddl, sh.js)
			fb := encodeJSON(t, mem, fl, sh.ddl, fbJSON)
			check := func(batch [][]byte, what string) {
				a, errA := decodeOrErr(schema, mem, batch)
				b, errB := decodeOrErr(schema, mem, append(append([][]byte(nil), batch...), fb...))
				defer func() {
					if a != nil {
						a.Release()
					}
					if b != nil {
						b.Release()
					}
				}()
				if (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() {
					t.Fatalf("%s %v %s: one-pass path: %v; general path: %v", sh.ddl, fl, what, errA, errB)
				}
				if errA != nil {
					return
				}
				for c := range a.Columns() {
					n := int64(len(batch))
					if !array.SliceApproxEqual(a.Column(c), 0, n, b.Column(c), 0, n, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
						t.Fatalf("%s %v %s: column %d differs\none-pass: %v\ngeneral:  %v", sh.ddl, fl, what, c, a.Column(c), b.Column(c))
					}
				}
			}
			check(rows, "good rows")
			for ri, row := range rows {
				for at := 0; at+4 <= len(row); at += 4 {
					var o [8]byte
					copy(o[:], row[at:])
					for _, w := range hostileWords(binary.LittleEndian.Uint64(o[:])) {
						bad := append([]byte(nil), row...)
						var word [8]byte
						binary.LittleEndian.PutUint64(word[:], w)
						copy(bad[at:], word[:])
						batch := append(append([][]byte(nil), rows[:ri]...), bad)
						check(append(batch, rows[ri+1:]...), fmt.Sprintf("row %d word at %d = %#x", ri, at, w))
					}
				}
			}
		}
	}
}
