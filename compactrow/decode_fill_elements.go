package compactrow

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Fixed-width array elements (inArrays columns) are contiguous after each
// array's null flags, so most kinds take one copy per array. A list's
// elements are filled in the same pass as the list's offsets; map keys and
// values from the array positions the scan recorded. Null slots are zero.

// elementFill writes the elements of one column, array by array.
type elementFill struct {
	c     *column
	kind  columnar.Kind
	width int // CompactRow bytes per element
	aw    int // Arrow bytes per element
	buf   *memory.Buffer
	out   []byte
	vbuf  *memory.Buffer
	valid []byte
	ok    bool // every decimal fits its precision
	plain bool // elements are their Arrow bytes and none is null
}

// plainArray is array for plain elements, small enough to inline: the
// loops over arrays call it directly and array for the other kinds.
func plainArray(out, row []byte, a, at, width int) int {
	m := int(le.Uint32(row[a:]))
	if m > 0 { // a memmove call even for nothing costs more than the branch
		q := a + 4 + nullBytes(m)
		copy(out[width*at:], row[q:q+m*width])
	}
	return m
}

func (f *filler) newElementFill(c *column) elementFill {
	ef := elementFill{c: c, kind: c.node.Kind, width: c.width, aw: c.node.Kind.ValueWidth(), ok: true}
	ef.plain = ef.kind != columnar.KindBool && ef.kind != columnar.KindDecimal && c.nulls == 0
	n := c.length() // c.n*ef.aw fits an int: the scan checks it
	if ef.kind == columnar.KindBool {
		ef.buf = columnar.NewZeroedBuffer(f.mem, nullBytes(n))
	} else {
		ef.buf = columnar.NewBuffer(f.mem, n*ef.aw)
	}
	ef.out = ef.buf.Bytes()
	ef.vbuf, ef.valid = f.newValidity(n, int(c.nulls))
	return ef
}

// finish is the column's data; a decimal out of range marks the fill bad.
func (ef *elementFill) finish(f *filler) arrow.ArrayData {
	if !ef.ok {
		f.bad = true
	}
	return columnar.NewFixedData(ef.c.node.Type, ef.c.length(), ef.vbuf, int(ef.c.nulls), ef.buf)
}

// array writes the elements of the array at a in row as elements at, at+1,
// ..., and returns how many there are.
func (ef *elementFill) array(row []byte, a, at int) int {
	m := int(le.Uint32(row[a:]))
	nb := nullBytes(m)
	src := row[a+4+nb : a+4+nb+m*ef.width]
	out := ef.out
	switch {
	case ef.kind == columnar.KindBool:
		for j, b := range src {
			if b != 0 {
				e := at + j
				out[e>>3] |= 1 << (e & 7)
			}
		}
	case ef.kind == columnar.KindDecimal && ef.width == 8:
		dst := columnar.Cast[uint64](out[16*at : 16*(at+m)])
		for j := range m {
			v := int64(columnar.Load[uint64](src, 8*j))
			dst[2*j], dst[2*j+1] = uint64(v), uint64(v>>63)
		}
	default:
		copy(out[ef.aw*at:], src)
	}
	if ef.valid != nil {
		ef.nulls(row[a+4:a+4+nb], m, at)
	}
	if ef.kind == columnar.KindDecimal {
		// After the null slots are zeroed: a null element's bytes are not
		// a value, and must not fail the check (the precise pass skips
		// them too).
		dst := columnar.Cast[uint64](out[16*at : 16*(at+m)])
		for j := range m {
			if !ef.c.decimal.LongOK(int64(dst[2*j+1]), dst[2*j]) {
				ef.ok = false
			}
		}
	}
	return m
}

// nulls clears the validity bit and the value of each null element.
func (ef *elementFill) nulls(flags []byte, m, at int) {
	for fi, fl := range flags {
		for ; fl != 0; fl &= fl - 1 { // each set bit: a null element
			j := fi<<3 + bits.TrailingZeros8(fl)
			if j >= m {
				break // unused high bits are ignored
			}
			e := at + j
			ef.valid[e>>3] &^= 1 << (e & 7)
			if ef.kind == columnar.KindBool {
				ef.out[e>>3] &^= 1 << (e & 7)
			} else {
				clear(ef.out[ef.aw*e : ef.aw*(e+1)])
			}
		}
	}
}

