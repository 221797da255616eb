package compactrow

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// scanRows runs the scan pass over every row. It checks the layout only;
// the fill pass checks the values. When a row's layout is bad, the values
// before it are checked here, so the error is still the first fault.
func (s *decodeScratch) scanRows(rows [][]byte) error {
	total := int64(0) // rows may share memory: their total may exceed an int
	for _, row := range rows {
		total += int64(len(row))
	}
	// No column can reach Arrow's limits unless the input is large: a value
	// takes at least one null bit, a string's bytes are input bytes, and
	// no Arrow buffer takes more than twice the bytes of its values' rows.
	limits := total > int64(math.MaxInt32-len(rows))/8
	if s.row.prefix == len(s.row.children) {
		return s.scanFixedRows(rows)
	}
	sc := scanner{}
	top, prefix, prefixEnd := s.row.children, s.row.prefix, s.row.prefixEnd
	prefixFlags := nullBytes(prefix)
	flat := s.flat != nil && !limits
	for r := 0; r < len(rows); r++ {
		if flat {
			if r = s.flatRows(rows, r); r == len(rows) {
				break
			}
		}
		row := rows[r]
		sc.row, sc.r = row, r
		if len(row) > math.MaxInt32 {
			return s.firstError(rows, r, s.scanRow(&sc))
		}
		var end int
		var err error
		if len(row) >= prefixEnd && noneSet(row[:prefixFlags]) {
			end, err = sc.fieldsFrom(top, prefix, 0, prefixEnd, len(row)) // fields, without a prefix null
		} else {
			end, err = sc.fields(&s.row, 0, len(row))
		}
		if err == nil && end != len(row) {
			err = sc.trailing(end)
		}
		if err != nil {
			return s.firstError(rows, r, err)
		}
		if limits {
			if err := s.checkLimits(r); err != nil {
				return s.firstError(rows, r, err)
			}
		}
		for _, c := range s.unaligned {
			c.rowEnd = append(c.rowEnd, int32(len(c.pos)))
		}
	}
	return nil
}

// checkLimits fails when, after row r, a column holds more than Arrow's
// 2^31-1 values or 2 GiB of string bytes, or when one of its buffers
// would not fit in an int (a 32-bit machine's address space).
func (s *decodeScratch) checkLimits(r int) error {
	for _, c := range s.tracked {
		n := max(int64(len(c.pos)), c.n)
		if n > math.MaxInt32 || c.bytes > math.MaxInt32 {
			return &rowbridge.DecodeError{Row: r, Field: c.path, Offset: -1,
				Err: fmt.Errorf("%w: column exceeds Arrow's 2 GiB / 2^31 value limit", rowbridge.ErrValue)}
		}
		if need := max(n*c.outWidth, c.bytes); need > math.MaxInt-alignPad {
			return &rowbridge.DecodeError{Row: r, Field: c.path, Offset: -1,
				Err: fmt.Errorf("%w: column of %d values needs a %d-byte buffer, more than this machine can address", rowbridge.ErrValue, n, need)}
		}
	}
	return nil
}

// alignPad is room an allocator may add to a buffer's size to align it.
const alignPad = 1 << 10

// scanFixedRows scans rows whose fields are all fixed-width: each row has
// the same size, and only the null flags need a look.
func (s *decodeScratch) scanFixedRows(rows [][]byte) error {
	size, nb := s.row.prefixEnd, nullBytes(s.row.prefix)
	for r, row := range rows {
		if len(row) != size {
			sc := scanner{row: row, r: r}
			if err := s.scanRow(&sc); err != nil {
				return s.firstError(rows, r, err)
			}
			continue // unreachable: a row of another size is bad
		}
		for _, f := range row[:nb] {
			if f != 0 {
				sc := scanner{row: row, r: r}
				if err := sc.prefixNulls(&s.row, 0); err != nil {
					return s.firstError(rows, r, err)
				}
				break
			}
		}
	}
	return nil
}

// scanRow scans one row.
func (s *decodeScratch) scanRow(sc *scanner) error {
	row := sc.row
	if len(row) > math.MaxInt32 {
		return &rowbridge.DecodeError{Row: sc.r, Offset: -1, Err: fmt.Errorf("%w: row of %d bytes exceeds 2 GiB", rowbridge.ErrLayout, len(row))}
	}
	end, err := sc.fields(&s.row, 0, len(row))
	if err != nil {
		return err
	}
	if end != len(row) {
		return sc.trailing(end)
	}
	return nil
}

