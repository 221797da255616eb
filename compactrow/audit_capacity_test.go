package compactrow

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
)

// TestAuditCutRowsIgnoreCapacity: a row cut short whose slice keeps the
// rest of its bytes in its capacity decodes exactly as the same cut with
// no spare capacity: no path (the unsafe moves included) reads past a
// row's length.
func TestAuditCutRowsIgnoreCapacity(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, sh := range auditShapes() {
		schema, err := ddl.Parse(sh.ddl)
		if err != nil {
			t.Fatal(err)
		}
		rows := encodeAuditRows(t, schema, sh.js)
		for ri, row := range rows {
			full := append(append([]byte(nil), row...), make([]byte, 64)...)
			for n := 0; n <= len(row); n++ {
				withCap := append(append([][]byte(nil), rows[:ri]...), full[:n])
				withCap = append(withCap, rows[ri+1:]...)
				noCap := append(append([][]byte(nil), rows[:ri]...), append([]byte(nil), row[:n]...)[:n:n])
				noCap = append(noCap, rows[ri+1:]...)
				a, errA := decodeOrErr(schema, mem, withCap)
				b, errB := decodeOrErr(schema, mem, noCap)
				what := fmt.Sprintf("%s row %d cut to %d", sh.ddl, ri, n)
				if (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() {
					t.Fatalf("%s: with capacity: %v; without: %v", what, errA, errB)
				}
				if errA == nil {
					if !array.RecordApproxEqual(a, b, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
						t.Fatalf("%s: batches differ", what)
					}
					a.Release()
					b.Release()
				}
			}
		}
	}
}
