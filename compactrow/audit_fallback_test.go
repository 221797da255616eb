package compactrow

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
)

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

// TestAuditFlatScanMatchesGeneralScan: rows whose first field p (an INT,
// 0) is valid take the flat-row scan; with p's null flag set (its bytes
// stay) they take the general scan. Every hostile variant of the rows of
// auditShapes, behind p, decodes alike both ways: the same error, or the
// same values in every other column.
func TestAuditFlatScanMatchesGeneralScan(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, sh := range auditShapes() {
		schema, err := ddl.Parse("p INT, " + sh.ddl)
		if err != nil {
			t.Fatal(err)
		}
		orig, err := ddl.Parse(sh.ddl)
		if err != nil {
			t.Fatal(err)
		}
		rows := pRows(t, mem, schema, orig, sh.js)
		check := func(batch [][]byte, what string) {
			if d := flatVsGeneral(mem, schema, batch); d != "" {
				t.Fatalf("%s %s: %s", sh.ddl, what, d)
			}
		}
		check(rows, "good rows")
		for ri, row := range rows {
			for at := 1; at < len(row); at++ {
				var o [4]byte
				copy(o[:], row[at:])
				for _, w := range hostileInts(binary.LittleEndian.Uint32(o[:])) {
					bad := append([]byte(nil), row...)
					var word [4]byte
					binary.LittleEndian.PutUint32(word[:], w)
					copy(bad[at:], word[:])
					batch := append(append([][]byte(nil), rows[:ri]...), bad)
					check(append(batch, rows[ri+1:]...), fmt.Sprintf("row %d int32 at %d = %#x", ri, at, w))
				}
			}
			for n := 1; n < len(row); n++ {
				batch := append(append([][]byte(nil), rows[:ri]...), row[:n:n])
				check(append(batch, rows[ri+1:]...), fmt.Sprintf("row %d cut to %d", ri, n))
			}
		}
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// pRows encodes the JSON rows of orig with an INT p = 0 in front (schema).
func pRows(t testing.TB, mem memory.Allocator, schema, orig *arrow.Schema, js string) [][]byte {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, orig, stringsReader(js))
	if err != nil {
		t.Fatal(err)
	}
	pb := array.NewInt32Builder(mem)
	for range rec.NumRows() {
		pb.Append(0)
	}
	pcol := pb.NewArray()
	pb.Release()
	full := array.NewRecordBatch(schema, append([]arrow.Array{pcol}, rec.Columns()...), rec.NumRows())
	pcol.Release()
	rec.Release()
	defer full.Release()
	enc, err := NewEncoder(schema)
	if err != nil {
		t.Fatal(err)
	}
	encoded, err := enc.Encode(full)
	if err != nil {
		t.Fatal(err)
	}
	return encoded.Slices()
}

// flatVsGeneral decodes batch as it is and with p's null flag set in every
// row (the general scan) and reports how they differ, or "".
func flatVsGeneral(mem memory.Allocator, schema *arrow.Schema, batch [][]byte) string {
	general := make([][]byte, len(batch))
	for i, r := range batch {
		general[i] = append([]byte(nil), r...)
		if len(r) > 0 {
			general[i][0] |= 1
		}
	}
	a, errA := decodeOrErr(schema, mem, batch)
	b, errB := decodeOrErr(schema, mem, general)
	defer func() {
		if a != nil {
			a.Release()
		}
		if b != nil {
			b.Release()
		}
	}()
	if (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() {
		return fmt.Sprintf("flat scan: %v; general scan: %v", errA, errB)
	}
	if errA != nil {
		return ""
	}
	for c := 1; c < int(a.NumCols()); c++ {
		if !array.ApproxEqual(a.Column(c), b.Column(c), array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			return fmt.Sprintf("column %d differs\nflat:    %v\ngeneral: %v", c, a.Column(c), b.Column(c))
		}
	}
	return ""
}

// FuzzAuditFlatScan XORs the fuzzer's bytes into the p-prefixed rows of one
// of the audit shapes (data[0] picks it): the decode meets
// decodeTwiceProblem's checks, and the flat and general scans agree.
func FuzzAuditFlatScan(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0xff})
	f.Add([]byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80})
	shapes := auditShapes()
	mem := memory.NewGoAllocator()
	schemas := make([]*arrow.Schema, len(shapes))
	encoded := make([][][]byte, len(shapes))
	for i, sh := range shapes {
		orig, err := ddl.Parse(sh.ddl)
		if err != nil {
			f.Fatal(err)
		}
		if schemas[i], err = ddl.Parse("p INT, " + sh.ddl); err != nil {
			f.Fatal(err)
		}
		encoded[i] = pRows(f, mem, schemas[i], orig, sh.js)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		k := int(data[0]) % len(encoded)
		var rows [][]byte
		in, pos := 0, 1
		for _, r := range encoded[k] {
			b := append([]byte(nil), r...)
			for i := 1; i < len(b); i++ {
				if pos < len(data) {
					b[i] ^= data[pos]
					pos++
				}
			}
			rows = append(rows, b)
			in += len(b)
		}
		if d := decodeTwiceProblem(schemas[k], rows, 64*in+4096); d != "" {
			t.Fatalf("%s: %s", shapes[k].ddl, d)
		}
		checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
		if d := flatVsGeneral(checked, schemas[k], rows); d != "" {
			t.Fatalf("%s: %s", shapes[k].ddl, d)
		}
		if checked.CurrentAlloc() != 0 {
			t.Fatalf("%d bytes left allocated", checked.CurrentAlloc())
		}
	})
}
