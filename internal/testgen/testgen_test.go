package testgen

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forSeeds runs fn over random schemas and batches for seeds 0..n-1.
func forSeeds(t *testing.T, n, rows int, fn func(seed int64, rec arrow.RecordBatch), opts ...BatchOption) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for seed := int64(0); seed < int64(n); seed++ {
		r := rand.New(rand.NewSource(seed))
		schema := RandomSchema(r)
		rec := RandomBatch(mem, r, schema, rows, opts...)
		fn(seed, rec)
		rec.Release()
	}
}

func TestRandomBatchesValidate(t *testing.T) {
	forSeeds(t, 300, 25, func(seed int64, rec arrow.RecordBatch) {
		require.True(t, ValidateBatch(t, rec), "seed %d", seed)
		require.Equal(t, int64(25), rec.NumRows())
		require.True(t, EqualBatches(t, rec, rec), "seed %d", seed)
	})
}

func TestRandomSchemaShape(t *testing.T) {
	seen := map[arrow.Type]bool{}
	decimalKinds := map[bool]bool{}
	maxDepth := 0
	for seed := int64(0); seed < 500; seed++ {
		s := RandomSchema(rand.New(rand.NewSource(seed)))
		require.GreaterOrEqual(t, s.NumFields(), 1)
		require.LessOrEqual(t, s.NumFields(), 8)
		for _, f := range s.Fields() {
			maxDepth = max(maxDepth, checkType(t, f.Type, seen, decimalKinds))
		}
		// Every random schema prints and parses back in DDL.
		text, err := ddl.FormatDDL(s)
		require.NoError(t, err)
		back, err := ddl.Parse(text)
		require.NoError(t, err, text)
		require.True(t, s.Equal(back), "%s\n%s", s, back)
	}
	for _, id := range []arrow.Type{arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DATE32, arrow.TIMESTAMP, arrow.DECIMAL128, arrow.STRING, arrow.BINARY, arrow.NULL, arrow.LIST, arrow.MAP, arrow.STRUCT} {
		assert.True(t, seen[id], "type %s never generated", id)
	}
	assert.True(t, decimalKinds[true] && decimalKinds[false], "want decimals with p<=18 and p>18")
	assert.Equal(t, 3, maxDepth)

	s := RandomSchema(rand.New(rand.NewSource(1)), WithMaxDepth(0), WithMaxFields(3), ExcludeTypes(arrow.NULL, arrow.STRING))
	for _, f := range s.Fields() {
		assert.NotContains(t, []arrow.Type{arrow.NULL, arrow.STRING, arrow.LIST, arrow.MAP, arrow.STRUCT}, f.Type.ID())
	}
}

// checkType records the types under t, checks the child naming and
// nullability rules, and returns the nesting depth.
func checkType(t *testing.T, typ arrow.DataType, seen map[arrow.Type]bool, decimalKinds map[bool]bool) int {
	seen[typ.ID()] = true
	switch typ := typ.(type) {
	case *arrow.Decimal128Type:
		decimalKinds[typ.Precision > 18] = true
		assert.LessOrEqual(t, typ.Scale, typ.Precision)
	case *arrow.ListType:
		assert.Equal(t, "element", typ.ElemField().Name)
		assert.True(t, typ.ElemField().Nullable)
		return 1 + checkType(t, typ.Elem(), seen, decimalKinds)
	case *arrow.MapType:
		assert.Equal(t, "key", typ.KeyField().Name)
		assert.False(t, typ.KeyField().Nullable)
		assert.NotEqual(t, arrow.NULL, typ.KeyType().ID())
		assert.Contains(t, []arrow.Type{arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
			arrow.DATE32, arrow.TIMESTAMP, arrow.DECIMAL128, arrow.STRING, arrow.BINARY}, typ.KeyType().ID())
		return 1 + checkType(t, typ.ItemType(), seen, decimalKinds)
	case *arrow.StructType:
		assert.GreaterOrEqual(t, typ.NumFields(), 1)
		d := 0
		for _, f := range typ.Fields() {
			d = max(d, checkType(t, f.Type, seen, decimalKinds))
		}
		return 1 + d
	}
	return 0
}