// wordLists fills the offsets (offs, from entry 1) and the elements (o64,
// out its bytes, not empty) of an unaligned list column of null-free
// 8-byte elements: nestedArrays' inner arrays. Lists of at most one
// element, as arrays of short arrays have, go through shortWordLists; it
// stops at each longer one (or any in a row too short for its loads),
// which is copied here.
func wordLists(rows [][]byte, rowEnd, pos, offs []int32, o64 []uint64, out []byte) {
	r, i, at := 0, 0, 0
	for {
		if r, i, at = shortWordLists(rows, rowEnd, pos, offs, o64, r, i, at); r == len(rows) {
			return
		}
		if p := int(pos[i]); p >= 0 {
			at += plainArray(out, rows[r], p, at, 8)
		}
		offs[i] = int32(at)
		i++
	}
}

// shortWordLists is the loop of wordLists from entry i (of row r, at
// elements so far) to the first list of more than one element, where it
// returns, or to the end. It writes lists of at most one element without
// a branch on their length (an empty one rewrites a slot with the value
// it holds) and has no call in it, so that its values stay in registers.
func shortWordLists(rows [][]byte, rowEnd, pos, offs []int32, o64 []uint64, r, i, at int) (int, int, int) {
	last := len(o64) - 1
	for ; r < len(rows); r++ {
		row, end := rows[r], int(rowEnd[r])
		if len(row) < 8 && i < end {
			return r, i, at
		}
		for ; i < end; i++ {
			if p := int(pos[i]); p >= 0 {
				m := load32(row, p)
				if uint(m) > 1 {
					return r, i, at
				}
				j := min(at, last)                     // at itself when there is an element
				v := load64(row, min(p+5, len(row)-8)) // the element, after one flag byte
				keep := uint64(m) - 1                  // all ones when empty
				o64[j] = v&^keep | o64[j]&keep
				at += m
			}
			offs[i] = int32(at)
		}
	}
	return r, i, at
}

// fillElements builds map keys or values from the recorded array positions.
func (f *filler) fillElements(c *column) arrow.ArrayData {
	ef := f.newElementFill(c)
	out, width, plain := ef.out, ef.width, ef.plain
	i, at := 0, 0
	for r, row := range f.rows {
		for end := int(c.rowEnd[r]); i < end; i++ {
			if plain {
				at += plainArray(out, row, int(c.pos[i]), at, width)
			} else {
				at += ef.array(row, int(c.pos[i]), at)
			}
		}
	}
	return ef.finish(f)
}

// fillFixedList builds the offsets and the elements of a list of
// fixed-width elements in one pass over the list's positions.
func (f *filler) fillFixedList(c *column) (*memory.Buffer, arrow.ArrayData) {
	obuf, offs := columnar.NewOffsets(f.mem, len(c.pos))
	ef := f.newElementFill(c.elems)
	out, width, plain := ef.out, ef.width, ef.plain
	at := 0
	if c.aligned {
		offs := offs[1 : len(c.pos)+1]
		for i, p := range c.pos {
			switch {
			case p < 0:
			case plain:
				row := f.rows[i]
				m := load32(row, int(p))
				q := int(p) + 4 + nullBytes(m)
				move(out[width*at:], row[q:q+m*width])
				at += m
			default:
				at += ef.array(f.rows[i], int(p), at)
			}
			offs[i] = int32(at)
		}
	} else if o64 := columnar.Cast[uint64](out); plain && width == 8 && len(o64) > 0 {
		wordLists(f.rows, c.rowEnd, c.pos, offs[1:len(c.pos)+1], o64, out)
	} else {
		i := 0
		for r, row := range f.rows {
			for end := int(c.rowEnd[r]); i < end; i++ {
				switch p := c.pos[i]; {
				case p < 0:
				case plain:
					at += plainArray(out, row, int(p), at, width)
				default:
					at += ef.array(row, int(p), at)
				}
				offs[i+1] = int32(at)
			}
		}
	}
	return obuf, ef.finish(f)
}

