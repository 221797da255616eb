package compactrow

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// decodeTwiceProblem decodes rows on memory filled with 0x00 and with
// 0xff: both must fail alike with a one-line *DecodeError, or give valid
// byte-identical batches, with no panic, leak or allocation past limit.
func decodeTwiceProblem(schema *arrow.Schema, rows [][]byte, limit int) (problem string) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer func() {
		if problem == "" && mem.CurrentAlloc() != 0 {
			problem = fmt.Sprintf("%d bytes left allocated", mem.CurrentAlloc())
		}
	}()
	var recs [2]arrow.RecordBatch
	var errs [2]error
	defer func() {
		for _, r := range recs {
			if r != nil {
				r.Release()
			}
		}
	}()
	for i, fill := range []byte{0x00, 0xff} {
		al := &testgen.FillAllocator{Allocator: mem, Fill: fill}
		dec, err := NewDecoder(schema, WithAllocator(al))
		if err != nil {
			return err.Error()
		}
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
			return fmt.Sprintf("allocation of %d bytes (limit %d)", al.Largest, limit)
		}
	}
	if (errs[0] == nil) != (errs[1] == nil) {
		return fmt.Sprintf("decodes disagree: %v / %v", errs[0], errs[1])
	}
	if errs[0] != nil {
		var de *rowbridge.DecodeError
		if !errors.As(errs[0], &de) || strings.Contains(errs[0].Error(), "\n") || errs[0].Error() != errs[1].Error() {
			return fmt.Sprintf("bad error %q / %q", errs[0], errs[1])
		}
		return ""
	}
	for i, col := range recs[0].Columns() {
		if err := array.ValidateFull(col); err != nil {
			return fmt.Sprintf("column %d: %v", i, err)
		}
		if d := testgen.SameBuffers(schema.Field(i).Name, col.Data(), recs[1].Column(i).Data()); d != "" {
			return "unwritten bytes exposed: " + d
		}
	}
	return ""
}

func auditLongList(n int) string {
	v := make([]string, n)
	for i := range v {
		v[i] = fmt.Sprint(i - 3)
	}
	return strings.Join(v, ",")
}

// auditShapes are rows of today's fast paths: flat rows (a fixed prefix,
// then strings, arrays and maps of fixed-width values, arrays of arrays),
// short strings of every move size, and the same fields after a null
// top-level field, which sends a row through the general scan.
func auditShapes() []struct{ ddl, js string } {
	long := strings.Repeat("0123456789abcdef", 5)
	return []struct{ ddl, js string }{
		{"i INT, b BIGINT, s STRING, t BINARY, u STRING",
			`[{"i": 1, "b": 2, "s": "abc", "t": "AAECAwQFBgcICQoLDA0ODxAREhM=", "u": "` + long[:33] + `"},
			  {"i": 3, "b": 4, "s": "", "t": "", "u": "` + long[:16] + `"},
			  {"i": null, "b": 5, "s": "` + long[:8] + `", "t": "AA==", "u": "` + long[:17] + `"},
			  {"i": 6, "b": 7, "s": "` + long[:4] + `", "t": null, "u": "` + long[:7] + `"}]`},
		{"i INT, a ARRAY<INT>, b ARRAY<BIGINT>, c ARRAY<SMALLINT>, s STRING",
			`[{"i": 1, "a": [1, 2, 3], "b": [4], "c": [5, 6, 7, 8, 9, 10, 11, 12, 13], "s": "x"},
			  {"i": 2, "a": [], "b": [], "c": [], "s": ""},
			  {"i": 3, "a": [` + auditLongList(65) + `], "b": [1, null], "c": [1], "s": "yz"},
			  {"i": null, "a": [7], "b": [8], "c": null, "s": "w"}]`},
		{"m MAP<INT, BIGINT>, n MAP<SMALLINT, INT>, s STRING",
			`[{"m": [{"key": 1, "value": 2}, {"key": 3, "value": 4}], "n": [{"key": 5, "value": 6}], "s": "a"},
			  {"m": [], "n": [], "s": ""},
			  {"m": [{"key": 7, "value": null}], "n": null, "s": "b"},
			  {"m": null, "n": [{"key": 8, "value": 9}], "s": null}]`},
		{"l ARRAY<ARRAY<INT>>, s STRING",
			`[{"l": [[1], [], [2, 3], [4]], "s": "a"},
			  {"l": [[` + auditLongList(63) + `], [1]], "s": "b"},
			  {"l": [[` + auditLongList(64) + `]], "s": "c"},
			  {"l": [[` + auditLongList(65) + `], []], "s": "d"},
			  {"l": [], "s": "e"},
			  {"l": [[1, null], null, [2]], "s": "f"},
			  {"l": [[5], [6]], "s": null}]`},
		{"k INT, l ARRAY<ARRAY<BIGINT>>, x ARRAY<ARRAY<SMALLINT>>",
			`[{"k": null, "l": [[1], [], [2]], "x": [[1, 2, 3], [4]]},
			  {"k": 1, "l": [[3]], "x": [[]]},
			  {"k": null, "l": [[` + auditLongList(64) + `], [9]], "x": [[` + auditLongList(63) + `]]}]`},
	}
}

