package testgen

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// maxDiffs bounds how many differences a failure message lists.
const maxDiffs = 10

// EqualBatches fails t unless got has want's schema, row count and values.
// Values compare exactly: floats by bit pattern (so -0 differs from +0)
// except that every NaN equals every NaN. Where both hold a null, got must
// hold under it what arrow-go's builders leave on zeroed memory (see
// NullSlotProblem), so a decoder cannot leave recycled garbage there; want
// is not checked, so it may come from builders on dirty memory. The message
// names the row, column and path (like `m{2}.value.a[0]`) of up to 10
// differences. It reports whether the batches were equal.
func EqualBatches(t testing.TB, want, got arrow.RecordBatch) bool {
	t.Helper()
	diffs := DiffBatches(want, got, maxDiffs)
	if len(diffs) == 0 {
		return true
	}
	t.Errorf("record batches differ:\n  %s", strings.Join(diffs, "\n  "))
	return false
}

// DiffBatches lists up to limit differences between want and got, in the
// words of EqualBatches; an empty result means equal.
func DiffBatches(want, got arrow.RecordBatch, limit int) []string {
	if !want.Schema().Equal(got.Schema()) {
		return []string{fmt.Sprintf("schema differs\n    want %s\n     got %s", want.Schema(), got.Schema())}
	}
	var diffs []string
	if want.NumRows() != got.NumRows() {
		diffs = append(diffs, fmt.Sprintf("want %d rows, got %d", want.NumRows(), got.NumRows()))
	}
	rows := int(min(want.NumRows(), got.NumRows()))
	for c := 0; c < int(want.NumCols()); c++ {
		name := want.ColumnName(c)
		wc, gc := want.Column(c), got.Column(c)
		if wc.Len() != int(want.NumRows()) || gc.Len() != int(got.NumRows()) {
			diffs = append(diffs, fmt.Sprintf("column %d %q: array lengths %d and %d do not match the row counts", c, name, wc.Len(), gc.Len()))
			continue
		}
		for i := 0; i < rows; i++ {
			if d := diffValue(name, wc, gc, i, i); d != "" {
				diffs = append(diffs, fmt.Sprintf("row %d, column %d %q: %s", i, c, name, d))
				if len(diffs) >= limit {
					return diffs
				}
			}
		}
	}
	return diffs
}

// diffValue describes the first difference between a[i] and b[j] below
// path, or returns "".
func diffValue(path string, a, b arrow.Array, i, j int) string {
	an, bn := a.IsNull(i), b.IsNull(j)
	if an || bn {
		if an && bn {
			if p := NullSlotProblem(b, j); p != "" {
				return path + ": under a null, " + p
			}
			return ""
		}
		return fmt.Sprintf("%s: want %s, got %s", path, show(a, i), show(b, j))
	}
	switch a := a.(type) {
	case *array.Map:
		b := b.(*array.Map)
		as, ae := a.ValueOffsets(i)
		bs, be := b.ValueOffsets(j)
		if ae-as != be-bs {
			return fmt.Sprintf("%s: want %d entries, got %d (want %s, got %s)", path, ae-as, be-bs, show(a, i), show(b, j))
		}
		for k := 0; k < int(ae-as); k++ {
			p := path + "{" + strconv.Itoa(k) + "}"
			if d := diffValue(p+".key", a.Keys(), b.Keys(), int(as)+k, int(bs)+k); d != "" {
				return d
			}
			if d := diffValue(p+".value", a.Items(), b.Items(), int(as)+k, int(bs)+k); d != "" {
				return d
			}
		}
		return ""
	case *array.List:
		b := b.(*array.List)
		as, ae := a.ValueOffsets(i)
		bs, be := b.ValueOffsets(j)
		if ae-as != be-bs {
			return fmt.Sprintf("%s: want %d elements, got %d (want %s, got %s)", path, ae-as, be-bs, show(a, i), show(b, j))
		}
		for k := 0; k < int(ae-as); k++ {
			if d := diffValue(path+"["+strconv.Itoa(k)+"]", a.ListValues(), b.ListValues(), int(as)+k, int(bs)+k); d != "" {
				return d
			}
		}
		return ""
	case *array.Struct:
		b := b.(*array.Struct)
		st := a.DataType().(*arrow.StructType)
		for f := 0; f < a.NumField(); f++ {
			if d := diffValue(path+"."+st.Field(f).Name, a.Field(f), b.Field(f), i, j); d != "" {
				return d
			}
		}
		return ""
	}
	if !sameScalar(a, b, i, j) {
		return fmt.Sprintf("%s: want %s, got %s", path, show(a, i), show(b, j))
	}
	return ""
}

// NullSlotDiffs lists up to limit null slots of rec, at any depth, that do
// not hold what arrow-go's builders leave under a null (see
// NullSlotProblem), in the words of EqualBatches; an empty result means
// none. It checks a batch that has nothing to compare with, such as one
// decoded from hostile bytes.
func NullSlotDiffs(rec arrow.RecordBatch, limit int) []string {
	var diffs []string
	for c := 0; c < int(rec.NumCols()) && len(diffs) < limit; c++ {
		name, col := rec.ColumnName(c), rec.Column(c)
		for i := 0; i < col.Len() && len(diffs) < limit; i++ {
			if d := nullSlotDiff(name, col, i); d != "" {
				diffs = append(diffs, fmt.Sprintf("row %d, column %d %q: %s", i, c, name, d))
			}
		}
	}
	return diffs
}

// nullSlotDiff is diffValue of a[i] with itself: it finds the first null
// slot below path whose bytes are not a builder's.
func nullSlotDiff(path string, a arrow.Array, i int) string {
	return diffValue(path, a, a, i, i)
}

