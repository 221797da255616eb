package trycast

import (
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/casttest"
)

// TestCastAllocsConstant: a cast allocates per call, never per row or per
// failure: 1000 and 100000 rows, all valid or all failing, allocate the
// same number of times (give or take one: see below).
func TestCastAllocsConstant(t *testing.T) {
	casttest.CountAllocs(t)
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	dec := &arrow.Decimal128Type{Precision: 12, Scale: 2}
	for _, c := range []struct {
		to          arrow.DataType
		valid, fail func(int) string
	}{
		{arrow.PrimitiveTypes.Int32, strconv.Itoa, func(int) string { return "$" }},
		{arrow.PrimitiveTypes.Int64, strconv.Itoa, func(int) string { return "" }},
		{arrow.PrimitiveTypes.Float64, func(i int) string { return strconv.Itoa(i) + ".5" }, func(int) string { return "x1" }},
		{arrow.FixedWidthTypes.Boolean, func(i int) string { return []string{"true", "false"}[i%2] }, func(int) string { return "maybe" }},
		{dec, func(i int) string { return strconv.Itoa(i) + ".25" }, func(int) string { return "1.2.3" }},
		{arrow.FixedWidthTypes.Date32, func(i int) string { return "2024-05-0" + strconv.Itoa(i%9+1) }, func(i int) string { return "2024-05" + strconv.Itoa(i) }},
		{&arrow.TimestampType{Unit: arrow.Microsecond}, func(int) string { return "2024-05-01 10:00:00" }, func(int) string { return "10:00" }},
		{arrow.ListOf(arrow.PrimitiveTypes.Int32), nil, nil},
	} {
		if c.valid == nil {
			checkListAllocs(t, mem)
			continue
		}
		counts := map[string]float64{}
		for _, n := range []int{1000, 100000} {
			for kind, f := range map[string]func(int) string{"valid": c.valid, "failing": c.fail} {
				in := casttest.Strings(mem, n, f)
				counts[kind+"/"+strconv.Itoa(n)] = testing.AllocsPerRun(10, func() {
					out, err := Cast(mem, in, c.to, Options{Dialect: Spark})
					if err != nil {
						t.Fatal(err)
					}
					if kind == "valid" && out.NullN() != 0 || kind == "failing" && out.NullN() != n {
						t.Fatalf("%s %s: %d nulls", c.to, kind, out.NullN())
					}
					out.Release()
				})
				in.Release()
			}
		}
		// A background goroutine of the runtime or the test framework can add
		// an allocation to a run; one per row would add thousands.
		want := counts["valid/1000"]
		for k, v := range counts {
			if v > want+1 || v < want-1 {
				t.Errorf("%s: %s allocates %v times, valid/1000 %v", c.to, k, v, want)
			}
		}
		// About 16 of them are the cast's; the CheckedAllocator's own
		// bookkeeping of each buffer adds the rest, per buffer, not per row.
		if want > 24 {
			t.Errorf("%s: %v allocations per call", c.to, want)
		}
	}
}

// checkListAllocs: list<utf8> -> list<int32> with every element failing
// (Presto nulls every row) allocates as often for 100 as for 10000 rows.
func checkListAllocs(t *testing.T, mem memory.Allocator) {
	var counts []float64
	for _, n := range []int{100, 10000} {
		lb := array.NewListBuilder(mem, arrow.BinaryTypes.String)
		vb := lb.ValueBuilder().(*array.StringBuilder)
		for i := 0; i < n; i++ {
			lb.Append(true)
			vb.Append("1")
			vb.Append("x")
		}
		in := lb.NewArray()
		lb.Release()
		counts = append(counts, testing.AllocsPerRun(10, func() {
			out, f, err := CastWithFailures(mem, in, arrow.ListOf(arrow.PrimitiveTypes.Int32), Options{Dialect: Presto})
			if err != nil || out.NullN() != n || f.Count != n {
				t.Fatalf("list cast: %v nulls %d failures %d", err, out.NullN(), f.Count)
			}
			out.Release()
		}))
		in.Release()
	}
	if counts[1] > counts[0]+1 {
		t.Errorf("list cast allocations: %v", counts)
	}
}
