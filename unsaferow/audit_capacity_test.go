package unsaferow

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestAuditCutRowsIgnoreCapacity: a row cut short whose slice keeps the
// rest of its bytes in its capacity decodes exactly as the same cut with
// no spare capacity: no path reads past a row's length (a 2-index slice
// like b[p:p+8] checks only the capacity).
func TestAuditCutRowsIgnoreCapacity(t *testing.T) {
	mem := checkedMem(t)
	for _, sh := range auditShapes() {
		schema := mustParseDDL(t, sh.ddl)
		for _, fl := range []Flavor{Spark, Velox} {
			rows := encodeJSON(t, mem, fl, sh.ddl, sh.js)
			for ri, row := range rows {
				full := append(append([]byte(nil), row...), make([]byte, 64)...) // the cut rows' spare capacity
				for n := 0; n <= len(row); n += 8 {
					withCap := append(append([][]byte(nil), rows[:ri]...), full[:n])
					withCap = append(withCap, rows[ri+1:]...)
					noCap := append(append([][]byte(nil), rows[:ri]...), append([]byte(nil), row[:n]...)[:n:n])
					noCap = append(noCap, rows[ri+1:]...)
					a, errA := decodeOrErr(schema, mem, withCap)
					b, errB := decodeOrErr(schema, mem, noCap)
					what := fmt.Sprintf("%s %v row %d cut to %d", sh.ddl, fl, ri, n)
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
}