func TestNullsAtEveryLevel(t *testing.T) {
	nulls := map[string]int{}
	forSeeds(t, 200, 20, func(_ int64, rec arrow.RecordBatch) {
		walkBatch(rec, func(where string, a arrow.Array, i int) {
			if a.IsNull(i) && a.DataType().ID() != arrow.NULL {
				nulls[where]++
				nulls[kindOf(a)]++
			}
		})
	})
	for _, where := range []string{atTop, atStructField, atListElement, atMapValue, wholeStruct, wholeList, wholeMap, primitiveValue} {
		assert.Greater(t, nulls[where], 0, "no nulls as %s", where)
	}
	assert.Zero(t, nulls[atMapKey], "map keys must never be null")

	none := 0
	forSeeds(t, 50, 20, func(_ int64, rec arrow.RecordBatch) {
		walkBatch(rec, func(_ string, a arrow.Array, i int) {
			if a.IsNull(i) && a.DataType().ID() != arrow.NULL {
				none++
			}
		})
	}, WithNullProbability(0))
	assert.Zero(t, none)
}

func TestDecimalsFitAndReachTheirLimits(t *testing.T) {
	atLimit := 0
	forSeeds(t, 300, 20, func(seed int64, rec arrow.RecordBatch) {
		walkBatch(rec, func(_ string, a arrow.Array, i int) {
			d, ok := a.(*array.Decimal128)
			if !ok || d.IsNull(i) {
				return
			}
			p := d.DataType().(*arrow.Decimal128Type).Precision
			v := bigOf(d.Value(i))
			limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
			abs := new(big.Int).Abs(v)
			require.Equal(t, -1, abs.Cmp(limit), "seed %d: %s does not fit precision %d", seed, v, p)
			if abs.Cmp(new(big.Int).Sub(limit, big.NewInt(1))) == 0 {
				atLimit++
			}
		})
	})
	assert.Greater(t, atLimit, 0, "no decimal reached ±(10^p-1)")
}

// bigOf is decimal128.Num.BigInt on every GOARCH (arrow-go's is wrong on
// 386): hi*2^64 + lo with hi signed.
func bigOf(n decimal128.Num) *big.Int {
	v := new(big.Int).Lsh(big.NewInt(n.HighBits()), 64)
	return v.Add(v, new(big.Int).SetUint64(n.LowBits()))
}

// Decimal128 gives the same 128 bits on 386 as on amd64, where arrow-go's
// FromBigInt does not.
func TestDecimal128Portable(t *testing.T) {
	big10 := func(exp int64, mul int64) *big.Int {
		v := new(big.Int).Exp(big.NewInt(10), big.NewInt(exp), nil)
		return v.Mul(v, big.NewInt(mul))
	}
	for _, c := range []struct {
		v      *big.Int
		hi     int64
		lo     uint64
		digits string
	}{
		{big.NewInt(0), 0, 0, "0"},
		{big.NewInt(-1), -1, math.MaxUint64, "-1"},
		{new(big.Int).Lsh(big.NewInt(1), 64), 1, 0, "18446744073709551616"},
		{big10(37, 6), 0x2d239465031da916, 0x05b947c000000000, "60000000000000000000000000000000000000"},
		{new(big.Int).Sub(big10(38, 1), big.NewInt(1)), 0x4b3b4ca85a86c47a, 0x098a223fffffffff, "99999999999999999999999999999999999999"},
		{new(big.Int).Sub(big.NewInt(1), big10(38, 1)), ^0x4b3b4ca85a86c47a, ^uint64(0x098a223fffffffff) + 1, "-99999999999999999999999999999999999999"},
	} {
		n := Decimal128(c.v)
		assert.Equal(t, c.hi, n.HighBits(), c.digits)
		assert.Equal(t, c.lo, n.LowBits(), c.digits)
		assert.Equal(t, c.digits, bigOf(n).String())
	}
}

