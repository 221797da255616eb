package compute

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/casttest"
	"github.com/rowbridge/rowbridge/trycast"
)

// TestCallAllocsConstant: through the registry too, a call allocates the
// same number of times for 1000 and 100000 rows, valid or all failing
// (give or take one background allocation; one per row would be
// thousands), try(sql_cast) and a valid sql_cast cost what try_cast does,
// and a failing sql_cast three more. The Arrow buffers come from a
// CheckedAllocator (its bookkeeping adds the same few Go allocations per
// buffer to every call) that must end empty.
func TestCallAllocsConstant(t *testing.T) {
	casttest.CountAllocs(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ctx := testCtx(t, mem)
	opts := &SQLCastOptions{ToType: arrow.PrimitiveTypes.Int32}
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
					checkNulls(t, c.name, res, kind, n)
					res.Release()
				})
			}
			if kind == "valid" {
				counts["sql_cast/valid/"+strconv.Itoa(n)] = testing.AllocsPerRun(10, func() {
					res, err := compute.CallFunction(ctx, "sql_cast", opts, arg)
					if err != nil {
						t.Fatal(err)
					}
					checkNulls(t, "sql_cast", res, kind, n)
					res.Release()
				})
			} else {
				counts["sql_cast/failing/"+strconv.Itoa(n)] = testing.AllocsPerRun(10, func() {
					var ve *trycast.ValueError
					if _, err := compute.CallFunction(ctx, "sql_cast", opts, arg); !errors.As(err, &ve) || ve.Row != 0 || ve.Value != `"$"` {
						t.Fatalf("sql_cast: %v, want a ValueError for row 0", err)
					}
				})
			}
			in.Release()
		}
	}
	base := counts["try_cast/valid/1000"]
	for k, v := range counts {
		want := base
		if strings.HasPrefix(k, "sql_cast/failing/") {
			// trycast's failure bitmap, the *trycast.ValueError and the
			// quoted value it names.
			want += 3
		}
		if v < want-1 || v > want+1 {
			t.Errorf("%s: %v allocations, want %v (try_cast/valid/1000 %v)", k, v, want, base)
		}
	}
	for _, k := range []string{"try/valid/", "try/failing/", "sql_cast/failing/"} {
		if a, b := counts[k+"1000"], counts[k+"100000"]; b > a+1 || b < a-1 {
			t.Errorf("%s: %v allocations at 1000 rows, %v at 100000", k, a, b)
		}
	}
	t.Logf("allocations per call: %v", counts)
}

// checkNulls checks the array result of an all-valid (kind "valid") or
// all-failing n-row cast: n values or n nulls.
func checkNulls(t *testing.T, fn string, res compute.Datum, kind string, n int) {
	out, ok := res.(*compute.ArrayDatum)
	want := 0
	if kind == "failing" {
		want = n
	}
	if !ok || out.Len() != int64(n) || out.NullN() != int64(want) {
		t.Fatalf("%s/%s/%d: got %v", fn, kind, n, res)
	}
}
