package unsaferow

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// decodeTwice decodes rows with memory filled with 0x00 and with 0xff: both
// must fail alike with a *DecodeError or both succeed with valid,
// byte-identical batches; no allocation may exceed limit bytes. DecodeRows
// of the rows packed in one buffer must agree with Decode.
func decodeTwice(t *testing.T, schema *arrow.Schema, rows [][]byte, limit int) {
	t.Helper()
	if d := decodeTwiceProblem(t, schema, rows, limit); d != "" {
		t.Fatal(d)
	}
}

// decodeTwiceProblem is decodeTwice's check, returning what is wrong.
func decodeTwiceProblem(t *testing.T, schema *arrow.Schema, rows [][]byte, limit int) (problem string) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer func() {
		if problem == "" && mem.CurrentAlloc() != 0 {
			problem = fmt.Sprintf("%d bytes left allocated", mem.CurrentAlloc())
		}
	}()
	var recs [2]arrow.RecordBatch
	var errs [2]error
	for i, fill := range []byte{0x00, 0xff} {
		al := &testgen.FillAllocator{Allocator: mem, Fill: fill}
		dec := mustDecoder(t, schema, al)
		func() {
			defer func() {
				if p := recover(); p != nil {
					problem = fmt.Sprintf("panic: %v", p)
				}
			}()
			recs[i], errs[i] = dec.Decode(rows)
		}()
		if problem != "" {
			return problem
		}
		if al.Largest > limit {
			return fmt.Sprintf("allocation of %d bytes for %d input rows (limit %d)", al.Largest, len(rows), limit)
		}
	}
	defer func() { // runs before the leak check above
		for _, r := range recs {
			if r != nil {
				r.Release()
			}
		}
	}()
	if (errs[0] == nil) != (errs[1] == nil) {
		return fmt.Sprintf("decodes disagree: %v / %v", errs[0], errs[1])
	}
	if d := decodeRowsProblem(t, schema, rows, 8); d != "" {
		return "DecodeRows and Decode disagree: " + d
	}
	if errs[0] != nil {
		var de *rowbridge.DecodeError
		if !errors.As(errs[0], &de) || strings.Contains(errs[0].Error(), "\n") {
			return fmt.Sprintf("error %q is not a one-line *DecodeError", errs[0])
		}
		if errs[0].Error() != errs[1].Error() {
			return fmt.Sprintf("errors differ: %v / %v", errs[0], errs[1])
		}
		return ""
	}
	for i, col := range recs[0].Columns() {
		if err := array.ValidateFull(col); err != nil {
			return fmt.Sprintf("column %d: %v", i, err)
		}
	}
	for c := range recs[0].Columns() {
		if d := testgen.SameBuffers(schema.Field(c).Name, recs[0].Column(c).Data(), recs[1].Column(c).Data()); d != "" {
			return "unwritten bytes exposed: " + d
		}
	}
	return ""
}

// auditShapes are schemas and rows of the one-pass paths added today:
// arrays of words of every width at the top level and in structs, arrays
// of arrays of words (inner arrays of 0, 1, 63, 64 and 65 elements), maps
// of words, several strings summed in one pass, booleans gathered eight to
// a byte.
func auditShapes() []struct{ ddl, js string } {
	return []struct{ ddl, js string }{
		{"a ARRAY<BIGINT>", `[{"a": [1, 2, 3]}, {"a": []}, {"a": null}, {"a": [9]}, {"a": ` + longArrayJSON(65) + `}]`},
		{"a ARRAY<INT>, b ARRAY<SMALLINT>, c ARRAY<TINYINT>",
			`[{"a": [1], "b": [2, 3, 4], "c": [5, 6, 7, 8, 9]}, {"a": [], "b": [], "c": [1]}, {"a": null, "b": [7], "c": null}]`},
		{"a ARRAY<ARRAY<BIGINT>>",
			`[{"a": [[1], [], [2], [3]]}, {"a": [[` + strings.Trim(longArrayJSON(63), "[]") + `], [4]]}, {"a": [[` + strings.Trim(longArrayJSON(64), "[]") + `]]}, {"a": [[` + strings.Trim(longArrayJSON(65), "[]") + `], []]}]`},
		{"a ARRAY<ARRAY<INT>>", `[{"a": [[1, 2, 3], [4]]}, {"a": [[]]}, {"a": []}, {"a": [[5], [6, 7]]}]`},
		{"a ARRAY<ARRAY<SMALLINT>>", `[{"a": [[1], [2, 3, 4, 5, 6]]}, {"a": [[7]]}]`},
		{"m MAP<BIGINT, INT>", `[{"m": [{"key": 1, "value": 2}, {"key": 3, "value": 4}]}, {"m": []}, {"m": null}, {"m": [{"key": 5, "value": 6}]}]`},
		{"m MAP<INT, SMALLINT>", `[{"m": [{"key": 1, "value": 2}]}, {"m": [{"key": 3, "value": 4}, {"key": 5, "value": 6}, {"key": 7, "value": 8}]}]`},
		{"s STRUCT<a: ARRAY<INT>, b: STRING, c: STRING>, d ARRAY<DOUBLE>",
			`[{"s": {"a": [1, 2], "b": "xy", "c": "abcdefghijklmnopq"}, "d": [0.5]}, {"s": null, "d": []}, {"s": {"a": [], "b": null, "c": ""}, "d": null}]`},
		{"a STRING, b STRING, c BINARY, d STRING",
			`[{"a": "x", "b": "hello world, long enough", "c": "AAEC", "d": ""}, {"a": null, "b": "é", "c": null, "d": "z"}]`},
		{"p BOOLEAN, q BOOLEAN, x BIGINT",
			`[{"p": true, "q": false, "x": 1}, {"p": false, "q": true, "x": 2}, {"p": true, "q": null, "x": 3}, {"p": null, "q": true, "x": null}, {"p": true, "q": true, "x": 5}, {"p": false, "q": false, "x": 6}, {"p": true, "q": true, "x": 7}, {"p": true, "q": true, "x": 8}, {"p": false, "q": true, "x": 9}]`},
	}
}

