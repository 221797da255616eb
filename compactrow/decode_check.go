package compactrow

import (
	"unicode/utf8"

	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Value checks: strings must be UTF-8 and decimals must fit their declared
// precision, as Arrow requires. The fill pass checks whole columns at once
// and only says whether all is well; when it is not, or when the scan pass
// stops at a bad layout, the functions here find the first bad value.

// checkValue checks the non-null string or decimal value of c at p, whose
// layout the scan has checked.
func (s *scanner) checkValue(c *column, p int) error {
	switch {
	case c.node.Kind == columnar.KindString:
		n := s.int32At(p)
		if !utf8.Valid(s.row[p+4 : p+4+n]) {
			return s.fail(c.path, p, rowbridge.ErrUTF8, "%d-byte value", n)
		}
	case c.width == 8:
		if v := int64(le.Uint64(s.row[p:])); !c.decimal.ShortOK(v) {
			return s.fail(c.path, p, rowbridge.ErrDecimal, "unscaled value %d exceeds precision %d", v, c.decimal.Precision)
		}
	default:
		lo, hi := le.Uint64(s.row[p:]), int64(le.Uint64(s.row[p+8:]))
		if !c.decimal.LongOK(hi, lo) {
			return s.fail(c.path, p, rowbridge.ErrDecimal, "unscaled value %s exceeds precision %d",
				columnar.Int128String(hi, lo), c.decimal.Precision)
		}
	}
	return nil
}

// firstValueError is the first bad value in rows [0, limit), scanned
// without error: the earliest row, then the lowest offset, over all
// checked columns. Each column yields its values in that order, so its
// first bad value is its earliest.
func (s *decodeScratch) firstValueError(rows [][]byte, limit int) error {
	var first *rowbridge.DecodeError
	for _, c := range s.checked {
		c.values(rows, limit, func(r, p int) bool {
			if first != nil && (r > first.Row || r == first.Row && p > first.Offset) {
				return false // nothing later in this column can come first
			}
			sc := scanner{row: rows[r], r: r}
			if err := sc.checkValue(c, p); err != nil {
				first = err.(*rowbridge.DecodeError)
				return false
			}
			return true
		})
	}
	if first == nil {
		return nil
	}
	return first
}

// values calls f(r, p) for each non-null value of c in rows [0, limit),
// in row order and within a row in position order, until f returns false.
func (c *column) values(rows [][]byte, limit int, f func(r, p int) bool) {
	switch c.mode {
	case inPrefix:
		c.parent.entries(limit, func(r, p int) bool {
			if p < 0 || rows[r][p+c.flagByte]&c.flagMask != 0 {
				return true
			}
			return f(r, p+c.rel)
		})
	case inArrays:
		// each array's elements, in order
		array := func(r, a int) bool {
			row := rows[r]
			n := int(le.Uint32(row[a:]))
			flags := row[a+4:]
			q := a + 4 + nullBytes(n)
			for j := range n {
				if flags[j>>3]&(1<<(j&7)) == 0 && !f(r, q+j*c.width) {
					return false
				}
			}
			return true
		}
		if c.parent != nil { // a list's elements: the arrays are the list's values
			c.parent.entries(limit, func(r, p int) bool { return p < 0 || array(r, p) })
			return
		}
		i := 0
		for r := range limit {
			for end := int(c.rowEnd[r]); i < end; i++ {
				if !array(r, int(c.pos[i])) {
					return
				}
			}
		}
	case atPos:
		c.entries(limit, func(r, p int) bool { return p < 0 || f(r, p) })
	}
}

// entries calls f(r, p) for every entry (p < 0 when null) of an atPos
// column or the row in rows [0, limit), until f returns false.
func (c *column) entries(limit int, f func(r, p int) bool) {
	if c.aligned {
		for r := range limit {
			if !f(r, int(c.pos[r])) {
				return
			}
		}
		return
	}
	i := 0
	for r := range limit {
		for end := int(c.rowEnd[r]); i < end; i++ {
			if !f(r, int(c.pos[i])) {
				return
			}
		}
	}
}
