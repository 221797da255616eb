package testgen

import (
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBenchCases(t *testing.T) {
	want := map[string]int{"fixedWidth5": 5, "fixedWidth10": 10, "fixedWidth20": 20, "strings1": 2, "strings5": 6,
		"arrays": 2, "nestedArrays": 2, "maps": 2, "structs": 2, "decimals": 3}
	cases := BenchCases()
	require.Len(t, cases, len(want))
	for _, c := range cases {
		assert.Equal(t, want[c.Name], c.Schema.NumFields(), c.Name)
		assert.Equal(t, "c0", c.Schema.Field(0).Name)
		assert.Equal(t, arrow.INT64, c.Schema.Field(0).Type.ID(), c.Name)
	}
	dec := cases[len(cases)-1].Schema
	assert.Equal(t, "decimal(12, 2)", dec.Field(1).Type.String())
	assert.Equal(t, "decimal(38, 18)", dec.Field(2).Type.String())
}

// TestBenchBatchData checks the data rules of docs/velox-benchmarks.md ("Row serde: the data") on 1000 rows of every case.
func TestBenchBatchData(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range BenchCases() {
		rec := BenchBatch(mem, c.Name, 1000, 1)
		defer rec.Release()
		require.True(t, ValidateBatch(t, rec), c.Name)
		require.Equal(t, int64(1000), rec.NumRows())
		st := stats{lengths: map[string][]int{}}
		walkBatch(rec, func(where string, a arrow.Array, i int) {
			require.False(t, a.IsNull(i), "%s: null %s", c.Name, where)
			st.check(t, c.Name, where, a, i)
		})
		switch c.Name {
		case "arrays", "maps":
			l := st.lengths["top"]
			require.Len(t, l, 1000)
			assertRange(t, c.Name, l, 0, 19)
			assertMean(t, c.Name, l, 8.5, 10.5)
		case "nestedArrays":
			assertRange(t, c.Name, st.lengths["top"], 0, 19)
			assertMean(t, c.Name, st.lengths["top"], 8.5, 10.5)
			inner := st.lengths["nested"]
			assertRange(t, c.Name, inner, 0, 1)
			assertMean(t, c.Name, inner, 0.4, 0.6)
		case "strings5":
			assert.Equal(t, 5000, st.strings)
		case "decimals":
			assert.Equal(t, 2000, st.decimals)
		}
	}
}

type stats struct {
	lengths           map[string][]int
	strings, decimals int
}

func (s *stats) check(t *testing.T, name, where string, a arrow.Array, i int) {
	level := "top"
	if where != atTop {
		level = "nested"
	}
	switch a := a.(type) {
	case *array.String:
		v := a.Value(i)
		require.Len(t, v, 50, name)
		for j := 0; j < len(v); j++ {
			require.True(t, v[j] >= 33 && v[j] <= 126, "%s: byte %d", name, v[j])
		}
		s.strings++
	case *array.Float64:
		require.True(t, a.Value(i) >= 0 && a.Value(i) < 1, "%s: %v", name, a.Value(i))
	case *array.Float32:
		require.True(t, a.Value(i) >= 0 && a.Value(i) < 1, "%s: %v", name, a.Value(i))
	case *array.Decimal128:
		p := a.DataType().(*arrow.Decimal128Type).Precision
		limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
		require.Equal(t, -1, new(big.Int).Abs(a.Value(i).BigInt()).Cmp(limit), name)
		s.decimals++
	case *array.Map:
		st, e := a.ValueOffsets(i)
		s.lengths[level] = append(s.lengths[level], int(e-st))
		keys := map[int64]bool{}
		for k := int(st); k < int(e); k++ {
			key := a.Keys().(*array.Int64).Value(k)
			require.False(t, keys[key], "%s: duplicate key", name)
			keys[key] = true
		}
	case *array.List:
		st, e := a.ValueOffsets(i)
		s.lengths[level] = append(s.lengths[level], int(e-st))
	}
}

func assertRange(t *testing.T, name string, l []int, lo, hi int) {
	t.Helper()
	require.NotEmpty(t, l, name)
	seenLo, seenHi := false, false
	for _, v := range l {
		require.True(t, v >= lo && v <= hi, "%s: length %d outside [%d,%d]", name, v, lo, hi)
		seenLo = seenLo || v == lo
		seenHi = seenHi || v == hi
	}
	assert.True(t, seenLo && seenHi, "%s: lengths never reach both %d and %d", name, lo, hi)
}

func assertMean(t *testing.T, name string, l []int, lo, hi float64) {
	t.Helper()
	sum := 0
	for _, v := range l {
		sum += v
	}
	mean := float64(sum) / float64(len(l))
	assert.True(t, mean >= lo && mean <= hi, "%s: mean length %.2f outside [%.1f,%.1f]", name, mean, lo, hi)
}

func TestBenchBatchDeterministic(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := BenchBatch(mem, "maps", 100, 3)
	b := BenchBatch(mem, "maps", 100, 3)
	c := BenchBatch(mem, "maps", 100, 4)
	defer a.Release()
	defer b.Release()
	defer c.Release()
	assert.True(t, EqualBatches(t, a, b))
	assert.NotEmpty(t, DiffBatches(a, c, 1))
	assert.Panics(t, func() { BenchBatch(mem, "nope", 1, 1) })
}
