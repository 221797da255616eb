package compactrow

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"unicode/utf8"

	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/arrowvec"
)

// scanner walks one row with a cursor, checking every read against the end
// of the enclosing region: the row, or the body of a complex-element array
// as its serializedSize announces it.
type scanner struct {
	row []byte
	r   int
}

func (s *scanner) fail(path string, off int, cause error, format string, args ...any) error {
	return &rowbridge.DecodeError{Row: s.r, Field: path, Offset: off,
		Err: fmt.Errorf("%w: "+format, append([]any{cause}, args...)...)}
}

// short reports a read of need bytes at p that does not fit before end:
// truncation when end is the row's end, otherwise a value overrunning its
// enclosing array body.
func (s *scanner) short(path string, p, end, need int, what string) error {
	if end == len(s.row) {
		return s.fail(path, p, rowbridge.ErrTruncated, "%s needs %d bytes, row has %d left", what, need, end-p)
	}
	return s.fail(path, p, rowbridge.ErrOutOfBounds, "%s needs %d bytes, enclosing array body has %d left", what, need, end-p)
}

func (s *scanner) int32At(p int) int { return int(int32(binary.LittleEndian.Uint32(s.row[p:]))) }

// fields scans a struct (or the top-level row) whose fields are cols,
// starting at its null flags at p. path names the struct ("" at top level).
func (s *scanner) fields(cols []*column, p, end int, path string) (int, error) {
	nb := nullBytes(len(cols))
	if nb > end-p {
		return 0, s.short(path, p, end, nb, "null flags")
	}
	return s.fieldsFrom(cols, 0, p, p+nb, end)
}

// fieldsFrom scans cols[first:] of a struct whose null flags are at flagsAt,
// the first of those fields starting at p.
func (s *scanner) fieldsFrom(cols []*column, first, flagsAt, p, end int) (int, error) {
	flags := s.row[flagsAt : flagsAt+nullBytes(len(cols))]
	for i := first; i < len(cols); i++ {
		c := cols[i]
		null := flags[i>>3]&(1<<(i&7)) != 0
		if null && c.notNull {
			return 0, s.fail(c.node.Path, flagsAt+(i>>3), rowbridge.ErrLayout, "null in a NOT NULL field")
		}
		if c.width > 0 { // fixed-width fields keep their bytes when null
			if c.width > end-p {
				return 0, s.short(c.node.Path, p, end, c.width, c.node.Kind.String())
			}
			if null {
				c.appendNull()
			} else {
				c.pos = append(c.pos, int32(p))
			}
			p += c.width
			continue
		}
		if !null {
			var err error
			if p, err = s.value(c, p, end); err != nil {
				return 0, err
			}
			continue
		}
		c.appendNull()
	}
	return p, nil
}

// value scans one non-null value of c at p and returns the position after it.
func (s *scanner) value(c *column, p, end int) (int, error) {
	switch c.node.Kind {
	case arrowvec.KindNull:
		c.appendNull() // UNKNOWN is null whatever its flag says; it has no bytes
		return p, nil
	case arrowvec.KindString, arrowvec.KindBinary:
		if 4 > end-p {
			return 0, s.short(c.node.Path, p, end, 4, "length")
		}
		n := s.int32At(p)
		if n < 0 || n > end-p-4 {
			return 0, s.fail(c.node.Path, p, rowbridge.ErrOutOfBounds, "length %d, %d bytes left", n, end-p-4)
		}
		if c.node.Kind == arrowvec.KindString && !utf8.Valid(s.row[p+4:p+4+n]) {
			return 0, s.fail(c.node.Path, p, rowbridge.ErrUTF8, "%d-byte value", n)
		}
		c.pos = append(c.pos, int32(p))
		c.bytes += n
		return p + 4 + n, nil
	case arrowvec.KindList:
		c.pos = append(c.pos, int32(p))
		return s.array(c.children[0], p, end, c.node.Path)
	case arrowvec.KindMap:
		c.pos = append(c.pos, int32(p))
		keys, vals := c.children[0], c.children[1]
		q, err := s.array(keys, p, end, keys.node.Path)
		if err != nil {
			return 0, err
		}
		if 4 > end-q {
			return 0, s.short(vals.node.Path, q, end, 4, "value count")
		}
		if nk, nv := s.int32At(p), s.int32At(q); nk != nv {
			return 0, s.fail(vals.node.Path, q, rowbridge.ErrCount, "%d values for %d keys", nv, nk)
		}
		return s.array(vals, q, end, vals.node.Path)
	case arrowvec.KindStruct:
		c.pos = append(c.pos, int32(p))
		return s.fields(c.children, p, end, c.node.Path)
	}
	if c.width > end-p {
		return 0, s.short(c.node.Path, p, end, c.width, c.node.Kind.String())
	}
	c.pos = append(c.pos, int32(p))
	return p + c.width, nil
}

