package trycast

import (
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/rowbridge/rowbridge/arrowvec"
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
// per-row closure: an empty string fails without a call, parseInt settles
// the common strings before the full parser, and the all-valid input (the
// common case) skips the validity test.
func parseInts[O offset, T int8 | int16 | int32 | int64](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	n := in.Len()
	s := viewStrings[O](in)
	o := newFixedOut[T](c.mem, n)
	width, d := intWidth(to), c.d
	offs, data, vals, bits := s.offs, s.data, o.vals[:n], o.validity
	valid, bit0 := s.valid, s.bit0
	clear(bits)
	for i := range vals {
		lo, hi := offs[i], offs[i+1]
		if hi <= lo || (valid != nil && !bitutil.BitIsSet(valid, bit0+i)) {
			vals[i] = 0
			continue
		}
		v, ok := parseInt(data[lo:hi], width, d)
		if !ok {
			vals[i] = 0
			continue
		}
		vals[i] = T(v)
		bits[i>>3] |= 1 << (i & 7)
	}
	return o.finish(to, n)
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
// valid UTF-8 becomes null.
func copyStrings[I, O offset](checkUTF8 bool) kernel {
	return func(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
		n := in.Len()
		s := viewStrings[I](in)
		start, end := 0, 0
		if n > 0 {
			start, end = int(s.offs[0]), int(s.offs[n])
		}
		offBuf := arrowvec.NewBuffer(c.mem, (n+1)*int(unsafe.Sizeof(O(0))))
		dataBuf := arrowvec.NewBuffer(c.mem, end-start)
		bitsBuf := arrowvec.NewBuffer(c.mem, int(bitutil.BytesForBits(int64(n))))
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
		return arrowvec.NewBinaryData(to, n, bitsBuf, nulls, offBuf, dataBuf)
	}
}

// parseInt is ParseInt with the two commonest strings settled first: 1 to
// 18 ASCII digits and nothing else, which every dialect reads the same way
// (no sign, nothing to trim, no fraction), and a string whose first byte is
// printable ASCII that no dialect trims and no number starts with (like
// "$" or "abc"), which every dialect rejects. TestParseIntShortcuts holds
// it to ParseInt's answers.
func parseInt(s []byte, width int, d Dialect) (int64, bool) {
	if len(s) == 0 || len(s) > 18 {
		return ParseInt(s, width, d)
	}
	if c := s[0]; c > ' ' && c < 0x7f && (c < '0' || c > '9') && c != '+' && c != '-' && c != '.' {
		return 0, false
	}
	var v int64
	for _, c := range s {
		c -= '0'
		if c > 9 {
			return ParseInt(s, width, d)
		}
		v = v*10 + int64(c)
	}
	if v > 1<<(width-1)-1 {
		return 0, false
	}
	return v, true
}
