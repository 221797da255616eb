package unsaferow

import (
	"encoding/binary"
	"math"

	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Decimal columns of the top-level rows have loops of their own: the
// general field writer dispatches on the kind and re-reads the column's
// description for every value, which costs more than the value itself.
// Each loop writes exactly what writeField writes and stops at the first
// value beyond the column's precision, with writeField's error.

// decimalColumn reports whether top-level column v takes
// writeDecimalColumn: a decimal whose precision is checked (the limit is
// on), so that a short value that fits is exactly its low word.
func decimalColumn(v *encView) bool {
	return v.f.kind == columnar.KindDecimal && (v.f.longDec || v.f.limit.ShortMax() < math.MaxInt64)
}

// writeDecimalColumn writes decimal column k of every row: a short
// decimal's unscaled value into its slot, a long decimal's BigInteger
// bytes at the row's cursor (Spark reserving 16 bytes, null or not).
func (w *encWalker) writeDecimalColumn(v *encView, k int, out []byte, starts, cursor []int, slot int) {
	starts = starts[:len(cursor)+1]
	if !v.f.longDec {
		m := v.f.limit.ShortMax()
		for i, p := range starts[:len(cursor)] {
			if !v.IsValid(i) {
				out[p+(k>>3)] |= 1 << (k & 7)
				continue
			}
			lo, hi := v.decimalAt(i)
			if x := int64(lo); hi != x>>63 || x > m || x < -m {
				w.row = i
				w.decimalFits(v, lo, hi)
				return
			}
			binary.LittleEndian.PutUint64(out[p+slot:], lo)
		}
		return
	}
	for i, c := range cursor {
		p := starts[i]
		if !v.IsValid(i) {
			out[p+(k>>3)] |= 1 << (k & 7)
			if w.spark {
				putOffsetSize(out[p+slot:], c, 0) // Spark keeps the reserved area's offset
				cursor[i] = c + 16
			}
			continue
		}
		lo, hi := v.decimalAt(i)
		if !v.f.limit.LongOK(hi, lo) {
			w.row = i
			w.decimalFits(v, lo, hi)
			return
		}
		size := putBigInteger(out[p+c:starts[i+1]], lo, hi)
		putOffsetSize(out[p+slot:], c, size)
		if w.spark {
			cursor[i] = c + 16
		} else {
			cursor[i] = c + padTo8(size)
		}
	}
}

// addLongDecimalSizes adds to sizes[i] the padded size of long decimal i
// of v (Velox, which reserves nothing for a null).
func addLongDecimalSizes(v *encView, sizes []int) {
	for i := range sizes {
		if v.IsValid(i) {
			lo, hi := v.decimalAt(i)
			sizes[i] += padTo8(bigIntegerLen(lo, hi))
		}
	}
}
