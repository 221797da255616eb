package sparkhash

import (
	"encoding/hex"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// checkedMem returns an allocator that fails the test if anything is left
// allocated when it ends.
func checkedMem(t *testing.T) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

// fromJSON builds an array of type dt from a JSON list; the test releases
// it at cleanup.
func fromJSON(t *testing.T, mem memory.Allocator, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(mem, dt, strings.NewReader(js))
	if err != nil {
		t.Fatalf("building %s from %s: %v", dt, js, err)
	}
	t.Cleanup(arr.Release)
	return arr
}

// hashCols hashes cols through Hash (seed 42 unless given) and returns the
// values; the result array must validate and hold no nulls.
func hashCols(t *testing.T, mem memory.Allocator, seed int32, cols ...arrow.Array) []int32 {
	t.Helper()
	out, err := Hash(mem, cols, seed)
	if err != nil {
		t.Fatalf("Hash: %v", err)
	}
	defer out.Release()
	if err := array.ValidateFull(out); err != nil {
		t.Fatalf("result does not validate: %v", err)
	}
	if out.NullN() != 0 {
		t.Fatalf("result has %d nulls", out.NullN())
	}
	return append([]int32(nil), out.Int32Values()...)
}

// expect compares got with want, skipping the indexes in skip.
func expect(t *testing.T, what string, got, want []int32, skip ...int) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d hashes, want %d", what, len(got), len(want))
	}
	for i := range want {
		skipped := false
		for _, s := range skip {
			skipped = skipped || s == i
		}
		if !skipped && got[i] != want[i] {
			t.Errorf("%s: row %d: hash %d, want %d", what, i, got[i], want[i])
		}
	}
}

// u32 turns published unsigned values into Spark's ints.
func u32(vs ...uint32) []int32 {
	out := make([]int32, len(vs))
	for i, v := range vs {
		out[i] = int32(v)
	}
	return out
}

func parseBig(s string) (decimal128.Num, bool) {
	n, err := decimal128.FromString(s, 38, 0)
	if err == nil {
		return n, true
	}
	// +-2^127 bounds exceed 38 digits: build them directly.
	switch s {
	case "170141183460469231731687303715884105727":
		return decimal128.New(math.MaxInt64, math.MaxUint64), true
	case "-170141183460469231731687303715884105728":
		return decimal128.New(math.MinInt64, 0), true
	}
	return decimal128.Num{}, false
}

func hexOf(b []byte) string { return hex.EncodeToString(b) }