// array scans an array whose elements are e, starting at its count at p.
// path names the array (its count, flags, size and offset table).
func (s *scanner) array(e *column, p, end int, path string) (int, error) {
	if 4 > end-p {
		return 0, s.short(path, p, end, 4, "element count")
	}
	n := s.int32At(p)
	if n < 0 {
		return 0, s.fail(path, p, rowbridge.ErrCount, "negative element count %d", n)
	}
	nb := nullBytes(n)
	q := p + 4
	// The least each element takes, checked before anything is sized by n.
	need := nb
	switch {
	case e.width > 0:
		need += n * e.width
	case e.width == varWidth && e.node.Kind != arrowvec.KindString && e.node.Kind != arrowvec.KindBinary && n > 0:
		need += 4 + 4*n // serializedSize + offset table
	}
	if need > end-q {
		return 0, s.fail(path, p, rowbridge.ErrCount, "%d elements need at least %d bytes, %d left", n, need, end-q)
	}
	flags := s.row[q : q+nb]
	q += nb
	if e.notNull { // map keys, or elements declared NOT NULL
		for j := range n {
			if flags[j>>3]&(1<<(j&7)) != 0 {
				return 0, s.fail(e.node.Path, p+4+(j>>3), rowbridge.ErrLayout, "element %d is null but declared NOT NULL", j)
			}
		}
	}
	e.pos = slices.Grow(e.pos, n)
	isNull := func(j int) bool { return flags[j>>3]&(1<<(j&7)) != 0 }

	switch {
	case e.node.Kind == arrowvec.KindNull:
		if !e.node.Nullable && n > 0 { // e.g. MAP<VOID, ...>: Arrow cannot hold null keys
			return 0, s.fail(e.node.Path, p, rowbridge.ErrLayout, "%d elements of type null declared NOT NULL", n)
		}
		for range n {
			e.appendNull()
		}
		return q, nil
	case e.width > 0:
		base := len(e.pos)
		e.pos = e.pos[:base+n]
		dst := e.pos[base:]
		for j := range dst {
			dst[j] = int32(q + j*e.width)
		}
		for i, f := range flags {
			for ; f != 0; f &= f - 1 { // each set bit: a null element
				if j := i<<3 + bits.TrailingZeros8(f); j < n { // unused high bits are ignored
					dst[j] = -1
					e.nulls++
				}
			}
		}
		return q + n*e.width, nil
	case e.node.Kind == arrowvec.KindString || e.node.Kind == arrowvec.KindBinary:
		var err error
		for j := range n {
			if isNull(j) {
				e.appendNull()
			} else if q, err = s.value(e, q, end); err != nil {
				return 0, err
			}
		}
		return q, nil
	}
	if n == 0 {
		return q, nil // no serializedSize or offset table for an empty array
	}
	size := s.int32At(q)
	table := q + 4
	if size < 0 || size > end-table {
		return 0, s.fail(path, q, rowbridge.ErrOutOfBounds, "serializedSize %d, %d bytes left", size, end-table)
	}
	if size < 4*n {
		return 0, s.fail(path, q, rowbridge.ErrLayout, "serializedSize %d smaller than the %d-byte offset table", size, 4*n)
	}
	limit := table + size
	cur := table + 4*n
	for j := range n {
		if isNull(j) {
			e.appendNull()
			continue
		}
		if off := s.int32At(table + 4*j); off != cur-table {
			return 0, s.fail(e.node.Path, table+4*j, rowbridge.ErrLayout, "element %d offset %d, expected %d", j, off, cur-table)
		}
		var err error
		if cur, err = s.value(e, cur, limit); err != nil {
			return 0, err
		}
	}
	if cur != limit {
		return 0, s.fail(path, cur, rowbridge.ErrLayout, "elements end %d bytes before serializedSize says", limit-cur)
	}
	return limit, nil
}