// NullSlotProblem describes how slot i of a, which must be null, differs
// from what arrow-go's builders leave under a null on zeroed memory, or
// returns "". AppendNull leaves zero bytes under a fixed-width value (a
// zero bit for BOOLEAN), an empty value for STRING and BINARY, an empty
// list or map, and appends a null to every field of a struct (NOT NULL
// ones too), so the fields of a null struct must be null slots in turn.
// Readers may not look under a null, but a decoder that leaves recycled
// garbage there hands it to anyone who does (a raw buffer copy, a hash of
// the values buffer, IPC output).
func NullSlotProblem(a arrow.Array, i int) string {
	switch a := a.(type) {
	case *array.Null:
		return ""
	case *array.Boolean:
		if a.Value(i) {
			return "the value bit is set"
		}
		return ""
	case *array.String:
		if n := a.ValueLen(i); n != 0 {
			return fmt.Sprintf("a value of %d bytes %q", n, a.Value(i))
		}
		return ""
	case *array.Binary:
		if n := a.ValueLen(i); n != 0 {
			return fmt.Sprintf("a value of %d bytes %x", n, a.Value(i))
		}
		return ""
	case *array.Map, *array.List:
		s, e := a.(array.ListLike).ValueOffsets(i)
		if e != s {
			return fmt.Sprintf("%d entries", e-s)
		}
		return ""
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		for f := 0; f < a.NumField(); f++ {
			child := a.Field(f)
			if child.DataType().ID() != arrow.NULL && !child.IsNull(i) {
				return fmt.Sprintf("field %s holds %s, not null", st.Field(f).Name, show(child, i))
			}
			if p := NullSlotProblem(child, i); p != "" {
				return "field " + st.Field(f).Name + ": " + p
			}
		}
		return ""
	}
	fw, ok := a.DataType().(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 {
		return "no rule for type " + a.DataType().String()
	}
	w := fw.BitWidth() / 8
	bufs := a.Data().Buffers()
	if len(bufs) < 2 || bufs[1] == nil {
		return "no values buffer"
	}
	start := (a.Data().Offset() + i) * w
	slot := bufs[1].Bytes()[start : start+w]
	for _, c := range slot {
		if c != 0 {
			return fmt.Sprintf("bytes %x, not zero", slot)
		}
	}
	return ""
}

func sameScalar(a, b arrow.Array, i, j int) bool {
	switch a := a.(type) {
	case *array.Boolean:
		return a.Value(i) == b.(*array.Boolean).Value(j)
	case *array.Int8:
		return a.Value(i) == b.(*array.Int8).Value(j)
	case *array.Int16:
		return a.Value(i) == b.(*array.Int16).Value(j)
	case *array.Int32:
		return a.Value(i) == b.(*array.Int32).Value(j)
	case *array.Int64:
		return a.Value(i) == b.(*array.Int64).Value(j)
	case *array.Date32:
		return a.Value(i) == b.(*array.Date32).Value(j)
	case *array.Timestamp:
		return a.Value(i) == b.(*array.Timestamp).Value(j)
	case *array.Float32:
		x, y := a.Value(i), b.(*array.Float32).Value(j)
		return x != x && y != y || math.Float32bits(x) == math.Float32bits(y)
	case *array.Float64:
		x, y := a.Value(i), b.(*array.Float64).Value(j)
		return math.IsNaN(x) && math.IsNaN(y) || math.Float64bits(x) == math.Float64bits(y)
	case *array.Decimal128:
		return a.Value(i) == b.(*array.Decimal128).Value(j)
	case *array.Decimal256:
		return a.Value(i) == b.(*array.Decimal256).Value(j)
	case *array.String:
		return a.Value(i) == b.(*array.String).Value(j)
	case *array.Binary:
		return bytes.Equal(a.Value(i), b.(*array.Binary).Value(j))
	}
	return a.ValueStr(i) == b.ValueStr(j)
}

// show prints one value so that differences a plain print hides (-0, quotes,
// invalid UTF-8) stay visible.
func show(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "null"
	}
	var s string
	switch a := a.(type) {
	case *array.Float32:
		s = strconv.FormatFloat(float64(a.Value(i)), 'g', -1, 32)
	case *array.Float64:
		s = strconv.FormatFloat(a.Value(i), 'g', -1, 64)
	case *array.String:
		s = strconv.Quote(a.Value(i))
	case *array.Binary:
		s = fmt.Sprintf("%x", a.Value(i))
	default:
		if b, ok := columnar.AppendDecimalText(nil, a, i); ok {
			s = string(b)
		} else {
			s = a.ValueStr(i)
		}
	}
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// ValidateBatch fails t unless every column passes array.ValidateFull, has
// the batch's row count, and top-level NOT NULL columns hold no nulls. It
// reports whether the batch was valid.
func ValidateBatch(t testing.TB, rec arrow.RecordBatch) bool {
	t.Helper()
	ok := true
	for c := 0; c < int(rec.NumCols()); c++ {
		col := rec.Column(c)
		f := rec.Schema().Field(c)
		if err := array.ValidateFull(col); err != nil {
			t.Errorf("column %d %q: %v", c, f.Name, err)
			ok = false
		}
		if col.Len() != int(rec.NumRows()) {
			t.Errorf("column %d %q: %d values in a batch of %d rows", c, f.Name, col.Len(), rec.NumRows())
			ok = false
		}
		if !f.Nullable && f.Type.ID() != arrow.NULL && col.NullN() > 0 {
			t.Errorf("column %d %q is NOT NULL but holds %d nulls", c, f.Name, col.NullN())
			ok = false
		}
		if !arrow.TypeEqual(col.DataType(), f.Type) {
			t.Errorf("column %d %q: type %s, schema says %s", c, f.Name, col.DataType(), f.Type)
			ok = false
		}
	}
	return ok
}
