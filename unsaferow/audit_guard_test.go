package unsaferow

import (
	"encoding/binary"
	"errors"
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// The decoder reads null bits and slots with columnar.LoadFixed, which
// checks no bounds, on the strength of size checks made earlier (rowSpans,
// decodeStruct). These tests decode hostile rows placed right before an
// unreadable page (testgen.Guarded), so that a load past a row's end
// faults instead of reading a neighbour's bytes.

// guardShapes are schemas whose structs sit where a missed size check
// would let a slot load run past the row: rows that are exactly their
// fixed part, nested structs at every level (in structs, arrays and map
// values, under null parents), and fields of every width.
func guardShapes() []struct{ ddl, js string } {
	return append(auditShapes(), []struct{ ddl, js string }{
		{"x BIGINT, b BOOLEAN, i INT, d DECIMAL(10, 2)",
			`[{"x": 1, "b": true, "i": 2, "d": "1.25"}, {"x": null, "b": null, "i": null, "d": null}]`},
		{"s STRUCT<a: BIGINT, b: INT, c: BOOLEAN>",
			`[{"s": {"a": 1, "b": 2, "c": true}}, {"s": null}, {"s": {"a": null, "b": 3, "c": null}}]`},
		{"s STRUCT<t: STRUCT<x: BIGINT, y: STRING>, z: DECIMAL(30, 1)>",
			`[{"s": {"t": {"x": 1, "y": "ab"}, "z": "12.5"}}, {"s": {"t": null, "z": null}}, {"s": null}]`},
		{"a ARRAY<STRUCT<x: BIGINT, y: STRING>>",
			`[{"a": [{"x": 1, "y": "p"}, null, {"x": null, "y": null}]}, {"a": []}, {"a": null}]`},
		{"a ARRAY<STRUCT<x: SMALLINT, d: DECIMAL(5, 1)>>",
			`[{"a": [{"x": 1, "d": "1.5"}, {"x": 2, "d": null}]}, {"a": [null]}]`},
		{"m MAP<INT, STRUCT<x: BIGINT, b: BOOLEAN>>",
			`[{"m": [{"key": 1, "value": {"x": 5, "b": true}}, {"key": 2, "value": null}]}, {"m": null}]`},
		{"s STRUCT<a: ARRAY<STRUCT<x: BIGINT>>>, t STRING",
			`[{"s": {"a": [{"x": 1}, {"x": 2}]}, "t": "q"}, {"s": {"a": null}, "t": null}, {"s": null, "t": "r"}]`},
	}...)
}

// guardedProblem decodes rows, each copied to the end of its own guarded
// slot, with Decode, and packed into one guarded buffer with DecodeRows,
// and says what is wrong: a panic (a fault included), an error that is
// not a *DecodeError, a batch that differs from the one of the rows as
// given, or memory left allocated.
func guardedProblem(t testing.TB, g *testgen.Guarded, schema *arrow.Schema, rows [][]byte) (problem string) {
	// A fault in this goroutine is a panic (recovered below), not a crash.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	dec := mustDecoder(t, schema, mem)
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			if r != nil {
				r.Release()
			}
		}
		if problem == "" && mem.CurrentAlloc() != 0 {
			problem = fmt.Sprintf("%d bytes left allocated", mem.CurrentAlloc())
		}
	}()
	try := func(what string, f func() (arrow.RecordBatch, error)) (err error) {
		defer func() {
			if p := recover(); p != nil {
				problem = fmt.Sprintf("%s: panic: %v", what, p)
			}
		}()
		rec, err := f()
		recs = append(recs, rec)
		var de *rowbridge.DecodeError
		if err != nil && !errors.As(err, &de) {
			problem = fmt.Sprintf("%s: %v is not a *DecodeError", what, err)
		}
		return err
	}
	werr := try("Decode", func() (arrow.RecordBatch, error) { return dec.Decode(rows) })
	guarded := g.PutAll(rows)
	gerr := try("guarded Decode", func() (arrow.RecordBatch, error) { return dec.Decode(guarded) })
	packed := packRows(rows, 0)
	packed.Data = g.Put(len(rows), packed.Data)
	rerr := try("guarded DecodeRows", func() (arrow.RecordBatch, error) { return dec.DecodeRows(packed) })
	if problem != "" {
		return problem
	}
	if fmt.Sprint(werr) != fmt.Sprint(gerr) || fmt.Sprint(werr) != fmt.Sprint(rerr) {
		return fmt.Sprintf("errors differ: %v / %v / %v", werr, gerr, rerr)
	}
	if werr != nil {
		return ""
	}
	for c := range schema.NumFields() {
		for _, r := range recs[1:] {
			if d := testgen.SameBuffers(schema.Field(c).Name, recs[0].Column(c).Data(), r.Column(c).Data()); d != "" {
				return "guarded batch differs: " + d
			}
		}
	}
	return ""
}

// tailWords are slot words pointing at the last bytes of a row of n
// bytes (offsets counted from the row's start and from 8 and 16 bytes
// into it, where a nested owner may begin), so that a struct too short
// for its fields would end the row.
func tailWords(n int) []uint64 {
	var ws []uint64
	for _, base := range []int{0, 8, 16, 24} {
		for _, size := range []int{0, 8, 16} {
			if off := n - base - size; off >= 0 {
				ws = append(ws, uint64(off)<<32|uint64(size))
			}
		}
	}
	return ws
}

