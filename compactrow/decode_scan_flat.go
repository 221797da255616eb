package compactrow

import "math"

// Flat rows: the top-level fields are a fixed-width prefix followed by
// strings, binaries and arrays of fixed-width elements only (strings1,
// strings5, arrays). Such a row is scanned in one loop over those fields,
// each recorded by index (entry r of a top-level column is row r), with
// no call per value. A row the loop does not take (a null flag set, a
// null array element, a length that does not fit, trailing bytes) goes to
// the general scan, which names its fault; the loop then resumes after it.

// flatField is one field after the prefix of a flat row.
type flatField struct {
	c     *column
	elems *column // an array's elements; nil for a string or binary
	w     int     // elems' width
	pos   []int32 // c.pos at its full length (the scan's capacity): written by index
}

// setFlat records the fields of flat rows, or none when the rows are not
// flat.
func (s *decodeScratch) setFlat() {
	var flat []flatField
	for _, c := range s.row.children[s.row.prefix:] {
		switch {
		case c.bytesKind:
			flat = append(flat, flatField{c: c})
		case c.elems != nil:
			flat = append(flat, flatField{c: c, elems: c.elems, w: c.elems.width})
		default:
			return
		}
	}
	s.flat = flat
}

// flatRows scans rows from r on while each is flat (see above) and
// returns the first row it does not take, len(rows) at the end.
func (s *decodeScratch) flatRows(rows [][]byte, r int) int {
	ff := s.flat
	for k := range ff {
		ff[k].pos = ff[k].c.pos[:len(rows)] // reset gave the capacity
	}
	start, nb := s.row.prefixEnd, nullBytes(len(s.row.children))
	for ; r < len(rows); r++ {
		row := rows[r]
		if len(row) < start || len(row) > math.MaxInt32 || !noneSet(row[:nb]) {
			break
		}
		if k, end := flatFields(ff, row, r, start); k < len(ff) || end != len(row) {
			unflat(ff[:k], row, r)
			break
		}
	}
	for k := range ff {
		ff[k].c.pos = ff[k].pos[:r]
		ff[k].pos = nil
	}
	return r
}

// flatFields records the fields ff of row r from p, and returns how many
// it took and where the last ended.
func flatFields(ff []flatField, row []byte, r, p int) (int, int) {
	for k := range ff {
		f := &ff[k]
		if len(row)-p < 4 {
			return k, p
		}
		n := load32(row, p)
		if f.elems == nil {
			if uint(n) > uint(len(row)-p-4) {
				return k, p
			}
			f.pos[r] = int32(p)
			f.c.bytes += int64(n)
			p += 4 + n
			continue
		}
		// In 64 bits: n*w overflows an int on 32-bit machines.
		nbytes := (n + 7) >> 3
		if n < 0 || uint64(nbytes)+uint64(n)*uint64(f.w) > uint64(len(row)-p-4) ||
			!noneSet(row[p+4:p+4+nbytes]) {
			return k, p // a null element (or unused flag bits set): the general scan counts
		}
		f.pos[r] = int32(p)
		f.elems.n += int64(n)
		p += 4 + nbytes + n*f.w
	}
	return len(ff), p
}

// unflat takes back what flatFields recorded of the fields ff of row r.
func unflat(ff []flatField, row []byte, r int) {
	for _, f := range ff {
		n := load32(row, int(f.pos[r]))
		if f.elems == nil {
			f.c.bytes -= int64(n)
		} else {
			f.elems.n -= int64(n)
		}
	}
}