func TestMapKeysUnique(t *testing.T) {
	maps := 0
	forSeeds(t, 300, 20, func(seed int64, rec arrow.RecordBatch) {
		walkBatch(rec, func(_ string, a arrow.Array, i int) {
			m, ok := a.(*array.Map)
			if !ok || m.IsNull(i) {
				return
			}
			maps++
			s, e := m.ValueOffsets(i)
			keys := map[string]bool{}
			for k := int(s); k < int(e); k++ {
				require.False(t, m.Keys().IsNull(k))
				key := m.Keys().ValueStr(k)
				if f, ok := m.Keys().(*array.Float64); ok && f.Value(k) == 0 {
					key = "0" // -0 and +0 are the same key
				}
				if f, ok := m.Keys().(*array.Float32); ok && f.Value(k) == 0 {
					key = "0"
				}
				require.False(t, keys[key], "seed %d: duplicate key %s", seed, key)
				keys[key] = true
			}
		})
	})
	assert.Greater(t, maps, 100)
}

func TestExtremesAndText(t *testing.T) {
	found := map[string]bool{}
	nans := 0
	forSeeds(t, 300, 30, func(_ int64, rec arrow.RecordBatch) {
		walkBatch(rec, func(_ string, a arrow.Array, i int) {
			if a.IsNull(i) {
				return
			}
			switch a := a.(type) {
			case *array.Int64:
				found["int64 min"] = found["int64 min"] || a.Value(i) == math.MinInt64
				found["int64 max"] = found["int64 max"] || a.Value(i) == math.MaxInt64
			case *array.Int8:
				found["int8 min"] = found["int8 min"] || a.Value(i) == math.MinInt8
			case *array.Float64:
				v := a.Value(i)
				found["-0"] = found["-0"] || v == 0 && math.Signbit(v)
				found["+Inf"] = found["+Inf"] || math.IsInf(v, 1)
				found["-Inf"] = found["-Inf"] || math.IsInf(v, -1)
				if math.IsNaN(v) {
					nans++
				}
			case *array.Float32:
				if a.Value(i) != a.Value(i) {
					nans++
				}
			case *array.Date32:
				found["date min"] = found["date min"] || a.Value(i) == math.MinInt32
			case *array.Timestamp:
				found["ts max"] = found["ts max"] || a.Value(i) == math.MaxInt64
			case *array.String:
				s := a.Value(i)
				require.True(t, utf8.ValidString(s), "invalid UTF-8 in a utf8 column: %q", s)
				found["empty string"] = found["empty string"] || s == ""
				found["4-byte rune"] = found["4-byte rune"] || containsRuneLen(s, 4)
				found["3-byte rune"] = found["3-byte rune"] || containsRuneLen(s, 3)
			case *array.List:
				s, e := a.ValueOffsets(i)
				found["empty list"] = found["empty list"] || s == e
			case *array.Map:
				s, e := a.ValueOffsets(i)
				found["empty map"] = found["empty map"] || s == e
			}
		})
	})
	for _, k := range []string{"int64 min", "int64 max", "int8 min", "-0", "+Inf", "-Inf", "date min", "ts max",
		"empty string", "4-byte rune", "3-byte rune", "empty list", "empty map"} {
		assert.True(t, found[k], "never generated: %s", k)
	}
	assert.Zero(t, nans, "NaN without WithNaN")

	nans = 0
	forSeeds(t, 100, 30, func(_ int64, rec arrow.RecordBatch) {
		walkBatch(rec, func(where string, a arrow.Array, i int) {
			if f, ok := a.(*array.Float64); ok && !f.IsNull(i) && math.IsNaN(f.Value(i)) {
				require.NotEqual(t, atMapKey, where, "NaN map key")
				nans++
			}
		})
	}, WithNaN())
	assert.Greater(t, nans, 0)
}

func containsRuneLen(s string, n int) bool {
	for _, r := range s {
		if utf8.RuneLen(r) == n {
			return true
		}
	}
	return false
}

func TestRandomBatchIsDeterministic(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	mk := func() arrow.RecordBatch {
		r := rand.New(rand.NewSource(42))
		return RandomBatch(mem, r, RandomSchema(r), 50, WithNaN())
	}
	a, b := mk(), mk()
	defer a.Release()
	defer b.Release()
	assert.True(t, EqualBatches(t, a, b))
}
