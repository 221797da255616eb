package compute

import (
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/casttest"
)

// TestCallAllocsConstant: through the registry too, a call allocates the
// same number of times for 1000 and 100000 rows, valid or all failing
// (give or take one background allocation; one per row would be
// thousands), and try(sql_cast) costs what try_cast does.
func TestCallAllocsConstant(t *testing.T) {
	casttest.CountAllocs(t)
	mem := memory.DefaultAllocator
	ctx := testCtx(t, mem)
	opts := &CastOptions{ToType: arrow.PrimitiveTypes.Int32}
	calls := []struct {
		name string
		opts compute.FunctionOptions
	}{{"try_cast", opts}, {"try", trySQL(opts)}}
	counts := map[string]float64{}
	for _, n := range []int{1000, 100000} {
		for kind, f := range map[string]func(int) string{"valid": strconv.Itoa, "failing": func(int) string { return "$" }} {
			in := casttest.Strings(mem, n, f)
			arg := compute.NewDatumWithoutOwning(in)
			for _, c := range calls {
				counts[c.name+"/"+kind+"/"+strconv.Itoa(n)] = testing.AllocsPerRun(10, func() {
					res, err := compute.CallFunction(ctx, c.name, c.opts, arg)
					if err != nil {
						t.Fatal(err)
					}
					res.Release()
				})
			}
			if kind == "valid" {
				counts["sql_cast/valid/"+strconv.Itoa(n)] = testing.AllocsPerRun(10, func() {
					res, err := compute.CallFunction(ctx, "sql_cast", opts, arg)
					if err != nil {
						t.Fatal(err)
					}
					res.Release()
				})
			} else {
				counts["sql_cast/failing/"+strconv.Itoa(n)] = testing.AllocsPerRun(10, func() {
					if _, err := compute.CallFunction(ctx, "sql_cast", opts, arg); err == nil {
						t.Fatal("no error")
					}
				})
			}
			in.Release()
		}
	}
	base := counts["try_cast/valid/1000"]
	for k, v := range counts {
		// sql_cast's error and the failure bitmap add a few allocations per call.
		if v < base-1 || v > base+8 {
			t.Errorf("%s: %v allocations, try_cast/valid/1000 %v", k, v, base)
		}
	}
	for _, k := range []string{"try/valid/", "try/failing/", "sql_cast/failing/"} {
		if a, b := counts[k+"1000"], counts[k+"100000"]; b > a+1 || b < a-1 {
			t.Errorf("%s: %v allocations at 1000 rows, %v at 100000", k, a, b)
		}
	}
	t.Logf("allocations per call: %v", counts)
}
