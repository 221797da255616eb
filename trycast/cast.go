package trycast

import (
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Options configure an array cast.
type Options struct {
	// Dialect selects whose semantics apply to every value.
	Dialect Dialect
	// TimeZone is the session time zone: it places strings without a zone
	// when casting to timestamp, and renders timestamps cast to string.
	// Nil means UTC.
	TimeZone *time.Location
	// NullFailedRows makes a failure anywhere inside a nested value null the
	// whole top-level row, as TRY(CAST(...)) does. Presto's try_cast always
	// behaves so; without this option Spark's try_cast nulls only the
	// element that failed.
	NullFailedRows bool
}

// Failures lists the rows whose value did not convert. A row is counted
// once however many of its nested elements failed; rows null in the input
// never fail.
type Failures struct {
	// Count is the number of failing rows.
	Count int
	// First is the index of the first failing row, or -1.
	First int
	// Rows has bit i set when row i failed (LSB order, bit 0 = row 0); it is
	// nil when Count is 0.
	Rows []byte
}

// Failed reports whether row i failed.
func (f Failures) Failed(i int) bool {
	return f.Rows != nil && bitutil.BitIsSet(f.Rows, i)
}

// Cast converts arr to type to with try_cast semantics: a value that does
// not convert becomes null, as does every null input. The error is only for
// a type pair Cast does not support, or for an output of more data than
// 32-bit offsets address (*OffsetOverflowError), never for a value. The result is a new
// array the caller must Release (arr itself when the types are equal,
// retained).
func Cast(mem memory.Allocator, arr arrow.Array, to arrow.DataType, opts Options) (arrow.Array, error) {
	out, _, err := castTop(mem, arr.Data(), to, opts, false)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	return array.MakeFromData(out), nil
}

// CastWithFailures is Cast that also reports which rows failed, so that a
// caller can raise an error for the first one (SQL CAST) or keep the nulls
// (TRY). The result array is the same as Cast's.
func CastWithFailures(mem memory.Allocator, arr arrow.Array, to arrow.DataType, opts Options) (arrow.Array, Failures, error) {
	out, f, err := castTop(mem, arr.Data(), to, opts, true)
	if err != nil {
		return nil, Failures{First: -1}, err
	}
	defer out.Release()
	return array.MakeFromData(out), f, nil
}

// CanCast reports whether Cast supports converting from to to.
func CanCast(from, to arrow.DataType) bool { return checkPair(from, to) == nil }

// CheckCast is CanCast as the error Cast would return (wrapping
// arrow.ErrNotImplemented), or nil.
func CheckCast(from, to arrow.DataType) error { return checkPair(from, to) }

// RaisesOnFailure reports whether the dialect's plain CAST raises an error
// for a value that does not convert (Presto, Spark ANSI) rather than
// yielding null (Spark legacy).
func RaisesOnFailure(d Dialect) bool { return d != Spark }

func castTop(mem memory.Allocator, in arrow.ArrayData, to arrow.DataType, opts Options, wantFailures bool) (arrow.ArrayData, Failures, error) {
	f := Failures{First: -1}
	if to == nil {
		return nil, f, fmt.Errorf("%w: try_cast needs a target type", arrow.ErrInvalid)
	}
	if opts.Dialect > SparkANSI {
		return nil, f, fmt.Errorf("%w: try_cast: Dialect(%d) is none of Presto, Spark, SparkANSI", arrow.ErrInvalid, uint8(opts.Dialect))
	}
	if err := checkPair(in.DataType(), to); err != nil {
		return nil, f, err
	}
	if _, ok := denseInput(in.DataType()); ok {
		dense, err := densify(mem, in)
		if err != nil {
			return nil, f, err
		}
		defer dense.Release()
		in = dense
	}
	c := caster{mem: mem, d: opts.Dialect, loc: opts.TimeZone, nullRows: opts.NullFailedRows || opts.Dialect == Presto}
	if c.loc == nil {
		c.loc = time.UTC
	}
	out, fails, n := c.cast(in, to, wantFailures)
	if c.err != nil {
		if out != nil {
			out.Release()
		}
		return nil, f, c.err
	}
	if wantFailures && n > 0 {
		f.Count, f.Rows = n, fails
		f.First = firstSet(fails, in.Len())
	}
	return out, f, nil
}

// caster carries one call's settings through the recursion over nested
// types.
type caster struct {
	mem      memory.Allocator
	d        Dialect
	loc      *time.Location
	nullRows bool
	// err is set when a kernel cannot build its output (offset overflow);
	// the kernel and every cast above it then return nil.
	err error
}

// cast converts in (already checked by checkPair) to type to. The result
// has an exact null count, and offset 0 unless it shares in's buffers. When wantFails is set it also
// returns the bitmap of rows that were valid in the input but failed (nil
// when none did) and their count; otherwise only the count is meaningful
// for flat types and may be zero for nested ones. It returns nil when
// c.err is set.
func (c *caster) cast(in arrow.ArrayData, to arrow.DataType, wantFails bool) (arrow.ArrayData, []byte, int) {
	from := in.DataType()
	if arrow.TypeEqual(from, to) {
		return sameType(in, to), nil, 0
	}
	switch to.ID() {
	case arrow.LIST, arrow.LARGE_LIST:
		return c.castList(in, to, wantFails)
	case arrow.STRUCT:
		return c.castStruct(in, to.(*arrow.StructType), wantFails)
	case arrow.MAP:
		return c.castMap(in, to.(*arrow.MapType), wantFails)
	}
	if from.ID() == arrow.TIMESTAMP && to.ID() == arrow.TIMESTAMP {
		// Same unit (checkPair), other zone: the UTC instants do not change.
		return sameType(in, to), nil, 0
	}
	if !outputFits(in.Len(), to) {
		c.err = fmt.Errorf("%w: cast to %s: %d rows need more memory than this platform addresses; cast in smaller pieces",
			arrow.ErrInvalid, to, in.Len())
		return nil, nil, 0
	}
	out := flatKernel(from, to)(c, in, to)
	if out == nil {
		return nil, nil, 0
	}
	nfail := out.NullN() - nullCount(in)
	if !wantFails || nfail == 0 {
		return out, nil, nfail
	}
	fails := failedRows(in, out)
	if quiet := quietNulls(from, to, c.d); quiet != nil {
		if nfail = quiet(in, fails); nfail == 0 {
			fails = nil
		}
	}
	return out, fails, nfail
}

// quietNulls returns, for a pair where some null results are not failures,
// the function that clears those rows from fails and counts the rest. Spark
// casts a NaN or infinite double to a NULL decimal even under ANSI, where
// other bad values raise.
func quietNulls(from, to arrow.DataType, d Dialect) func(in arrow.ArrayData, fails []byte) int {
	if d == Presto || to.ID() != arrow.DECIMAL128 {
		return nil
	}
	switch from.ID() {
	case arrow.FLOAT32:
		return clearNonFinite[float32]
	case arrow.FLOAT64:
		return clearNonFinite[float64]
	}
	return nil
}

func clearNonFinite[F float32 | float64](in arrow.ArrayData, fails []byte) int {
	vals := columnar.FixedValues[F](in)
	count := 0
	for i, v := range vals {
		if !bitutil.BitIsSet(fails, i) {
			continue
		}
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			bitutil.ClearBit(fails, i)
			continue
		}
		count++
	}
	return count
}