func encodeAuditRows(t *testing.T, schema *arrow.Schema, js string) [][]byte {
	t.Helper()
	mem := memory.NewGoAllocator()
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	enc, err := NewEncoder(schema)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := enc.Encode(rec)
	if err != nil {
		t.Fatal(err)
	}
	return rows.Slices()
}

// hostileInts are the values an int32 of a row is replaced with: counts
// and sizes near 2^31 and the values whose (n+7)/8 or n*w wrap on 32-bit
// machines, and small changes of the original.
func hostileInts(orig uint32) []uint32 {
	return []uint32{0, 1, 3, 4, 7, 8, 63, 64, 65, 0x7fffffff, 0x7ffffff9, 0x80000000, 0xffffffff, 0xfffffff8,
		0x1fffffff, 0x20000000, 0x3fffffff, 0x40000000, 0x0fffffff, orig + 1, orig - 1, orig + 4, orig - 4, orig + 8}
}

// TestAuditHostileInts writes hostile int32s at every byte of rows of the
// fast paths, flips bits of every byte, and truncates each row at every
// length, decoding each bad row in its batch (the good rows around it):
// it decodes or fails alike on 0x00- and 0xff-filled memory, never
// panics, never leaks, never allocates more than a small multiple of
// the input.
func TestAuditHostileInts(t *testing.T) {
	for _, sh := range auditShapes() {
		schema, err := ddl.Parse(sh.ddl)
		if err != nil {
			t.Fatal(err)
		}
		rows := encodeAuditRows(t, schema, sh.js)
		in := 0
		for _, r := range rows {
			in += len(r)
		}
		limit := 64*in + 4096
		if d := decodeTwiceProblem(schema, rows, limit); d != "" {
			t.Fatalf("%s: good rows: %s", sh.ddl, d)
		}
		try := func(ri int, bad []byte, what string) {
			batch := append(append([][]byte(nil), rows[:ri]...), bad)
			batch = append(batch, rows[ri+1:]...)
			if d := decodeTwiceProblem(schema, batch, limit); d != "" {
				t.Fatalf("%s row %d %s: %s", sh.ddl, ri, what, d)
			}
		}
		for ri, row := range rows {
			for at := range row {
				var o [4]byte
				copy(o[:], row[at:])
				orig := binary.LittleEndian.Uint32(o[:])
				for _, w := range hostileInts(orig) {
					bad := append([]byte(nil), row...)
					var word [4]byte
					binary.LittleEndian.PutUint32(word[:], w)
					copy(bad[at:], word[:])
					try(ri, bad, fmt.Sprintf("int32 at %d = %#x", at, w))
				}
				for _, x := range []byte{0x01, 0x80, 0xff, 0x40} {
					bad := append([]byte(nil), row...)
					bad[at] ^= x
					try(ri, bad, fmt.Sprintf("byte %d ^ %#x", at, x))
				}
			}
			for n := range len(row) {
				try(ri, row[:n:n], fmt.Sprintf("cut to %d", n))
				try(ri, append(append([]byte(nil), row...), make([]byte, n%9)...), fmt.Sprintf("%d trailing bytes", n%9))
			}
		}
	}
}
