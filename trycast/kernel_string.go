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
	s.offs = view[O](b[1].Bytes())[off : off+n+1]
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
// therefore go 8 at a time through settleInts, a loop without calls that
// decides ParseInt's own first two cases with ParseInt's helpers
// (digitWord on the 8 bytes ending at the row's last byte, and
// cannotStartInt); only the rows it leaves are passed to ParseInt. There
// is no second parser to keep in step: TestCastStringToIntRows and
// TestCastStringToIntRandom hold every row to ParseInt's answer.
func parseIntRows[O offset, T int8 | int16 | int32 | int64](s stringCol[O], vals []T, bits []byte, width int, d Dialect) {
	n := len(vals)
	offs, data := s.offs[:n+1], s.data
	limit := maxMagnitude(width, false)
	for base := 0; base < n; base += 8 {
		m := min(8, n-base)
		rows := vals[base : base+m]
		if offs[base] == offs[base+m] { // only empty strings: all fail
			if m == 8 {
				*(*[8]T)(rows) = [8]T{} // a few stores, not a memclr call
			} else {
				clear(rows)
			}
			bits[base>>3] = 0
			continue
		}
		ok, slow := settleInts(rows, offs[base:base+m+1], data, limit)
		if s.valid != nil {
			mask := bitsAt(s.valid, s.bit0+base)
			for null := ^mask & (1<<m - 1); null != 0; null &= null - 1 {
				rows[mathbits.TrailingZeros8(null)] = 0
			}
			ok &= mask
			slow &= mask
		}
		for ; slow != 0; slow &= slow - 1 {
			j := mathbits.TrailingZeros8(slow)
			v, parsed := ParseInt(data[offs[base+j]:offs[base+j+1]], width, d)
			rows[j] = T(v)
			if parsed {
				ok |= 1 << j
			}
		}
		bits[base>>3] = ok
	}
}

// settleInts does the call-free part for up to 8 rows (row j spans
// offs[j]..offs[j+1]): it stores the value of each row it settles (0 for a
// failure) and returns the rows settled valid and those left to ParseInt.
// It is its own function so that its loop has few live values and keeps
// them in registers.
func settleInts[O offset, T int8 | int16 | int32 | int64](rows []T, offs []O, data []byte, limit uint64) (ok, slow byte) {
	lo := offs[0]
	ends := offs[1:]
	ends = ends[:len(rows)]
	for j := range rows {
		hi := ends[j]
		k := int(hi - lo)
		lo = hi
		bit := byte(1) << (j & 7)
		var v uint64
		if uint(k-1) < 8 && hi >= 8 {
			// The 8 bytes end at the row's last byte; those before the row
			// belong to earlier rows, and digitWord ignores them.
			w := binary.LittleEndian.Uint64(data[hi-8:]) // checks hi <= len(data)
			// The first byte is tested before the digits, so that a row
			// like "$" costs less than a number.
			if first := byte(w >> (64 - 8*uint(k))); !cannotStartInt(first) {
				if x, digits := digitWord(w, k); !digits {
					slow |= bit
				} else if x <= limit {
					v = x
					ok |= bit
				}
			}
		} else if k > 0 {
			slow |= bit
		}
		rows[j] = T(v)
	}
	return ok, slow
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
	if s.valid != nil {
		o.zeroValues()
	}
	width := 64
	if to.ID() == arrow.FLOAT32 {
		width = 32
	}
	d, vals := c.d, o.vals
	fillRows(n, s.valid, s.bit0, o.validity, func(i int) bool {
		v, ok := ParseFloat(s.value(i), width, d)
		if !ok {
			v = 0
		}
		vals[i] = T(v)
		return ok
	})
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
	if s.valid != nil {
		o.zeroValues()
	}
	dt := to.(*arrow.Decimal128Type)
	p, sc, d, vals := dt.Precision, dt.Scale, c.d, o.vals
	fillRows(n, s.valid, s.bit0, o.validity, func(i int) bool {
		v, ok := ParseDecimal(s.value(i), p, sc, d)
		if !ok {
			v = decimal128.Num{}
		}
		vals[i] = v
		return ok
	})
	return o.finish(to, n)
}

func parseDates[O offset](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	n := in.Len()
	s := viewStrings[O](in)
	o := newFixedOut[int32](c.mem, n)
	if s.valid != nil {
		o.zeroValues()
	}
	d, vals := c.d, o.vals
	fillRows(n, s.valid, s.bit0, o.validity, func(i int) bool {
		v, ok := ParseDate(s.value(i), d)
		if !ok {
			v = 0
		}
		vals[i] = v
		return ok
	})
	return o.finish(to, n)
}

func parseTimestamps[O offset](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	n := in.Len()
	s := viewStrings[O](in)
	o := newFixedOut[int64](c.mem, n)
	if s.valid != nil {
		o.zeroValues()
	}
	unit := to.(*arrow.TimestampType).Unit
	d, loc, vals := c.d, c.loc, o.vals
	fillRows(n, s.valid, s.bit0, o.validity, func(i int) bool {
		v, ok := ParseTimestamp(s.value(i), loc, d)
		if ok {
			v, ok = microsTo(v, unit)
		}
		if !ok {
			v = 0
		}
		vals[i] = v
		return ok
	})
	return o.finish(to, n)
}

// copyStrings converts between utf8 and binary of either offset width,
// copying the referenced bytes once; with checkUTF8 a value that is not
// valid UTF-8 becomes null. It returns nil, with c.err set, when the bytes
// would pass what offsets O address (large_string to string).
func copyStrings[I, O offset](checkUTF8 bool) kernel {
	return func(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
		n := in.Len()
		s := viewStrings[I](in)
		limit := dataLimit[O]()
		size := 0
		if n > 0 {
			size = int(min(int64(s.offs[n])-int64(s.offs[0]), int64(limit)))
		}
		offBuf := columnar.NewBuffer(c.mem, (n+1)*int(unsafe.Sizeof(O(0))))
		dataBuf := columnar.NewBuffer(c.mem, size)
		bitsBuf := columnar.NewBuffer(c.mem, int(bitutil.BytesForBits(int64(n))))
		offs, data, bits := view[O](offBuf.Bytes()), dataBuf.Bytes(), bitsBuf.Bytes()
		pos := 0
		for base := 0; base < n; base += 8 {
			m := min(8, n-base)
			var b byte
			for j := 0; j < m; j++ {
				i := base + j
				offs[i] = O(pos)
				if s.valid != nil && !bitutil.BitIsSet(s.valid, s.bit0+i) {
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
