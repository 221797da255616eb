package sparkhash

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Seed is the seed of Spark SQL's hash() and of HashPartitioning.
const Seed int32 = 42

// MaxLongDigits is the largest decimal precision Spark hashes as a long
// (Decimal.MAX_LONG_DIGITS); wider decimals are hashed by their bytes.
const MaxLongDigits = 18

// Check reports whether Spark's hash accepts values of type dt; the error
// is a *TypeError naming the offending (nested) field under path.
func Check(path string, dt arrow.DataType) error {
	if where, bad, reason := typeProblem(dt); reason != "" {
		return &TypeError{Path: path + where, Type: bad, Reason: reason}
	}
	return nil
}

// typeProblem finds the first field of dt that Spark cannot hash: its path
// below dt, its type and why. It allocates only when it finds one.
func typeProblem(dt arrow.DataType) (where string, bad arrow.DataType, reason string) {
	switch t := dt.(type) {
	case *arrow.NullType, *arrow.BooleanType, *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type,
		*arrow.Int64Type, *arrow.Float32Type, *arrow.Float64Type, *arrow.Date32Type,
		*arrow.Decimal32Type, *arrow.Decimal64Type, *arrow.Decimal128Type,
		*arrow.StringType, *arrow.LargeStringType, *arrow.BinaryType, *arrow.LargeBinaryType:
		return "", nil, ""
	case *arrow.TimestampType:
		if t.Unit != arrow.Microsecond {
			return "", dt, "Spark timestamps are microseconds; cast to timestamp[us] first"
		}
		return "", nil, ""
	case *arrow.MapType: // before ListType, which it embeds
		return "", dt, "Spark refuses maps in hash expressions (and so as partitioning keys)"
	case *arrow.ListType:
		return elemProblem(t.Elem())
	case *arrow.LargeListType:
		return elemProblem(t.Elem())
	case *arrow.StructType:
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if w, b, r := typeProblem(f.Type); r != "" {
				return "." + f.Name + w, b, r
			}
		}
		return "", nil, ""
	case *arrow.Uint8Type, *arrow.Uint16Type, *arrow.Uint32Type, *arrow.Uint64Type:
		return "", dt, "Spark has no unsigned integer types; cast to a signed type Spark would hold"
	case *arrow.DictionaryType:
		return "", dt, "Spark has no dictionary encoding; decode it first (compute.Take of the dictionary by the indices)"
	}
	return "", dt, "Spark has no such type"
}

func elemProblem(elem arrow.DataType) (string, arrow.DataType, string) {
	if w, b, r := typeProblem(elem); r != "" {
		return ".element" + w, b, r
	}
	return "", nil, ""
}

// HashInto writes the hash of every row of cols into dst, folding the
// columns left to right from seed, as Spark's hash(c0, c1, ...) with
// Spark's own seed 42 (Seed). Every column must have len(dst) rows. With no
// columns every entry is seed. dst is written only when every column's type
// is accepted.
func HashInto(dst []int32, cols []arrow.Array, seed int32) error {
	for i, c := range cols {
		if err := check(dst, c, i); err != nil {
			return err
		}
	}
	for i := range dst {
		dst[i] = seed
	}
	for _, c := range cols {
		foldArray(dst, c)
	}
	return nil
}

// Fold folds one more column into the running hashes in dst (one per row),
// as Spark does for each further child of hash(...). It is how a column
// split into chunks is folded: one call per chunk on the matching window of
// dst.
func Fold(dst []int32, col arrow.Array) error {
	if err := check(dst, col, -1); err != nil {
		return err
	}
	foldArray(dst, col)
	return nil
}

// check validates column i (-1: the column given to Fold) against dst.
func check(dst []int32, c arrow.Array, i int) error {
	where, bad, reason := typeProblem(c.DataType())
	if c.Len() == len(dst) && reason == "" {
		if missingBuffer(c.Data()) {
			return fmt.Errorf("sparkhash: column %d lacks a buffer its type requires (check it with array.ValidateFull): %w", i, arrow.ErrInvalid)
		}
		return nil
	}
	path := "column"
	if i >= 0 {
		path = fmt.Sprintf("col %d", i)
	}
	if reason != "" {
		return &TypeError{Path: path + where, Type: bad, Reason: reason}
	}
	return fmt.Errorf("sparkhash: %s has %d rows, want %d: %w: %w", path, c.Len(), len(dst), errLength, arrow.ErrInvalid)
}

// Hash returns Spark's hash of every row of cols (see HashInto) as a new
// Int32 array without nulls, allocated from mem (memory.DefaultAllocator if
// nil). The caller releases it.
func Hash(mem memory.Allocator, cols []arrow.Array, seed int32) (*array.Int32, error) {
	if len(cols) == 0 {
		return nil, fmt.Errorf("sparkhash: hash needs at least one column (it cannot tell the row count): %w", arrow.ErrInvalid)
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	n := cols[0].Len()
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * arrow.Int32SizeBytes)
	dst := arrow.Int32Traits.CastFromBytes(buf.Bytes())[:n]
	if err := HashInto(dst, cols, seed); err != nil {
		buf.Release()
		return nil, err
	}
	data := array.NewData(arrow.PrimitiveTypes.Int32, n, []*memory.Buffer{nil, buf}, nil, 0, 0)
	buf.Release()
	defer data.Release()
	return array.NewInt32Data(data), nil
}

// missingBuffer reports whether a non-empty array (or a child) lacks a
// buffer that hashing reads: the validity bitmap when it has nulls, the
// value or offset buffer. The type has been checked.
func missingBuffer(d arrow.ArrayData) bool {
	if d.Len() == 0 {
		return false
	}
	bufs := d.Buffers()
	switch d.DataType().ID() {
	case arrow.NULL:
		return false
	case arrow.STRUCT:
		if d.NullN() > 0 && (len(bufs) == 0 || bufs[0] == nil) {
			return true
		}
		for _, c := range d.Children() {
			if c.Len() < d.Offset()+d.Len() || missingBuffer(c) {
				return true
			}
		}
		return false
	}
	if len(bufs) < 2 || bufs[1] == nil || (d.NullN() > 0 && bufs[0] == nil) {
		return true
	}
	switch d.DataType().ID() {
	case arrow.LIST, arrow.LARGE_LIST:
		return len(d.Children()) != 1 || missingBuffer(d.Children()[0])
	}
	return false
}