func (s *scanner) trailing(end int) error {
	return s.fail("", end, rowbridge.ErrLayout, "%d trailing bytes after the last field", len(s.row)-end)
}

// firstError returns the first fault of the batch given err, the layout
// fault of row r: a bad value in an earlier row, else the first fault of
// row r found by scanning it again checking every value as it goes.
func (s *decodeScratch) firstError(rows [][]byte, r int, err error) error {
	if verr := s.firstValueError(rows, r); verr != nil {
		return verr
	}
	sc := scanner{row: rows[r], r: r, strict: true}
	if serr := s.scanRow(&sc); serr != nil {
		return serr
	}
	return err
}

// scanner walks one row with a cursor, checking every read against the end
// of the enclosing region: the row, or the body of a complex-element array
// as its serializedSize announces it.
type scanner struct {
	row []byte
	r   int
	// strict: check every string and decimal value as it is scanned (to
	// find the first fault of a row whose layout is bad).
	strict bool
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

// fields scans the struct (or the row) c whose null flags are at p. Its
// fixed prefix is only checked for nulls: its positions follow from p.
func (s *scanner) fields(c *column, p, end int) (int, error) {
	if c.prefixEnd > end-p {
		return s.shortFields(c, p, end)
	}
	if s.strict {
		if err := s.checkPrefix(c, p); err != nil {
			return 0, err
		}
	} else if !noneSet(s.row[p : p+nullBytes(c.prefix)]) {
		if err := s.prefixNulls(c, p); err != nil {
			return 0, err
		}
	}
	if c.prefix == len(c.children) {
		return p + c.prefixEnd, nil
	}
	return s.fieldsFrom(c.children, c.prefix, p, p+c.prefixEnd, end)
}

// shortFields finds the precise error of a struct (or row) too short for
// its fixed prefix by walking it field by field.
func (s *scanner) shortFields(c *column, p, end int) (int, error) {
	nb := nullBytes(len(c.children))
	if nb > end-p {
		return 0, s.short(c.path, p, end, nb, "null flags")
	}
	if _, err := s.fieldsFrom(c.children, 0, p, p+nb, end); err != nil {
		return 0, err
	}
	if c.node == nil {
		return 0, s.fail("", len(s.row), rowbridge.ErrTruncated, "row of %d bytes, schema needs at least %d", len(s.row), c.prefixEnd)
	}
	return 0, s.fail(c.path, p, rowbridge.ErrTruncated, "struct needs at least %d bytes, %d left", c.prefixEnd, end-p)
}

// prefixNulls counts the nulls of the fixed prefix of the struct at p.
func (s *scanner) prefixNulls(c *column, p int) error {
	for _, ch := range c.children[:c.prefix] {
		if s.row[p+ch.flagByte]&ch.flagMask == 0 {
			continue
		}
		if ch.notNull {
			return s.fail(ch.path, p+ch.flagByte, rowbridge.ErrLayout, "null in a NOT NULL field")
		}
		ch.nulls++
	}
	return nil
}

// checkPrefix is prefixNulls checking each value as well, field by field
// in the order the row is read.
func (s *scanner) checkPrefix(c *column, p int) error {
	for _, ch := range c.children[:c.prefix] {
		if s.row[p+ch.flagByte]&ch.flagMask != 0 {
			if ch.notNull {
				return s.fail(ch.path, p+ch.flagByte, rowbridge.ErrLayout, "null in a NOT NULL field")
			}
			ch.nulls++
		} else if ch.check {
			if err := s.checkValue(ch, p+ch.rel); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldsFrom scans cols[first:] of a struct whose null flags are at flagsAt,
// the first of those fields starting at p.
func (s *scanner) fieldsFrom(cols []*column, first, flagsAt, p, end int) (int, error) {
	flags := s.row[flagsAt : flagsAt+nullBytes(len(cols))]
	for i := first; i < len(cols); i++ {
		c := cols[i]
		null := flags[i>>3]&(1<<(i&7)) != 0
		if null && c.notNull {
			return 0, s.fail(c.path, flagsAt+(i>>3), rowbridge.ErrLayout, "null in a NOT NULL field")
		}
		if c.width > 0 { // fixed-width fields keep their bytes when null
			if c.width > end-p {
				return 0, s.short(c.path, p, end, c.width, c.node.Kind.String())
			}
			if null {
				c.appendNull()
			} else {
				if s.strict && c.check {
					if err := s.checkValue(c, p); err != nil {
						return 0, err
					}
				}
				c.pos = append(c.pos, int32(p))
			}
			p += c.width
			continue
		}
		if null {
			c.appendNull()
			continue
		}
		if q, ok := s.bytesValue(c, p, end); ok {
			p = q
			continue
		}
		var err error
		switch {
		case c.elems != nil:
			c.pos = append(c.pos, int32(p))
			p, err = s.fixedElements(c.elems, p, end, c.path)
		case c.node.Kind == columnar.KindStruct:
			c.pos = append(c.pos, int32(p))
			p, err = s.fields(c, p, end)
		default:
			p, err = s.value(c, p, end)
		}
		if err != nil {
			return 0, err
		}
	}
	return p, nil
}

// bytesValue is the common case of value for a string or binary: it
// records the value at p and reports true when its length fits and the
// scan is not strict.
func (s *scanner) bytesValue(c *column, p, end int) (int, bool) {
	if !c.bytesKind || s.strict || end-p < 4 {
		return 0, false
	}
	n := int(int32(le.Uint32(s.row[p:])))
	if n < 0 || n > end-p-4 {
		return 0, false
	}
	c.pos = append(c.pos, int32(p))
	c.bytes += int64(n)
	return p + 4 + n, true
}

// value scans one non-null value of c at p and returns the position after it.
func (s *scanner) value(c *column, p, end int) (int, error) {
	switch c.node.Kind {
	case columnar.KindNull:
		c.appendNull() // UNKNOWN is null whatever its flag says; it has no bytes
		return p, nil
	case columnar.KindString, columnar.KindBinary:
		if 4 > end-p {
			return 0, s.short(c.path, p, end, 4, "length")
		}
		n := s.int32At(p)
		if n < 0 || n > end-p-4 {
			return 0, s.fail(c.path, p, rowbridge.ErrOutOfBounds, "length %d, %d bytes left", n, end-p-4)
		}
		if s.strict && c.check {
			if err := s.checkValue(c, p); err != nil {
				return 0, err
			}
		}
		c.pos = append(c.pos, int32(p))
		c.bytes += int64(n)
		return p + 4 + n, nil
	case columnar.KindList:
		c.pos = append(c.pos, int32(p))
		return s.array(c.children[0], p, end, c.path)
	case columnar.KindMap:
		c.pos = append(c.pos, int32(p))
		keys, vals := c.children[0], c.children[1]
		q, err := s.array(keys, p, end, keys.path)
		if err != nil {
			return 0, err
		}
		if 4 > end-q {
			return 0, s.short(vals.path, q, end, 4, "value count")
		}
		if nk, nv := s.int32At(p), s.int32At(q); nk != nv {
			return 0, s.fail(vals.path, q, rowbridge.ErrCount, "%d values for %d keys", nv, nk)
		}
		return s.array(vals, q, end, vals.path)
	case columnar.KindStruct:
		c.pos = append(c.pos, int32(p))
		return s.fields(c, p, end)
	}
	if c.width > end-p {
		return 0, s.short(c.path, p, end, c.width, c.node.Kind.String())
	}
	if s.strict && c.check {
		if err := s.checkValue(c, p); err != nil {
			return 0, err
		}
	}
	c.pos = append(c.pos, int32(p))
	return p + c.width, nil
}

// noneSet reports whether every byte of flags is zero.
func noneSet(flags []byte) bool {
	var or byte
	for _, f := range flags {
		or |= f
	}
	return or == 0
}

// firstSet is the index of the first set bit among the first n bits of
// flags, or -1. Bits past n (the unused bits of the last byte) are ignored.
func firstSet(flags []byte, n int) int {
	for i, f := range flags {
		if f != 0 {
			if j := i<<3 + bits.TrailingZeros8(f); j < n {
				return j
			}
			return -1 // only the last byte has unused bits
		}
	}
	return -1
}

// countSet is the number of set bits among the first n bits of flags.
func countSet(flags []byte, n int) int {
	k := 0
	for i, f := range flags {
		if rem := n - i<<3; rem < 8 {
			f &= byte(1)<<rem - 1
		}
		k += bits.OnesCount8(f)
	}
	return k
}

// array scans an array whose elements are e, starting at its count at p.
// path names the array (its count, flags, size and offset table).
func (s *scanner) array(e *column, p, end int, path string) (int, error) {
	if e.width > 0 {
		return s.fixedElements(e, p, end, path)
	}
	if 4 > end-p {
		return 0, s.short(path, p, end, 4, "element count")
	}
	n := s.int32At(p)
	if n < 0 {
		return 0, s.fail(path, p, rowbridge.ErrCount, "negative element count %d", n)
	}
	nb := nullBytes(n)
	q := p + 4
	// The least each element takes, checked before anything is sized by n
	// (in 64 bits: 4*n overflows an int on 32-bit machines).
	need := int64(nb)
	if e.width == varWidth && e.node.Kind != columnar.KindString && e.node.Kind != columnar.KindBinary && n > 0 {
		need += 4 + 4*int64(n) // serializedSize + offset table
	}
	if need > int64(end-q) {
		return 0, s.fail(path, p, rowbridge.ErrCount, "%d elements need at least %d bytes, %d left", n, need, end-q)
	}
	flags := s.row[q : q+nb]
	q += nb
	if e.notNull { // map keys, or elements declared NOT NULL
		if j := firstSet(flags, n); j >= 0 {
			return 0, s.fail(e.path, p+4+(j>>3), rowbridge.ErrLayout, "element %d is null but declared NOT NULL", j)
		}
	}

	if e.node.Kind == columnar.KindNull {
		// VOID is exempt from NOT NULL (its values are null whatever the
		// declaration says), except as map keys: Arrow cannot hold null keys.
		if e.key && n > 0 {
			return 0, s.fail(e.path, p, rowbridge.ErrLayout, "%d map keys of the null type (Arrow map keys are never null)", n)
		}
		e.n += int64(n)
		e.nulls += int64(n)
		return q, nil
	}

	if n <= end-q {
		// Room for every element at once, unless null elements (one bit
		// each) could make it many times the bytes that remain.
		e.pos = slices.Grow(e.pos, n)
	}
	isNull := func(j int) bool { return flags[j>>3]&(1<<(j&7)) != 0 }
	if e.bytesKind {
		for j := range n {
			if isNull(j) {
				e.appendNull()
				continue
			}
			if next, ok := s.bytesValue(e, q, end); ok {
				q = next
				continue
			}
			var err error
			if q, err = s.value(e, q, end); err != nil {
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
	j := 0
	if e.elems != nil && !s.strict {
		j, cur = s.listElements(e, flags, n, table, cur, limit)
	}
	for ; j < n; j++ {
		if isNull(j) {
			e.appendNull()
			continue
		}
		if off := s.int32At(table + 4*j); off != cur-table {
			return 0, s.fail(e.path, table+4*j, rowbridge.ErrLayout, "element %d offset %d, expected %d", j, off, cur-table)
		}
		var err error
		if e.elems != nil {
			e.pos = append(e.pos, int32(cur))
			cur, err = s.fixedElements(e.elems, cur, limit, e.path)
		} else {
			cur, err = s.value(e, cur, limit)
		}
		if err != nil {
			return 0, err
		}
	}
	if cur != limit {
		return 0, s.fail(path, cur, rowbridge.ErrLayout, "elements end %d bytes before serializedSize says", limit-cur)
	}
	return limit, nil
}

// fixedElements scans an array of fixed-width elements e at p: its count,
// its null flags and the room for its elements. The elements themselves
// are read in the fill pass. This is the common case, kept small; anything
// else (a fault, a strict scan) goes to fixedElementsAll.
func (s *scanner) fixedElements(e *column, p, end int, path string) (int, error) {
	if end-p >= 4 && !s.strict {
		n := int(int32(le.Uint32(s.row[p:])))
		nb := nullBytes(n)
		q := p + 4
		// In 64 bits: n*e.width overflows an int on 32-bit machines.
		if n >= 0 && uint64(nb)+uint64(n)*uint64(e.width) <= uint64(end-q) {
			// No branch on n, which is random in short arrays: up to 63
			// flags are read as one word and masked (an empty array reads
			// any word of the row and masks it all away), and an empty
			// array's position is dropped again.
			var nulls int
			avail := nb + n*e.width
			if avail|(int(int64(n-1)>>63)&8) >= 8 && n < 64 && len(s.row) >= 8 {
				nulls = bits.OnesCount64(le.Uint64(s.row[min(q, len(s.row)-8):]) & (1<<n - 1))
			} else {
				nulls = countSet(s.row[q:q+nb], n)
			}
			if nulls > 0 && e.notNull {
				return s.fixedElementsAll(e, p, end, path) // names the null
			}
			if e.parent == nil {
				pos := append(e.pos, int32(p))
				e.pos = pos[:len(pos)-1+min(n, 1)]
			}
			e.n += int64(n)
			e.nulls += int64(nulls)
			return q + nb + n*e.width, nil
		}
	}
	return s.fixedElementsAll(e, p, end, path)
}

func (s *scanner) fixedElementsAll(e *column, p, end int, path string) (int, error) {
	if 4 > end-p {
		return 0, s.short(path, p, end, 4, "element count")
	}
	n := s.int32At(p)
	if n < 0 {
		return 0, s.fail(path, p, rowbridge.ErrCount, "negative element count %d", n)
	}
	nb := nullBytes(n)
	q := p + 4
	if need := int64(nb) + int64(n)*int64(e.width); need > int64(end-q) {
		return 0, s.fail(path, p, rowbridge.ErrCount, "%d elements need at least %d bytes, %d left", n, need, end-q)
	}
	flags := s.row[q : q+nb]
	if e.notNull { // map keys, or elements declared NOT NULL
		if j := firstSet(flags, n); j >= 0 {
			return 0, s.fail(e.path, q+(j>>3), rowbridge.ErrLayout, "element %d is null but declared NOT NULL", j)
		}
	}
	if s.strict && e.check {
		for j := range n {
			if flags[j>>3]&(1<<(j&7)) == 0 {
				if err := s.checkValue(e, q+nb+j*e.width); err != nil {
					return 0, err
				}
			}
		}
	}
	if n > 0 && e.parent == nil {
		e.pos = append(e.pos, int32(p))
	}
	e.n += int64(n)
	e.nulls += int64(countSet(flags, n))
	return q + nb + n*e.width, nil
}

// listElements is the common case of the loop over the elements of an
// array whose elements are lists of fixed-width values (nestedArrays). It
// takes all n elements or none: at the first thing it does not handle (a
// null list, a null element, a list of more than 63 elements, a fault) it
// returns 0 with nothing recorded, and the general loop scans the array
// again and names the fault.
func (s *scanner) listElements(e *column, flags []byte, n, table, cur, limit int) (int, int) {
	row := s.row[:limit]
	if !noneSet(flags) || len(row) < 8 {
		return 0, cur
	}
	at := len(e.pos)
	e.pos = slices.Grow(e.pos, n)
	dst := e.pos[at : at+n] // written beyond len(e.pos): committed at the end
	end, count := shortLists(row, dst, table, cur, e.elems.width)
	if end < 0 {
		return 0, cur
	}
	e.pos = e.pos[:at+n]
	e.elems.n += int64(count)
	return n, end
}

// shortLists is the loop of listElements, with no call in it and as few
// values as it can, so that they stay in registers: it records the start
// of the len(dst) lists of w-byte elements from c in row (at least 8
// bytes), whose offset table is at table, and returns the end of the last
// and the elements in all, or -1 when one is not a well-formed list of at
// most 63 non-null elements where the table says.
func shortLists(row []byte, dst []int32, table, c, w int) (int, int) {
	// The loads below are unchecked: the offset table is inside row, c
	// stays inside it (each list is checked to fit before c moves past
	// it) and is checked to leave 4 bytes, and the word of flags is read
	// at most 8 bytes before the end of a row of at least 8.
	if table < 0 || len(row)-table < 4*len(dst) || len(row) < 8 || uint(c) > uint(len(row)) {
		return -1, 0
	}
	count := 0     // at most len(row): no overflow
	var set uint64 // the null flags of the elements, ORed
	for j := range dst {
		if len(row)-c < 4 || int(int32(columnar.LoadUnchecked[uint32](row, table+4*j))) != c-table {
			return -1, 0
		}
		m := int(int32(columnar.LoadUnchecked[uint32](row, c)))
		nb := (m + 7) >> 3
		q := c + 4
		if uint(m) > 63 || nb+m*w > len(row)-q {
			return -1, 0
		}
		// The flags as one word, read at q or, near the end of the row,
		// up to 8 bytes before and shifted into place; masked to the m
		// flags, without a branch on m (an empty list's mask is zero).
		at := min(q, len(row)-8)
		set |= columnar.LoadUnchecked[uint64](row, at) >> ((q - at) * 8 & 63) & (1<<m - 1)
		dst[j] = int32(c)
		count += m
		c = q + nb + m*w
	}
	if set != 0 {
		return -1, 0 // a null element, which the general loop counts
	}
	return c, count
}
