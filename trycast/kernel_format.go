package trycast

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Upper bounds on the text of one value; the data buffer is sized n times
// the bound so that it is allocated once. A longer value still works: the
// buffer then grows.
const (
	maxFloatText     = 32 // -1.7976931348623157E308 and friends
	maxBoolText      = 5
	maxDecimalText   = 42 // sign, "0.", 38 digits
	maxDateText      = 16 // -5877641-06-23
	maxTimestampText = 40 // wide years, .ffffff, a zone
)

// stringTarget reports whether to is a text output of the to-string casts.
func stringTarget(to arrow.DataType) bool {
	return to.ID() == arrow.STRING || to.ID() == arrow.LARGE_STRING
}

func formatDates(to arrow.DataType) kernel {
	if !stringTarget(to) {
		return nil
	}
	return func(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
		d := c.d
		return formatFixed(c, in, to, maxDateText, func(dst []byte, v int32) ([]byte, bool) {
			return AppendDate(dst, v, d), true
		})
	}
}

func formatTimestamps(from *arrow.TimestampType, to arrow.DataType) kernel {
	if !stringTarget(to) {
		return nil
	}
	unit := from.Unit
	return func(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
		d, loc := c.d, c.loc
		return formatFixed(c, in, to, maxTimestampText, func(dst []byte, v int64) ([]byte, bool) {
			us, ok := timestampMicros(v, unit)
			if !ok {
				return dst, false
			}
			return AppendTimestamp(dst, us, loc, d), true
		})
	}
}

func formatBools(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	off, d := in.Offset(), c.d
	var src []byte
	if b := in.Buffers()[1]; b != nil {
		src = b.Bytes()
	}
	return formatRows(c, in, to, maxBoolText, func(dst []byte, i int) ([]byte, bool) {
		return AppendBool(dst, bitutil.BitIsSet(src, off+i), d), true
	})
}

// formatFixed renders a fixed-width input as text.
func formatFixed[S any](c *caster, in arrow.ArrayData, to arrow.DataType, maxLen int, app func([]byte, S) ([]byte, bool)) arrow.ArrayData {
	src := columnar.FixedValues[S](in)
	return formatRows(c, in, to, maxLen, func(dst []byte, i int) ([]byte, bool) { return app(dst, src[i]) })
}

func formatRows(c *caster, in arrow.ArrayData, to arrow.DataType, maxLen int, app func([]byte, int) ([]byte, bool)) arrow.ArrayData {
	if to.ID() == arrow.LARGE_STRING {
		return formatRowsInto[int64](c, in, to, maxLen, app)
	}
	return formatRowsInto[int32](c, in, to, maxLen, app)
}

// formatRowsInto appends each valid row's text to one data buffer and
// records the offsets; a row null in the input is an empty null slot. The
// buffer is sized from the text of the first rows (estimateText), grows by
// doubling when the estimate was short, and is copied to its exact size at
// the end when more than an eighth of it is unused. It returns nil, with
// c.err set, when the text would pass what offsets O address.
func formatRowsInto[O offset](c *caster, in arrow.ArrayData, to arrow.DataType, maxLen int, app func([]byte, int) ([]byte, bool)) arrow.ArrayData {
	n, valid, bit0 := in.Len(), validity(in), in.Offset()
	limit := dataLimit[O]()
	var zero O
	offBuf := columnar.NewBuffer(c.mem, (n+1)*int(unsafe.Sizeof(zero)))
	bitsBuf := columnar.NewBuffer(c.mem, int(bitutil.BytesForBits(int64(n))))
	dataBuf := columnar.NewBuffer(c.mem, estimateText(n, valid, bit0, maxLen, limit, app))
	offs, bits := columnar.Cast[O](offBuf.Bytes()), bitsBuf.Bytes()
	data := dataBuf.Bytes()[:0]
	for base := 0; base < n; base += 8 {
		m := min(8, n-base)
		mask := byte(1<<m - 1)
		if valid != nil {
			mask &= bitsAt(valid, bit0+base)
		}
		var b byte
		for j := 0; j < m; j++ {
			i := base + j
			offs[i] = O(len(data))
			if mask>>j&1 == 0 {
				continue
			}
			res, ok := app(data, i)
			if !ok {
				continue
			}
			if cap(res) != cap(data) {
				if len(res) > limit {
					offBuf.Release()
					bitsBuf.Release()
					dataBuf.Release()
					c.overflow(i, limit, to)
					return nil
				}
				// The estimate was too small: move to a larger Arrow buffer.
				dataBuf = regrow(c.mem, dataBuf, res, limit)
				res = dataBuf.Bytes()[:len(res)]
			}
			data = res
			b |= 1 << j
		}
		bits[base>>3] = b
	}
	offs[n] = O(len(data))
	if unused := dataBuf.Len() - len(data); unused > 4096 && unused > len(data)/8 {
		exact := columnar.NewBuffer(c.mem, len(data))
		copy(exact.Bytes(), data)
		dataBuf.Release()
		dataBuf = exact
	} else {
		dataBuf.ResizeNoShrink(len(data))
	}
	nulls := n - bitutil.CountSetBits(bits, 0, n)
	if nulls == 0 {
		bitsBuf.Release()
		bitsBuf = nil
	}
	return columnar.NewBinaryData(to, n, bitsBuf, nulls, offBuf, dataBuf)
}

// textSample is how many valid rows estimateText formats.
const textSample = 256

// estimateText is the data size to allocate for the text of n rows: the
// mean length of the first valid rows (up to textSample among the first
// 4*textSample, formatted into a scratch buffer) times n plus a sixteenth,
// never more than n*maxLen or limit bytes.
func estimateText(n int, valid []byte, bit0, maxLen, limit int, app func([]byte, int) ([]byte, bool)) int {
	bound := dataSize(n, maxLen, limit)
	var scratch [128]byte // more than any maxLen
	total, rows := 0, 0
	for i := 0; i < min(n, 4*textSample) && rows < textSample; i++ {
		if valid != nil && !bitutil.BitIsSet(valid, bit0+i) {
			continue
		}
		res, ok := app(scratch[:0], i)
		if !ok {
			continue
		}
		total += len(res)
		rows++
	}
	if rows == 0 {
		return min(bound, 64)
	}
	est := int64(total)*int64(n)/int64(rows) + int64(total)*int64(n)/int64(rows)/16 + 64
	return int(min(est, int64(bound)))
}

// regrow replaces old by a buffer holding res, twice res's capacity but no
// more than limit bytes (len(res) <= limit).
func regrow(mem memory.Allocator, old *memory.Buffer, res []byte, limit int) *memory.Buffer {
	nb := columnar.NewBuffer(mem, int(min(2*int64(cap(res)), int64(limit))))
	copy(nb.Bytes(), res)
	old.Release()
	return nb
}
