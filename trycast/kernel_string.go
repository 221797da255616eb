package trycast

import (
	"encoding/binary"
	mathbits "math/bits"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// stringCol is a zero-copy view of a utf8 or binary input: values are read
// by slicing the data buffer between two offsets.
type stringCol[O offset] struct {
	offs  []O    // n+1 offsets, from the array's offset on
	data  []byte // the whole data buffer
	valid []byte // validity bitmap, nil when there are no nulls
	bit0  int    // index of row 0's bit in valid
}

func viewStrings[O offset](in arrow.ArrayData) stringCol[O] {
	n, off := in.Len(), in.Offset()
	s := stringCol[O]{valid: validity(in), bit0: off}
	if n == 0 {
		return s
	}
	b := in.Buffers()
	s.offs = columnar.Offsets[O](in)
	if b[2] != nil {
		s.data = b[2].Bytes()
	}
	return s
}

func (s stringCol[O]) value(i int) []byte { return s.data[s.offs[i]:s.offs[i+1]] }

// fromStrings picks the kernel parsing strings of offset width O into to.
func fromStrings[O offset](from, to arrow.DataType) kernel {
	if w := intWidth(to); w != 0 {
		switch w {
		case 8:
			return parseInts[O, int8]
		case 16:
			return parseInts[O, int16]
		case 32:
			return parseInts[O, int32]
		}
		return parseInts[O, int64]
	}
	switch to.ID() {
	case arrow.FLOAT32:
		return parseFloats[O, float32]
	case arrow.FLOAT64:
		return parseFloats[O, float64]
	case arrow.BOOL:
		return parseBools[O]
	case arrow.DECIMAL128:
		return parseDecimals[O]
	case arrow.DATE32:
		return parseDates[O]
	case arrow.TIMESTAMP:
		return parseTimestamps[O]
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		check := to.ID() == arrow.STRING || to.ID() == arrow.LARGE_STRING
		check = check && (from.ID() == arrow.BINARY || from.ID() == arrow.LARGE_BINARY)
		if to.ID() == arrow.STRING || to.ID() == arrow.BINARY {
			return copyStrings[O, int32](check)
		}
		return copyStrings[O, int64](check)
	}
	return nil
}

// parseInts is the hot loop of the Velox benchmark, written out without a
// per-row closure.
func parseInts[O offset, T int8 | int16 | int32 | int64](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	n := in.Len()
	s := viewStrings[O](in)
	o := newFixedOut[T](c.mem, n)
	if n > 0 {
		parseIntRows(s, o.vals[:n], o.validity, intWidth(to), c.d)
	}
	return o.finish(to, n)
}

// parseIntRows parses row i of s into vals[i] and its validity bit; a
// failing or null row gets 0 (ParseInt's failing value) and a 0 bit.
//
// Go's ABI has no callee-saved registers, so a call in the loop spills
// the loop's live values on every row, which costs about as much as
// parsing a short number, and ParseInt is too big to inline. Rows
// therefore go 64 at a time (one word of validity bits, settleRows, the
// driver of every string kernel) through settleInts, a loop without calls that decides ParseInt's own first case
// ([-]digits, read as words with digitWord's steps) and fails a row whose
// first byte that is not a digit is one no dialect trims or reads in an
// integer (firstNotInt, so that invalid rows cost no more than valid
// ones); only the rows it leaves are passed to ParseInt. There is no
// second parser to keep in step: TestCastStringToIntRows,
// TestCastStringToIntRandom, TestSettleIntEdges and TestSettleIntGroups
// hold every row to ParseInt's answer.
func parseIntRows[O offset, T int8 | int16 | int32 | int64](s stringCol[O], vals []T, bits []byte, width int, d Dialect) {
	limit := maxMagnitude(width, false)
	settleRows(s, vals, bits, func(rows []T, offs []O, data []byte) (ok, slow uint64) {
		return settleInts(rows, offs, data, limit)
	}, func(v []byte) (T, bool) {
		x, ok := ParseInt(v, width, d)
		return T(x), ok
	})
}

// settleInts does the call-free part for up to 64 rows (row j spans
// offs[j]..offs[j+1]): it stores the value of each row it settles (0 for a
// failure) and returns the rows settled valid and those left to ParseInt.
// It is its own function so that its loop has few live values and keeps
// them in registers.
//
// A row of 1 to 16 bytes is read as the one or two words ending at its
// last byte (the bytes before it belong to earlier rows and are replaced
// by '0's), checked and converted with digitWord's steps. A leading '-'
// only shortens the digits by one and flips the value, with no branch:
// signs are random in real data, and a branch on them would be
// mispredicted half the time. So the only branch a valid row takes is the
// same for every row of a column of similar widths. A value past the
// width's range fails here, as it does in ParseInt. A row that is not
// [-]digits fails here when its first byte that is not a digit is one no
// dialect trims or reads in an integer (firstNotInt: ParseInt then fails,
// as only the ends are trimmed and the body holds only a sign, digits and
// a point), which costs less than a number's conversion.
func settleInts[O offset, T int8 | int16 | int32 | int64](rows []T, offs []O, data []byte, limit uint64) (ok, slow uint64) {
	lo := offs[0]
	ends := offs[1:]
	ends = ends[:len(rows)]
	for j := range rows {
		hi := ends[j]
		k := int(hi - lo)
		lo = hi
		bit := uint64(1) << (j & 63)
		var v uint64
		if uint(k-1) < 8 && hi >= 8 {
			w := binary.LittleEndian.Uint64(data[hi-8:]) // checks hi <= len(data)
			neg := isMinus(byte(w >> (64 - 8*uint(k))))
			nd := uint(k) - uint(neg) // 0 only for "-"
			x := w&wordKeep[nd&15] | wordPad[nd&15]
			if bad := notDigits(x); bad == 0 && nd != 0 {
				if x := wordValue(x); x <= limit+neg {
					v = (x ^ -neg) + neg
					ok |= bit
				}
			} else if !firstNotInt(x, bad) {
				slow |= bit
			}
		} else if uint(k-9) < 8 && hi >= 16 {
			lw := binary.LittleEndian.Uint64(data[hi-8:]) // checks hi <= len(data)
			hw := binary.LittleEndian.Uint64(data[hi-16:])
			neg := isMinus(byte(hw >> (64 - 8*uint(k-8))))
			nh := uint(k-8) - uint(neg) // the digits in hw, 0 to 8
			hw = hw&wordKeep[nh&15] | wordPad[nh&15]
			badH, badL := notDigits(hw), notDigits(lw)
			if badH|badL == 0 {
				if x := wordValue(hw)*100_000_000 + wordValue(lw); x <= limit+neg {
					v = (x ^ -neg) + neg
					ok |= bit
				}
			} else {
				if badH == 0 {
					hw, badH = lw, badL
				}
				if !firstNotInt(hw, badH) {
					slow |= bit
				}
			}
		} else if k > 0 {
			slow |= bit
		}
		rows[j] = T(v)
	}
	return ok, slow
}

// isMinus is 1 when c is '-', else 0, without a branch.
func isMinus(c byte) uint64 {
	var m uint64
	if c == '-' {
		m = 1
	}
	return m
}

// firstNotInt reports whether the lowest byte of x that is not a digit
// (bad = notDigits(x)) is one no dialect trims or reads in an integer
// (clsNotInt); false when bad is 0 (x >> 64 is 0 in Go, a NUL byte).
func firstNotInt(x, bad uint64) bool {
	return byteClass[byte(x>>(uint(mathbits.TrailingZeros64(bad))&^7))]&clsNotInt != 0
}

// bitsAt is the 8 bits of bm starting at bit pos (bit pos in bit 0); bits
// past the end of bm read as 0.
func bitsAt(bm []byte, pos int) byte {
	k, r := pos>>3, uint(pos&7)
	b := bm[k] >> r
	if r != 0 && k+1 < len(bm) {
		b |= bm[k+1] << (8 - r)
	}
	return b
}

func parseFloats[O offset, T float32 | float64](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	n := in.Len()
	s := viewStrings[O](in)
	o := newFixedOut[T](c.mem, n)
	width := 64
	if to.ID() == arrow.FLOAT32 {
		width = 32
	}
	d := c.d
	if n > 0 {
		settleRows(s, o.vals[:n], o.validity, settleFloats[O, T], func(v []byte) (T, bool) {
			f, ok := ParseFloat(v, width, d)
			return T(f), ok
		})
	}
	return o.finish(to, n)
}

func parseBools[O offset](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	n := in.Len()
	s := viewStrings[O](in)
	bits, values := newBoolOut(c.mem, n)
	d := c.d
	fillBoolRows(n, s.valid, s.bit0, bits.Bytes(), values.Bytes(), func(i int) (bool, bool) {
		return ParseBool(s.value(i), d)
	})
	return finishFixed(to, n, bits, values)
}

func parseDecimals[O offset](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	n := in.Len()
	s := viewStrings[O](in)
	o := newFixedOut[decimal128.Num](c.mem, n)
	dt := to.(*arrow.Decimal128Type)
	p, sc, d := dt.Precision, dt.Scale, c.d
	settle := settleEmpty[O, decimal128.Num]
	if p <= 18 && sc >= 0 && sc <= p {
		scale, intDigits := int(sc), int(p-sc)
		settle = func(rows []decimal128.Num, offs []O, data []byte) (ok, slow uint64) {
			return settleDecimals(rows, offs, data, scale, intDigits)
		}
	} else if p <= 38 && sc >= 0 && sc <= p {
		scale, intDigits := int(sc), int(p-sc)
		settle = func(rows []decimal128.Num, offs []O, data []byte) (ok, slow uint64) {
			return settleWideDecimals(rows, offs, data, scale, intDigits)
		}
	}
	if n > 0 {
		settleRows(s, o.vals[:n], o.validity, settle, func(v []byte) (decimal128.Num, bool) {
			return ParseDecimal(v, p, sc, d)
		})
	}
	return o.finish(to, n)
}

func parseDates[O offset](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	n := in.Len()
	s := viewStrings[O](in)
	o := newFixedOut[int32](c.mem, n)
	d := c.d
	if n > 0 {
		settleRows(s, o.vals[:n], o.validity, settleDates[O], func(v []byte) (int32, bool) {
			return ParseDate(v, d)
		})
	}
	return o.finish(to, n)
}

func parseTimestamps[O offset](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	n := in.Len()
	s := viewStrings[O](in)
	o := newFixedOut[int64](c.mem, n)
	unit := to.(*arrow.TimestampType).Unit
	d, loc := c.d, c.loc
	if n > 0 {
		settleRows(s, o.vals[:n], o.validity, settleEmpty[O, int64], func(v []byte) (int64, bool) {
			us, ok := ParseTimestamp(v, loc, d)
			if ok {
				us, ok = microsTo(us, unit)
			}
			return us, ok
		})
	}
	return o.finish(to, n)
}

// copyStrings converts between utf8 and binary of either offset width,
// copying the referenced bytes once; with checkUTF8 a value that is not
// valid UTF-8 becomes null. UTF-8 is checked as unsaferow's decoder checks
// it: one pass over all the referenced bytes (columnar.IsASCII) finds
// whether any is non-ASCII, and only then is each value checked. It returns nil, with
// c.err set, when the bytes would pass what offsets O address
// (large_string to string).
func copyStrings[I, O offset](checkUTF8 bool) kernel {
	return func(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
		n := in.Len()
		s := viewStrings[I](in)
		limit := dataLimit[O]()
		size := 0
		if n > 0 {
			size = int(min(int64(s.offs[n])-int64(s.offs[0]), int64(limit)))
			if checkUTF8 && columnar.IsASCII(s.data[s.offs[0]:s.offs[n]]) {
				checkUTF8 = false
			}
		}
		offBuf := columnar.NewBuffer(c.mem, (n+1)*int(unsafe.Sizeof(O(0))))
		dataBuf := columnar.NewBuffer(c.mem, size)
		bitsBuf := columnar.NewBuffer(c.mem, int(bitutil.BytesForBits(int64(n))))
		offs, data, bits := columnar.Cast[O](offBuf.Bytes()), dataBuf.Bytes(), bitsBuf.Bytes()
		pos := 0
		for base := 0; base < n; base += 8 {
			m := min(8, n-base)
			mask := byte(1<<m - 1)
			if s.valid != nil {
				mask &= bitsAt(s.valid, s.bit0+base)
			}
			var b byte
			for j := 0; j < m; j++ {
				i := base + j
				offs[i] = O(pos)
				if mask>>j&1 == 0 {
					continue
				}
				v := s.value(i)
				if checkUTF8 && !utf8.Valid(v) {
					continue
				}
				if len(v) > limit-pos {
					offBuf.Release()
					dataBuf.Release()
					bitsBuf.Release()
					c.overflow(i, limit, to)
					return nil
				}
				pos += copy(data[pos:], v)
				b |= 1 << j
			}
			bits[base>>3] = b
		}
		offs[n] = O(pos)
		dataBuf.ResizeNoShrink(pos)
		nulls := n - bitutil.CountSetBits(bits, 0, n)
		if nulls == 0 {
			bitsBuf.Release()
			bitsBuf = nil
		}
		return columnar.NewBinaryData(to, n, bitsBuf, nulls, offBuf, dataBuf)
	}
}