// sameType returns in relabelled as to, at offset 0 only when it already
// was; buffers are shared.
func sameType(in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	if in.DataType() == to {
		in.Retain()
		return in
	}
	return array.NewData(to, in.Len(), in.Buffers(), in.Children(), in.NullN(), in.Offset())
}

// failedRows is the bitmap of rows valid in in and null in out (a flat
// cast's failures).
func failedRows(in, out arrow.ArrayData) []byte {
	n := in.Len()
	fails := make([]byte, bitutil.BytesForBits(int64(n)))
	outBits := out.Buffers()[0].Bytes() // present: out has nulls
	if inBits := validity(in); inBits != nil {
		bitutil.BitmapAndNot(inBits, outBits, int64(in.Offset()), int64(out.Offset()), fails, 0, int64(n))
	} else {
		bitutil.InvertBitmap(outBits, out.Offset(), n, fails, 0)
	}
	return fails
}

// nullCount is in's null count, counted when unknown (a slice's is until
// an Array computes it).
func nullCount(in arrow.ArrayData) int {
	if n := in.NullN(); n >= 0 {
		return n
	}
	b := in.Buffers()[0]
	if b == nil {
		return 0
	}
	return in.Len() - bitutil.CountSetBits(b.Bytes(), in.Offset(), in.Len())
}

// validity returns the validity bitmap of in, or nil when it has no nulls.
func validity(in arrow.ArrayData) []byte {
	if nullCount(in) == 0 {
		return nil
	}
	if b := in.Buffers()[0]; b != nil {
		return b.Bytes()
	}
	return nil
}

// firstSet is the index of the first set bit among the first n, or -1.
func firstSet(bits []byte, n int) int {
	for i, b := range bits {
		if b != 0 {
			for j := 0; j < 8; j++ {
				if b&(1<<j) != 0 && i*8+j < n {
					return i*8 + j
				}
			}
		}
	}
	return -1
}

// unsupportedPair is built only when a pair fails: checkPair runs on
// every call, and fmt.Errorf would cost more than a small cast.
type unsupportedPair struct{ from, to arrow.DataType }

func (e *unsupportedPair) Error() string {
	return fmt.Sprintf("%v: try_cast from %s to %s", arrow.ErrNotImplemented, e.from, e.to)
}

func (e *unsupportedPair) Unwrap() error { return arrow.ErrNotImplemented }

// checkPair reports whether from -> to is supported, recursing into nested
// types, so that a cast never fails half-way.
func checkPair(from, to arrow.DataType) error {
	if dt, ok := denseInput(from); ok {
		from = dt
	}
	if arrow.TypeEqual(from, to) {
		return nil
	}
	switch to.ID() {
	case arrow.LIST, arrow.LARGE_LIST:
		if from.ID() != to.ID() {
			return &unsupportedPair{from, to}
		}
		return checkPair(from.(arrow.ListLikeType).Elem(), to.(arrow.ListLikeType).Elem())
	case arrow.STRUCT:
		fs, ok := from.(*arrow.StructType)
		ts := to.(*arrow.StructType)
		if !ok || fs.NumFields() != ts.NumFields() {
			return &unsupportedPair{from, to}
		}
		for i := range ts.Fields() {
			if err := checkPair(fs.Field(i).Type, ts.Field(i).Type); err != nil {
				return err
			}
		}
		return nil
	case arrow.MAP:
		fm, ok := from.(*arrow.MapType)
		if !ok {
			return &unsupportedPair{from, to}
		}
		tm := to.(*arrow.MapType)
		if err := checkPair(fm.KeyType(), tm.KeyType()); err != nil {
			return err
		}
		return checkPair(fm.ItemType(), tm.ItemType())
	}
	if from.ID() == arrow.TIMESTAMP && to.ID() == arrow.TIMESTAMP {
		if from.(*arrow.TimestampType).Unit == to.(*arrow.TimestampType).Unit {
			return nil
		}
		return &unsupportedPair{from, to}
	}
	if flatKernel(from, to) == nil {
		return &unsupportedPair{from, to}
	}
	return nil
}
