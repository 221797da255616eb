package compactrow

import (
	"math"

	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Flat rows: the top-level fields are a fixed-width prefix followed by
// strings, binaries, arrays of fixed-width elements and maps of
// fixed-width keys and values only (strings1, strings5, arrays, maps). Such a row is scanned in one loop over those fields,
// each recorded by index (entry r of a top-level column is row r), with
// no call per value. A row the loop does not take (a null flag set, a
// null element, a length that does not fit, trailing bytes) goes to
// the general scan, which names its fault; the loop then resumes after it.

// flatField is one field after the prefix of a flat row.
type flatField struct {
	c     *column
	elems *column // an array's elements, or a map's keys; nil for a string or binary
	w     int     // elems' width
	vals  *column // a map's values; nil for the others
	vw    int     // vals' width
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
		case c.node.Kind == columnar.KindMap && c.children[0].width > 0 && c.children[1].width > 0:
			k, v := c.children[0], c.children[1]
			flat = append(flat, flatField{c: c, elems: k, w: k.width, vals: v, vw: v.width})
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
		for _, c := range s.unaligned { // map keys and values
			c.rowEnd = append(c.rowEnd, int32(len(c.pos)))
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
		q := p + 4 + nbytes + n*f.w
		if f.vals != nil {
			// A map: as many values after the keys, none null.
			if len(row)-q < 4 || load32(row, q) != n ||
				uint64(nbytes)+uint64(n)*uint64(f.vw) > uint64(len(row)-q-4) || !noneSet(row[q+4:q+4+nbytes]) {
				return k, p
			}
			if n > 0 {
				f.elems.pos = append(f.elems.pos, int32(p))
				f.vals.pos = append(f.vals.pos, int32(q))
			}
			f.vals.n += int64(n)
			q += 4 + nbytes + n*f.vw
		}
		f.pos[r] = int32(p)
		f.elems.n += int64(n)
		p = q
	}
	return len(ff), p
}

// unflat takes back what flatFields recorded of the fields ff of row r.
func unflat(ff []flatField, row []byte, r int) {
	for _, f := range ff {
		n := load32(row, int(f.pos[r]))
		switch {
		case f.elems == nil:
			f.c.bytes -= int64(n)
		case f.vals == nil:
			f.elems.n -= int64(n)
		default:
			f.elems.n -= int64(n)
			f.vals.n -= int64(n)
			if n > 0 {
				f.elems.pos = f.elems.pos[:len(f.elems.pos)-1]
				f.vals.pos = f.vals.pos[:len(f.vals.pos)-1]
			}
		}
	}
}
