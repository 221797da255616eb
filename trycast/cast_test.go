package trycast

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/casttest"
)

// TestCastPublicCases runs every public case through the array cast: alone,
// and repeated in a 40-row array with a null every third row, sliced at
// offset 5 (not a multiple of 8). String cases run for utf8, large_utf8,
// binary, string_view and dictionary<int32, utf8> inputs.
//
// It runs on zeroed memory and on dirty memory (every byte handed out is
// 0xA5): the results must be the same, and null slots must hold zeros
// and zero lengths (casttest.NullSlots) either way.
func TestCastPublicCases(t *testing.T) {
	casttest.EachMemory(t, func(t *testing.T, mem memory.Allocator) {
		for _, c := range loadPublicCases(t) {
			to := casttest.ArrowType(t, c.To)
			for _, from := range sourceTypesOf(t, c.From) {
				checkArrayCase(t, mem, c, from, to, 1, 0, nil)
				checkArrayCase(t, mem, c, from, to, 40, 5, func(i int) bool { return i%3 == 0 })
			}
		}
	})
}

// isFailure reports whether the case's NULL counts as a failure (a value
// that did not convert) rather than a NULL result: only Spark's NaN or
// infinite double to decimal is the latter.
func isFailure(t *testing.T, c publicCase) bool {
	if c.Expected != nil {
		return false
	}
	if c.Dialect != Presto && (c.From == "float64" || c.From == "float32") {
		if _, _, ok := casttest.Decimal(c.To); ok {
			f := inputFloat(t, c)
			return !math.IsNaN(f) && !math.IsInf(f, 0)
		}
	}
	return true
}

func checkArrayCase(t *testing.T, mem memory.Allocator, c publicCase, from, to arrow.DataType, n, off int, isNull func(int) bool) {
	t.Helper()
	full := buildCaseInput(t, mem, c, from, n, isNull)
	defer full.Release()
	in := array.NewSlice(full, int64(off), int64(n))
	defer in.Release()
	name := c.Name() + "/" + from.String()

	out, f, err := CastWithFailures(mem, in, to, Options{Dialect: c.Dialect})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer out.Release()
	if err := array.ValidateFull(out); err != nil {
		t.Fatalf("%s: invalid output: %v", name, err)
	}
	if err := casttest.NullSlots(out); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	if !arrow.TypeEqual(out.DataType(), to) || out.Len() != in.Len() {
		t.Fatalf("%s: got %s[%d], want %s[%d]", name, out.DataType(), out.Len(), to, in.Len())
	}
	nulls, fails, first := 0, 0, -1
	for j := 0; j < in.Len(); j++ {
		if isNull != nil && isNull(j+off) {
			nulls++
			if out.IsValid(j) {
				t.Errorf("%s: row %d: null input gave a value", name, j)
			}
			continue
		}
		if c.Expected == nil {
			nulls++
			if isFailure(t, c) {
				fails++
				if first < 0 {
					first = j
				}
			}
			if out.IsValid(j) {
				t.Errorf("%s: row %d: got %v, want NULL", name, j, resultAt(c, out, j))
			}
			continue
		}
		if out.IsNull(j) {
			t.Errorf("%s: row %d: got NULL, want %v", name, j, c.Expected)
			continue
		}
		if got := resultAt(c, out, j); !sameResult(t, c, got) {
			t.Errorf("%s: row %d: got %v, want %v", name, j, got, c.Expected)
		}
	}
	if out.NullN() != nulls {
		t.Errorf("%s: NullN %d, want %d", name, out.NullN(), nulls)
	}
	if f.Count != fails || f.First != first {
		t.Errorf("%s: failures %d first %d, want %d first %d", name, f.Count, f.First, fails, first)
	}
	for j := 0; j < in.Len(); j++ {
		want := fails > 0 && out.IsNull(j) && in.IsValid(j)
		if f.Failed(j) != want {
			t.Errorf("%s: row %d: Failed %v, want %v", name, j, f.Failed(j), want)
		}
	}

	plain, err := Cast(mem, in, to, Options{Dialect: c.Dialect})
	if err != nil {
		t.Fatalf("%s: Cast: %v", name, err)
	}
	defer plain.Release()
	if !array.ApproxEqual(plain, out, array.WithNaNsEqual(true)) {
		t.Errorf("%s: Cast and CastWithFailures differ: %v vs %v", name, plain, out)
	}
}

// sourceTypesOf is every input type a case runs with.
func sourceTypesOf(t *testing.T, from string) []arrow.DataType {
	if from == "string" {
		return []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.Binary,
			arrow.BinaryTypes.StringView, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}}
	}
	return []arrow.DataType{casttest.ArrowType(t, from)}
}

// buildCaseInput is an n-row array of the case's input, null where isNull.
func buildCaseInput(t *testing.T, mem memory.Allocator, c publicCase, dt arrow.DataType, n int, isNull func(int) bool) arrow.Array {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for i := 0; i < n; i++ {
		if isNull != nil && isNull(i) {
			b.AppendNull()
			continue
		}
		switch b := b.(type) {
		case *array.StringBuilder:
			b.Append(inputString(t, c))
		case *array.LargeStringBuilder:
			b.Append(inputString(t, c))
		case *array.StringViewBuilder:
			b.Append(inputString(t, c))
		case *array.BinaryDictionaryBuilder:
			if err := b.AppendString(inputString(t, c)); err != nil {
				t.Fatal(err)
			}
		case *array.BinaryBuilder:
			b.Append([]byte(inputString(t, c)))
		case *array.BooleanBuilder:
			b.Append(c.Input.(bool))
		case *array.Int32Builder:
			b.Append(int32(inputInt(t, c)))
		case *array.Int64Builder:
			b.Append(inputInt(t, c))
		case *array.Float32Builder:
			b.Append(float32(inputFloat(t, c)))
		case *array.Float64Builder:
			b.Append(inputFloat(t, c))
		case *array.Decimal128Builder:
			dt := dt.(*arrow.Decimal128Type)
			v, ok := ParseDecimal([]byte(inputString(t, c)), dt.Precision, dt.Scale, Presto)
			if !ok {
				t.Fatalf("%s: decimal input does not parse", c.Name())
			}
			b.Append(v)
		default:
			t.Fatalf("%s: no input builder for %s", c.Name(), dt)
		}
	}
	return b.NewArray()
}

// resultAt is row i of out in the form sameResult compares.
func resultAt(c publicCase, out arrow.Array, i int) any {
	switch a := out.(type) {
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Float32:
		return float64(a.Value(i))
	case *array.Float64:
		return a.Value(i)
	case *array.Boolean:
		return a.Value(i)
	case *array.Date32:
		return int64(a.Value(i))
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return string(AppendDecimal(nil, a.Value(i), scale, c.Dialect))
	}
	return nil
}

var _ = decimal128.Num{}
