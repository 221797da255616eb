package compactrow

import (
	"math"
	"slices"

	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Flat rows: the top-level fields are a fixed-width prefix followed by
// strings, binaries, structs of fixed-width fields, arrays of fixed-width
// elements or of arrays of them, and maps of fixed-width keys and values
// only (strings1, strings5, arrays, nestedArrays, maps, structs). Such a row is scanned in one loop over those fields,
// each recorded by index (entry r of a top-level column is row r), with
// no call per value. A row the loop does not take (a null flag set, a
// null element, a length that does not fit, trailing bytes) goes to
// the general scan, which names its fault; the loop then resumes after it.

// flatField is one field after the prefix of a flat row.
type flatField struct {
	kind  flatKind
	c     *column
	elems *column // an array's elements, a map's keys, or the inner lists of lists
	w     int     // the width of elems, or of the inner lists' elements
	vals  *column // a map's values
	vw    int     // vals' width
	pos   []int32 // c.pos at its full length (the scan's capacity): written by index
	n     int64   // bytes of strings, elements of arrays or maps, so far: added to the columns at the end
}

type flatKind uint8

const (
	flatBytes  flatKind = iota // a string or binary
	flatArray                  // an array of fixed-width elements
	flatMap                    // a map of fixed-width keys and values
	flatLists                  // an array of arrays of fixed-width elements
	flatStruct                 // a struct of fixed-width fields
)

// setFlat records the fields of flat rows, or none when the rows are not
// flat.
func (s *decodeScratch) setFlat() {
	var flat []flatField
	for _, c := range s.row.children[s.row.prefix:] {
		switch {
		case c.bytesKind:
			flat = append(flat, flatField{kind: flatBytes, c: c})
		case c.elems != nil:
			flat = append(flat, flatField{kind: flatArray, c: c, elems: c.elems, w: c.elems.width})
		case c.node.Kind == columnar.KindMap && c.children[0].width > 0 && c.children[1].width > 0:
			k, v := c.children[0], c.children[1]
			flat = append(flat, flatField{kind: flatMap, c: c, elems: k, w: k.width, vals: v, vw: v.width})
		case c.node.Kind == columnar.KindStruct && c.prefix == len(c.children):
			flat = append(flat, flatField{kind: flatStruct, c: c, w: c.prefixEnd})
		case c.node.Kind == columnar.KindList && c.children[0].elems != nil:
			in := c.children[0]
			flat = append(flat, flatField{kind: flatLists, c: c, elems: in, w: in.elems.width})
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
		for _, c := range s.unaligned { // map keys and values, inner lists
			c.rowEnd = append(c.rowEnd, int32(len(c.pos)))
		}
	}
	for k := range ff {
		f := &ff[k]
		f.c.pos = f.pos[:r]
		switch f.kind {
		case flatBytes:
			f.c.bytes += f.n
		case flatArray:
			f.elems.n += f.n
		case flatMap:
			f.elems.n += f.n
			f.vals.n += f.n
		}
		f.pos, f.n = nil, 0
	}
	return r
}

// flatFields records the fields ff of row r from p, and returns how many
// it took and where the last ended.
func flatFields(ff []flatField, row []byte, r, p int) (int, int) {
	for k := range ff {
		f := &ff[k]
		if f.kind == flatStruct {
			// Its null flags, then its fields: only nulls need a look
			// (the general scan counts them).
			if len(row)-p < f.w || !noneSet(row[p:p+nullBytes(len(f.c.children))]) {
				return k, p
			}
			f.pos[r] = int32(p)
			p += f.w
			continue
		}
		if len(row)-p < 4 {
			return k, p
		}
		n := load32(row, p)
		if f.kind == flatBytes {
			if uint(n) > uint(len(row)-p-4) {
				return k, p
			}
			f.pos[r] = int32(p)
			f.n += int64(n)
			p += 4 + n
			continue
		}
		if f.kind == flatLists {
			end := scanFlatLists(f, row, p, n)
			if end < 0 {
				return k, p
			}
			f.pos[r] = int32(p)
			p = end
			continue
		}
		// In 64 bits: n*w overflows an int on 32-bit machines.
		nbytes := int((uint(n) + 7) >> 3) // in uint: n+7 wraps an int32-sized int for n near 2^31 (a negative n fails below)
		if n < 0 || uint64(nbytes)+uint64(n)*uint64(f.w) > uint64(len(row)-p-4) ||
			!noneSet(row[p+4:p+4+nbytes]) {
			return k, p // a null element (or unused flag bits set): the general scan counts
		}
		q := p + 4 + nbytes + n*f.w
		if f.kind == flatMap {
			// As many values after the keys, none null.
			if len(row)-q < 4 || load32(row, q) != n ||
				uint64(nbytes)+uint64(n)*uint64(f.vw) > uint64(len(row)-q-4) || !noneSet(row[q+4:q+4+nbytes]) {
				return k, p
			}
			if n > 0 {
				f.elems.pos = append(f.elems.pos, int32(p))
				f.vals.pos = append(f.vals.pos, int32(q))
			}
			q += 4 + nbytes + n*f.vw
		}
		f.pos[r] = int32(p)
		f.n += int64(n)
		p = q
	}
	return len(ff), p
}

// scanFlatLists records the array of n arrays of fixed-width elements at p in
// row, none of them or their elements null, and returns where it ends, or
// -1 when it is anything else.
func scanFlatLists(f *flatField, row []byte, p, n int) int {
	nb := nullBytes(n)
	q := p + 4
	if n <= 0 {
		if n < 0 {
			return -1
		}
		return q // no serializedSize or offset table for an empty array
	}
	if len(row)-q < nb+4 || !noneSet(row[q:q+nb]) {
		return -1
	}
	size := load32(row, q+nb)
	table := q + nb + 4
	// In 64 bits: 4*n overflows an int on 32-bit machines.
	if size < 0 || size > len(row)-table || int64(size) < 4*int64(n) || table+size < 8 {
		return -1
	}
	in := f.elems
	at := len(in.pos)
	in.pos = slices.Grow(in.pos, n)
	dst := in.pos[at : at+n] // written beyond len(in.pos): committed at the end
	end, count := shortLists(row[:table+size], dst, table, table+4*n, f.w)
	if end != table+size {
		return -1
	}
	in.pos = in.pos[:at+n]
	in.elems.n += int64(count)
	return end
}

// unflat takes back what flatFields recorded of the fields ff of row r.
func unflat(ff []flatField, row []byte, r int) {
	for k := range ff {
		f := &ff[k]
		if f.kind == flatStruct {
			continue // nothing recorded but its position
		}
		n := load32(row, int(f.pos[r]))
		switch f.kind {
		case flatBytes, flatArray:
			f.n -= int64(n)
		case flatMap:
			f.n -= int64(n)
			if n > 0 {
				f.elems.pos = f.elems.pos[:len(f.elems.pos)-1]
				f.vals.pos = f.vals.pos[:len(f.vals.pos)-1]
			}
		case flatLists:
			in := f.elems
			for _, a := range in.pos[len(in.pos)-n:] {
				in.elems.n -= int64(load32(row, int(a)))
			}
			in.pos = in.pos[:len(in.pos)-n]
		}
	}
}