// TestAuditGuardedHostileRows replaces every word of the rows of each
// guard shape, in both flavours, with hostile values (hostileWords, and
// words pointing at the row's end), and truncates each row to every
// length: decoding the rows placed before an unreadable page never faults
// and agrees with decoding them in place.
func TestAuditGuardedHostileRows(t *testing.T) {
	mem := checkedMem(t)
	for _, sh := range guardShapes() {
		schema := mustParseDDL(t, sh.ddl)
		for _, fl := range []Flavor{Spark, Velox} {
			rows := encodeJSON(t, mem, fl, sh.ddl, sh.js)
			total := 0
			for _, r := range rows {
				total += len(r)
			}
			g, err := testgen.NewGuarded(len(rows)+1, total+8)
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, batch [][]byte) {
				t.Helper()
				if d := guardedProblem(t, g, schema, batch); d != "" {
					t.Fatalf("%s %v %s: %s", sh.ddl, fl, what, d)
				}
			}
			check("as written", rows)
			for ri, row := range rows {
				with := func(bad []byte) [][]byte {
					batch := append(append([][]byte(nil), rows[:ri]...), bad)
					return append(batch, rows[ri+1:]...)
				}
				for n := range len(row) {
					check(fmt.Sprintf("row %d cut to %d bytes", ri, n), with(row[:n:n]))
				}
				for at := 0; at+4 <= len(row); at += 4 {
					orig := binary.LittleEndian.Uint64(append(row[at:min(at+8, len(row)):min(at+8, len(row))], make([]byte, 8)...))
					for _, w := range append(hostileWords(orig), tailWords(len(row))...) {
						bad := append([]byte(nil), row...)
						var word [8]byte
						binary.LittleEndian.PutUint64(word[:], w)
						copy(bad[at:], word[:])
						check(fmt.Sprintf("row %d word at %d = %#x", ri, at, w), with(bad))
					}
				}
			}
			g.Close()
		}
	}
}

// TestAuditGuardedNoFields decodes rows of a schema without fields (no
// null bitset, no slots: a valid row is empty) placed before an
// unreadable page.
func TestAuditGuardedNoFields(t *testing.T) {
	schema := arrow.NewSchema(nil, nil)
	g, err := testgen.NewGuarded(4, 64)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, rows := range [][][]byte{{{}, {}, {}}, {{}, make([]byte, 8), {}}, {make([]byte, 3)}, {}} {
		if d := guardedProblem(t, g, schema, rows); d != "" {
			t.Fatalf("%d rows: %s", len(rows), d)
		}
	}
	dec := mustDecoder(t, schema, checkedMem(t))
	rec, err := dec.Decode(g.PutAll([][]byte{{}, {}}))
	if err != nil || rec.NumRows() != 2 || rec.NumCols() != 0 {
		t.Fatalf("two empty rows: %v, %v", rec, err)
	}
	rec.Release()
}

// FuzzAuditGuardedRows XORs the fuzzer's bytes into the rows of one of the
// guard shapes (data[0] picks it and the flavour), cuts the last row to
// data[1] bytes when that is shorter, and holds the guarded decodes to
// guardedProblem's checks.
func FuzzAuditGuardedRows(f *testing.F) {
	f.Add([]byte{0, 0xff, 0, 0, 0, 0, 0, 0, 0, 0xff})
	f.Add([]byte{25, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0x7f})
	f.Add([]byte{30, 24})
	shapes := guardShapes()
	mem := memory.NewGoAllocator()
	encoded := make([][][]byte, 2*len(shapes))
	schemas := make([]*arrow.Schema, len(shapes))
	slots, size := 0, 0
	for i, sh := range shapes {
		schemas[i] = mustParseDDL(f, sh.ddl)
		for j, fl := range []Flavor{Spark, Velox} {
			encoded[2*i+j] = encodeJSON(f, mem, fl, sh.ddl, sh.js)
			total := 0
			for _, r := range encoded[2*i+j] {
				total += len(r)
			}
			slots, size = max(slots, len(encoded[2*i+j])+1), max(size, total+8)
		}
	}
	// A slot per row and one for the packed rows: each slot's guard page
	// is a mapping of its own, of which a process has a limited number.
	g, err := testgen.NewGuarded(slots, size)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(g.Close)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		k := int(data[0]) % len(encoded)
		var rows [][]byte
		pos := 2
		for _, r := range encoded[k] {
			b := append([]byte(nil), r...)
			for i := range b {
				if pos < len(data) {
					b[i] ^= data[pos]
					pos++
				}
			}
			rows = append(rows, b)
		}
		if last := rows[len(rows)-1]; int(data[1]) < len(last) {
			rows[len(rows)-1] = last[:data[1]]
		}
		if d := guardedProblem(t, g, schemas[k/2], rows); d != "" {
			t.Fatalf("%s: %s", shapes[k/2].ddl, d)
		}
	})
}