// fillFixedMap builds the offsets, keys and values of an aligned map column
// of fixed-width keys and values in one pass over the maps' positions:
// each map's values follow its keys, so no array position is looked up.
func (f *filler) fillFixedMap(c *column) (*memory.Buffer, arrow.ArrayData, arrow.ArrayData) {
	obuf, offs := columnar.NewOffsets(f.mem, len(c.pos))
	kf, vf := f.newElementFill(c.children[0]), f.newElementFill(c.children[1])
	offs = offs[1 : len(c.pos)+1]
	rows := f.rows[:len(c.pos)]
	at := 0
	for i, p := range c.pos {
		if p >= 0 {
			row := rows[i]
			m := load32(row, int(p))
			q := int(p) + 4 + nullBytes(m) // the keys
			if kf.plain {
				move(kf.out[kf.width*at:], row[q:q+m*kf.width])
			} else {
				kf.array(row, int(p), at)
			}
			q += m * kf.width // the values' count
			if vf.plain {
				v := q + 4 + nullBytes(m)
				move(vf.out[vf.width*at:], row[v:v+m*vf.width])
			} else {
				vf.array(row, q, at)
			}
			at += m
		}
		offs[i] = int32(at)
	}
	return obuf, kf.finish(f), vf.finish(f)
}

// fillNestedWords builds an aligned list of lists (none null) of null-free
// 8-byte elements, nestedArrays' shape, in one pass over the outer lists'
// positions: the inner lists of each follow its offset table one after
// the other, so their positions are not looked up. It returns the outer
// offsets and the inner lists. Inner lists of at most one element go
// through shortWords; from the first longer one, the rest of the outer
// list is copied here.
func (f *filler) fillNestedWords(c *column) (*memory.Buffer, arrow.ArrayData) {
	in := c.children[0]
	obuf, outer := columnar.NewOffsets(f.mem, len(c.pos))
	ibuf, inner := columnar.NewOffsets(f.mem, len(in.pos))
	ef := f.newElementFill(in.elems)
	out := ef.out
	o64 := columnar.Cast[uint64](out)
	outer, inner = outer[1:len(c.pos)+1], inner[1:]
	rows := f.rows[:len(c.pos)]
	k, at := 0, 0 // inner lists and elements so far
	for i, p := range c.pos {
		if p >= 0 {
			row := rows[i]
			n := load32(row, int(p))
			cur := int(p) + 4 + nullBytes(n) + 4 + 4*n // past the count, flags, serializedSize and offset table
			dst := inner[k : k+n]
			j := 0
			if len(o64) > 0 && len(row) >= 8 {
				j, cur, at = shortWords(row, cur, dst, o64, at)
			}
			for ; j < n; j++ {
				m := load32(row, cur)
				q := cur + 4 + nullBytes(m)
				move(out[8*at:], row[q:q+8*m])
				at += m
				dst[j] = int32(at)
				cur = q + 8*m
			}
			k += n
		}
		outer[i] = int32(k)
	}
	elems := ef.finish(f)
	return obuf, columnar.NewListData(in.node.Type, len(in.pos), nil, 0, ibuf, elems)
}

// shortWords writes the inner lists of one outer list from cur in row (at
// least 8 bytes) while they hold at most one 8-byte element, each without
// a branch on its length (an empty one rewrites a slot of o64, not empty,
// with the value it holds), and the end of each into dst. It returns how
// many it wrote, where the next starts, and the elements so far. There is
// no call in its loop, so that its values stay in registers.
func shortWords(row []byte, cur int, dst []int32, o64 []uint64, at int) (int, int, int) {
	last := len(o64) - 1
	// The loads below are unchecked but for cur leaving 4 bytes (and cur
	// never negative): the element is read at most 8 bytes before the end
	// of a row of at least 8.
	if len(row) < 8 || cur < 0 {
		return 0, cur, at
	}
	for j := range dst {
		if len(row)-cur < 4 {
			return j, cur, at
		}
		m := int(int32(columnar.LoadUnchecked[uint32](row, cur)))
		if uint(m) > 1 {
			return j, cur, at
		}
		e := min(at, last)                                               // at itself when there is an element
		v := columnar.LoadUnchecked[uint64](row, min(cur+5, len(row)-8)) // the element, after one flag byte
		keep := uint64(m) - 1                                            // all ones when empty
		o64[e] = v&^keep | o64[e]&keep
		at += m
		dst[j] = int32(at)
		cur += 4 + 9*m // count, one flag byte and the element when there is one
	}
	return len(dst), cur, at
}