// hostileWords are the values a word of a row is replaced with.
func hostileWords(orig uint64) []uint64 {
	hi, lo := orig>>32, orig&0xffffffff
	return []uint64{
		0, 1, 7, 8, 63, 64, 65, math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, math.MaxUint64, 1 << 63, 1<<32 | 8,
		orig ^ 1<<63, orig + 1, orig - 1, orig + 8, orig - 8,
		(hi+8)<<32 | lo, (hi-8)<<32 | lo, hi<<32 | (lo + 1), hi<<32 | (lo + 8), hi<<32 | (lo - 8), hi<<32 | 0xffffffff,
		8<<32 | lo, 0xfffffff8<<32 | lo,
	}
}

// TestAuditHostileWords replaces every word (and every half word) of rows of
// the new one-pass paths with hostile values and decodes the rows in a batch
// after the good ones: the decode fails with a one-line *DecodeError or
// gives a valid batch, never panics, never exposes unwritten memory, and
// never allocates more than a small multiple of the input.
func TestAuditHostileWords(t *testing.T) {
	mem := checkedMem(t)
	for _, sh := range auditShapes() {
		schema := mustParseDDL(t, sh.ddl)
		for _, fl := range []Flavor{Spark, Velox} {
			rows := encodeJSON(t, mem, fl, sh.ddl, sh.js)
			in := 0
			for _, r := range rows {
				in += len(r)
			}
			limit := 64*in + 4096
			decodeTwice(t, schema, rows, limit)
			for ri, row := range rows {
				for at := 0; at+4 <= len(row); at += 4 {
					orig := binary.LittleEndian.Uint64(append(row[at:min(at+8, len(row)):min(at+8, len(row))], make([]byte, 8)...))
					for _, w := range hostileWords(orig) {
						bad := append([]byte(nil), row...)
						var word [8]byte
						binary.LittleEndian.PutUint64(word[:], w)
						copy(bad[at:], word[:])
						batch := append(append([][]byte(nil), rows[:ri]...), bad)
						batch = append(batch, rows[ri+1:]...)
						if d := decodeTwiceProblem(t, schema, batch, limit); d != "" {
							t.Fatalf("%s %v row %d word at %d = %#x: %s", sh.ddl, fl, ri, at, w, d)
						}
					}
				}
			}
		}
	}
}

// FuzzAuditWordPaths XORs the fuzzer's bytes into the rows of one of the
// audit shapes (data[0] picks it and the flavour) and holds the decode to
// decodeTwice's checks.
func FuzzAuditWordPaths(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0xff})
	f.Add([]byte{5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0x7f})
	f.Add([]byte{4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})
	shapes := auditShapes()
	mem := memory.NewGoAllocator()
	encoded := make([][][]byte, 2*len(shapes))
	for i, sh := range shapes {
		for j, fl := range []Flavor{Spark, Velox} {
			encoded[2*i+j] = encodeJSON(f, mem, fl, sh.ddl, sh.js)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		k := int(data[0]) % len(encoded)
		sh := shapes[k/2]
		var rows [][]byte
		in, pos := 0, 1
		for _, r := range encoded[k] {
			b := append([]byte(nil), r...)
			for i := range b {
				if pos < len(data) {
					b[i] ^= data[pos]
					pos++
				}
			}
			rows = append(rows, b)
			in += len(b)
		}
		if d := decodeTwiceProblem(t, mustParseDDL(t, sh.ddl), rows, 64*in+4096); d != "" {
			t.Fatalf("%s: %s", sh.ddl, d)
		}
	})
}
