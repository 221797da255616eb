package trycast

import (
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// A kernel casts one flat (non-nested) array. It allocates each output
// buffer once, writes values and validity bits straight into them, and
// returns data at offset 0 with an exact null count.
type kernel func(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData

// flatKernel picks the kernel for a flat type pair, or nil when the pair is
// not supported.
func flatKernel(from, to arrow.DataType) kernel {
	switch from.ID() {
	case arrow.STRING, arrow.BINARY:
		return fromStrings[int32](from, to)
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		return fromStrings[int64](from, to)
	case arrow.INT8:
		return fromInts[int8](to)
	case arrow.INT16:
		return fromInts[int16](to)
	case arrow.INT32:
		return fromInts[int32](to)
	case arrow.INT64:
		return fromInts[int64](to)
	case arrow.FLOAT32:
		return fromFloats[float32](to)
	case arrow.FLOAT64:
		return fromFloats[float64](to)
	case arrow.BOOL:
		return fromBools(to)
	case arrow.DECIMAL128:
		return fromDecimals(from.(*arrow.Decimal128Type), to)
	case arrow.DATE32:
		return formatDates(to)
	case arrow.TIMESTAMP:
		return timestampsTo(from.(*arrow.TimestampType), to)
	}
	return nil
}

// intWidth is the bit width of an integer target, 0 for other types.
func intWidth(dt arrow.DataType) int {
	switch dt.ID() {
	case arrow.INT8:
		return 8
	case arrow.INT16:
		return 16
	case arrow.INT32:
		return 32
	case arrow.INT64:
		return 64
	}
	return 0
}

type offset interface{ int32 | int64 }

// maxOffset is the most data bytes 32-bit offsets address; tests lower it.
var maxOffset int64 = math.MaxInt32

// dataLimit is the most data bytes an output with offsets O may hold.
func dataLimit[O offset]() int {
	var zero O
	if unsafe.Sizeof(zero) == 4 {
		return int(min(maxOffset, math.MaxInt))
	}
	return math.MaxInt
}

// overflow records that row i's value would take an output of type to
// past limit data bytes; the kernel then returns nil.
func (c *caster) overflow(i, limit int, to arrow.DataType) {
	c.err = &OffsetOverflowError{Row: i, Limit: int64(limit), To: to}
}

// outputFits reports whether the values or offsets buffer of an n-row
// output of type to has a size an int holds: on 32-bit platforms a long
// input of narrow values (int8, bool) can ask for more than 2 GiB.
func outputFits(n int, to arrow.DataType) bool {
	var w int64
	switch to.ID() {
	case arrow.STRING, arrow.BINARY:
		w = 4
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		w = 8
	default:
		if fw, ok := to.(arrow.FixedWidthDataType); ok {
			w = int64(fw.BitWidth()+7) / 8
		}
	}
	return (int64(n)+1)*w <= math.MaxInt
}

// dataSize is n values of at most maxLen bytes each, as an allocation no
// larger than limit (computed in int64: n*maxLen may overflow int on
// 32-bit platforms).
func dataSize(n, maxLen, limit int) int {
	return int(min(int64(n)*int64(maxLen), int64(limit)))
}

// fixedOut is the output of a fixed-width kernel under construction: one
// validity bitmap and one values buffer, each allocated once.
type fixedOut[T any] struct {
	bits     *memory.Buffer
	values   *memory.Buffer
	vals     []T
	validity []byte
}

func newFixedOut[T any](mem memory.Allocator, n int) fixedOut[T] {
	var zero T
	o := fixedOut[T]{
		bits:   columnar.NewBuffer(mem, int(bitutil.BytesForBits(int64(n)))),
		values: columnar.NewBuffer(mem, n*int(unsafe.Sizeof(zero))),
	}
	o.vals = columnar.Cast[T](o.values.Bytes())
	o.validity = o.bits.Bytes()
	return o
}

// zeroValues clears the values, for kernels that skip null input rows:
// allocators need not zero, and null slots should not carry garbage.
func (o fixedOut[T]) zeroValues() { clear(o.vals) }

func (o fixedOut[T]) finish(to arrow.DataType, n int) arrow.ArrayData {
	return finishFixed(to, n, o.bits, o.values)
}

// finishFixed wraps a validity bitmap and a values buffer (a bitmap too for
// bool) as array data, dropping the bitmap when every row is valid.
func finishFixed(to arrow.DataType, n int, bits, values *memory.Buffer) arrow.ArrayData {
	nulls := n - bitutil.CountSetBits(bits.Bytes(), 0, n)
	if nulls == 0 {
		bits.Release()
		bits = nil
	}
	return columnar.NewFixedData(to, n, bits, nulls, values)
}

// fillRows runs row(i) for each row valid in the input (valid nil means
// all are) and packs the results into bits, bit 0 = row 0; a row null in
// the input gets a 0 bit without calling row. The input's validity is read
// a byte at a time, and whole bytes are written, so bits need not be
// zeroed. The kernels of the matrix pairs settle rows without a call per
// row (settleRows, settleFixed); fillRows serves the rest.
func fillRows(n int, valid []byte, bit0 int, bits []byte, row func(i int) bool) {
	for base := 0; base < n; base += 8 {
		m := min(8, n-base)
		mask := byte(1<<m - 1)
		if valid != nil {
			mask &= bitsAt(valid, bit0+base)
		}
		var b byte
		for j := 0; j < m; j++ {
			if mask>>j&1 != 0 && row(base+j) {
				b |= 1 << j
			}
		}
		bits[base>>3] = b
	}
}

// fillBoolRows is fillRows for a bool output, whose values are a bitmap too.
func fillBoolRows(n int, valid []byte, bit0 int, bits, vals []byte, row func(i int) (v, ok bool)) {
	for base := 0; base < n; base += 8 {
		m := min(8, n-base)
		mask := byte(1<<m - 1)
		if valid != nil {
			mask &= bitsAt(valid, bit0+base)
		}
		var b, vb byte
		for j := 0; j < m; j++ {
			if mask>>j&1 == 0 {
				continue
			}
			if v, ok := row(base + j); ok {
				b |= 1 << j
				if v {
					vb |= 1 << j
				}
			}
		}
		bits[base>>3] = b
		vals[base>>3] = vb
	}
}

// newBoolOut allocates a bool output: validity and values bitmaps.
func newBoolOut(mem memory.Allocator, n int) (bits, values *memory.Buffer) {
	size := int(bitutil.BytesForBits(int64(n)))
	return columnar.NewBuffer(mem, size), columnar.NewBuffer(mem, size)
}

// timestampMicros converts a count of unit since the epoch to microseconds,
// false when it does not fit.
func timestampMicros(v int64, unit arrow.TimeUnit) (int64, bool) {
	switch unit {
	case arrow.Second:
		return mulFits(v, 1_000_000)
	case arrow.Millisecond:
		return mulFits(v, 1_000)
	case arrow.Nanosecond:
		return floorDiv(v, 1_000), true
	}
	return v, true
}

// microsTo converts microseconds since the epoch to unit, flooring to
// coarser units; false when it does not fit.
func microsTo(v int64, unit arrow.TimeUnit) (int64, bool) {
	switch unit {
	case arrow.Second:
		return floorDiv(v, 1_000_000), true
	case arrow.Millisecond:
		return floorDiv(v, 1_000), true
	case arrow.Nanosecond:
		return mulFits(v, 1_000)
	}
	return v, true
}

func mulFits(v, m int64) (int64, bool) {
	r := v * m
	if r/m != v {
		return 0, false
	}
	return r, true
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) {
		q--
	}
	return q
}
