package sparkhash

import (
	"encoding/binary"
	"encoding/hex"
	"math/big"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
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

// parseBig parses a decimal integer into a 128-bit two's complement value
// with math/big (arrow-go's decimal128.FromString is wrong on 386).
func parseBig(s string) (decimal128.Num, bool) {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok || v.BitLen() > 128 {
		return decimal128.Num{}, false
	}
	if v.Sign() < 0 {
		v.Add(v, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	var b [16]byte
	v.FillBytes(b[:])
	return decimal128.New(int64(binary.BigEndian.Uint64(b[:8])), binary.BigEndian.Uint64(b[8:])), true
}

// decimals builds a decimal array of type dt (decimal32, 64 or 128) from
// unscaled values.
func decimals(t *testing.T, mem memory.Allocator, dt arrow.DataType, unscaled ...int64) arrow.Array {
	t.Helper()
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for _, u := range unscaled {
		switch b := b.(type) {
		case *array.Decimal32Builder:
			b.Append(decimal.Decimal32(u))
		case *array.Decimal64Builder:
			b.Append(decimal.Decimal64(u))
		case *array.Decimal128Builder:
			b.Append(decimal128.FromI64(u))
		default:
			t.Fatalf("decimals: %s", dt)
		}
	}
	a := b.NewArray()
	t.Cleanup(a.Release)
	return a
}

func hexOf(b []byte) string { return hex.EncodeToString(b) }
