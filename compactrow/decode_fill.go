package compactrow

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// The fill pass: every column's buffers are allocated once at their exact
// size and written from the positions the scan pass recorded. It cannot
// fail on layout (the scan has checked every byte it reads); it notes when
// a value fails its check, and Decode then drops the batch.

var le = binary.LittleEndian

type filler struct {
	mem  memory.Allocator
	rows [][]byte
	bad  bool // a string or decimal value failed its check
}

func (f *filler) fill(c *column) arrow.ArrayData {
	n := c.length()
	switch c.node.Kind {
	case columnar.KindNull:
		return columnar.NewNullData(n)
	case columnar.KindStruct:
		valid, nulls := f.posValidity(c)
		children := make([]arrow.ArrayData, len(c.children))
		for i, ch := range c.children {
			children[i] = f.fill(ch)
		}
		return columnar.NewStructData(c.node.Type, n, valid, nulls, children)
	case columnar.KindList:
		valid, nulls := f.posValidity(c)
		if c.elems != nil {
			offs, elems := f.fillFixedList(c)
			return columnar.NewListData(c.node.Type, n, valid, nulls, offs, elems)
		}
		if in := c.children[0]; c.aligned && in.elems != nil && in.nulls == 0 &&
			in.elems.width == 8 && in.elems.nulls == 0 && in.elems.node.Kind.ValueWidth() == 8 {
			offs, inner := f.fillNestedWords(c)
			return columnar.NewListData(c.node.Type, n, valid, nulls, offs, inner)
		}
		offs := f.countOffsets(c)
		return columnar.NewListData(c.node.Type, n, valid, nulls, offs, f.fill(c.children[0]))
	case columnar.KindMap:
		valid, nulls := f.posValidity(c)
		if c.aligned && c.children[0].width > 0 && c.children[1].width > 0 {
			offs, keys, vals := f.fillFixedMap(c)
			return columnar.NewMapData(c.node.Type.(*arrow.MapType), n, valid, nulls, offs, keys, vals)
		}
		offs := f.countOffsets(c) // the key count of each map
		keys := f.fill(c.children[0])
		vals := f.fill(c.children[1])
		return columnar.NewMapData(c.node.Type.(*arrow.MapType), n, valid, nulls, offs, keys, vals)
	case columnar.KindString, columnar.KindBinary:
		valid, nulls := f.posValidity(c)
		offs, data := f.fillBinary(c)
		return columnar.NewBinaryData(c.node.Type, n, valid, nulls, offs, data)
	}
	if c.mode == inArrays {
		return f.fillElements(c)
	}
	return f.fillFixed(c)
}

// posValidity builds the Arrow bitmap of an atPos column, or nil when no
// value is null.
func (f *filler) posValidity(c *column) (*memory.Buffer, int) {
	if c.nulls == 0 {
		return nil, 0
	}
	buf := columnar.NewZeroedBuffer(f.mem, nullBytes(len(c.pos)))
	bits := buf.Bytes()
	for i, p := range c.pos {
		if p >= 0 {
			bits[i>>3] |= 1 << (i & 7)
		}
	}
	return buf, int(c.nulls)
}

// newValidity is a bitmap of n valid entries (padding bits clear), or nil
// when the column has no nulls; null entries are cleared as they are met.
func (f *filler) newValidity(n, nulls int) (*memory.Buffer, []byte) {
	if nulls == 0 {
		return nil, nil
	}
	buf := columnar.NewBuffer(f.mem, nullBytes(n))
	bits := buf.Bytes()
	for i := range bits {
		bits[i] = 0xff
	}
	if n&7 != 0 {
		bits[len(bits)-1] = byte(1)<<(n&7) - 1
	}
	return buf, bits
}

// countOffsets builds list offsets from the int32 count at each position.
func (f *filler) countOffsets(c *column) *memory.Buffer {
	buf, offs := columnar.NewOffsets(f.mem, len(c.pos))
	total := int32(0)
	if c.aligned {
		for i, p := range c.pos {
			if p >= 0 {
				total += int32(le.Uint32(f.rows[i][p:]))
			}
			offs[i+1] = total
		}
		return buf
	}
	i := 0
	for r, row := range f.rows {
		for end := int(c.rowEnd[r]); i < end; i++ {
			if p := c.pos[i]; p >= 0 {
				total += int32(le.Uint32(row[p:]))
			}
			offs[i+1] = total
		}
	}
	return buf
}

// fillBinary copies the string or binary values into one data buffer.
// Strings are checked on the copy: the buffer is valid UTF-8 and no value
// starts inside a multi-byte character exactly when every value is valid.
func (f *filler) fillBinary(c *column) (*memory.Buffer, *memory.Buffer) {
	obuf, offs := columnar.NewOffsets(f.mem, len(c.pos))
	dbuf := columnar.NewBuffer(f.mem, int(c.bytes)) // at most math.MaxInt32: the scan checks it
	data := dbuf.Bytes()
	total := 0
	split := false // some value starts with a continuation byte
	if c.aligned {
		split = copyValues(f.rows[:len(c.pos)], c.pos, offs[1:len(c.pos)+1], data)
	} else {
		i := 0
		for r, row := range f.rows {
			for end := int(c.rowEnd[r]); i < end; i++ {
				if p := c.pos[i]; p >= 0 {
					n := int(le.Uint32(row[p:]))
					v := row[p+4 : int(p)+4+n]
					if n > 0 && v[0]&0xc0 == 0x80 {
						split = true
					}
					total += copy(data[total:], v)
				}
				offs[i+1] = int32(total)
			}
		}
	}
	if c.node.Kind == columnar.KindString && (split || !utf8.Valid(data)) {
		f.bad = true
	}
	return obuf, dbuf
}

// index locates the values of an atPos or inPrefix column: entry i is at
// pos[i]+rel of its row, null when pos[i] < 0 or its flag bit is set.
type index struct {
	pos, rowEnd []int32
	aligned     bool
	rel         int
	flagByte    int
	flagMask    byte
}

func (c *column) index() index {
	if c.mode == inPrefix {
		p := c.parent
		return index{pos: p.pos, rowEnd: p.rowEnd, aligned: p.aligned, rel: c.rel, flagByte: c.flagByte, flagMask: c.flagMask}
	}
	return index{pos: c.pos, rowEnd: c.rowEnd, aligned: c.aligned}
}

// fillFixed builds a boolean or fixed-width atPos or inPrefix column; null
// slots are zero.
func (f *filler) fillFixed(c *column) arrow.ArrayData {
	n, nulls := c.length(), int(c.nulls)
	ix := c.index()
	vbuf, valid := f.newValidity(n, nulls)
	k := c.node.Kind
	var buf *memory.Buffer
	if k == columnar.KindBool {
		buf = columnar.NewZeroedBuffer(f.mem, nullBytes(n))
		gatherBools(f.rows, &ix, buf.Bytes(), nulls, valid)
	} else {
		buf = columnar.NewBuffer(f.mem, n*k.ValueWidth())
		b := buf.Bytes()
		switch c.width {
		case 1:
			gather(f.rows, &ix, b[:n], nulls, valid)
		case 2:
			gather(f.rows, &ix, columnar.Cast[uint16](b)[:n], nulls, valid)
		case 4:
			gather(f.rows, &ix, columnar.Cast[uint32](b)[:n], nulls, valid)
		case 8:
			out := columnar.Cast[uint64](b)
			if k != columnar.KindDecimal {
				gather(f.rows, &ix, out[:n], nulls, valid)
			} else if !gatherShortDecimals(f.rows, &ix, out[:2*n], nulls, valid, c.decimal) {
				f.bad = true
			}
		default:
			if !gatherLongDecimals(f.rows, &ix, columnar.Cast[uint64](b)[:2*n], nulls, valid, c.decimal) {
				f.bad = true
			}
		}
	}
	return columnar.NewFixedData(c.node.Type, n, vbuf, nulls, buf)
}

// The gather loops read one value per entry. Without nulls every entry is
// present and its flag clear, so the loop only reads; with nulls each entry
// is tested and null ones get a zero value and a clear validity bit. They
// share their shape: aligned (entry i in row i) or walking rowEnd.

func gather[T columnar.Word](rows [][]byte, ix *index, out []T, nulls int, valid []byte) {
	rel := ix.rel
	if nulls == 0 && ix.aligned {
		pos := ix.pos[:len(out)]
		rows := rows[:len(out)]
		for i, p := range pos {
			out[i] = columnar.Load[T](rows[i], int(p)+rel)
		}
		return
	}
	fb, mask := ix.flagByte, ix.flagMask
	i := 0
	for r, row := range rows {
		end := r + 1
		if !ix.aligned {
			end = int(ix.rowEnd[r])
		}
		for ; i < end; i++ {
			if p := int(ix.pos[i]); p >= 0 && row[p+fb]&mask == 0 {
				out[i] = columnar.Load[T](row, p+rel)
				continue
			}
			out[i] = 0
			valid[i>>3] &^= 1 << (i & 7)
		}
	}
}

func gatherBools(rows [][]byte, ix *index, bits []byte, nulls int, valid []byte) {
	rel, fb, mask := ix.rel, ix.flagByte, ix.flagMask
	if nulls == 0 && ix.aligned {
		// Eight values to a byte, without a branch per value.
		pos := ix.pos[:len(rows)]
		for i := 0; i < len(pos); i += 8 {
			var b byte
			for j, p := range pos[i:min(i+8, len(pos))] {
				var v byte
				if rows[i+j][int(p)+rel] != 0 {
					v = 1
				}
				b |= v << j
			}
			bits[i>>3] = b
		}
		return
	}
	i := 0
	for r, row := range rows {
		end := r + 1
		if !ix.aligned {
			end = int(ix.rowEnd[r])
		}
		for ; i < end; i++ {
			if p := int(ix.pos[i]); p >= 0 && row[p+fb]&mask == 0 {
				if row[p+rel] != 0 {
					bits[i>>3] |= 1 << (i & 7)
				}
				continue
			}
			if nulls > 0 {
				valid[i>>3] &^= 1 << (i & 7)
			}
		}
	}
}

// gatherShortDecimals widens each int64 unscaled value to decimal128 (two
// words per value in out). It reports whether every value fits.
func gatherShortDecimals(rows [][]byte, ix *index, out []uint64, nulls int, valid []byte, lim *columnar.DecimalLimit) bool {
	rel, fb, mask := ix.rel, ix.flagByte, ix.flagMask
	m := lim.ShortMax()
	ok := true
	i := 0
	for r, row := range rows {
		end := r + 1
		if !ix.aligned {
			end = int(ix.rowEnd[r])
		}
		for ; i < end; i++ {
			if p := int(ix.pos[i]); p >= 0 && (nulls == 0 || row[p+fb]&mask == 0) {
				v := int64(columnar.Load[uint64](row, p+rel))
				if v > m || v < -m {
					ok = false
				}
				out[2*i], out[2*i+1] = uint64(v), uint64(v>>63)
				continue
			}
			out[2*i], out[2*i+1] = 0, 0
			valid[i>>3] &^= 1 << (i & 7)
		}
	}
	return ok
}

// gatherLongDecimals copies each int128 (Arrow's own layout) and reports
// whether every value fits.
func gatherLongDecimals(rows [][]byte, ix *index, out []uint64, nulls int, valid []byte, lim *columnar.DecimalLimit) bool {
	rel, fb, mask := ix.rel, ix.flagByte, ix.flagMask
	ok := true
	i := 0
	for r, row := range rows {
		end := r + 1
		if !ix.aligned {
			end = int(ix.rowEnd[r])
		}
		for ; i < end; i++ {
			if p := int(ix.pos[i]); p >= 0 && (nulls == 0 || row[p+fb]&mask == 0) {
				lo, hi := columnar.Load[uint64](row, p+rel), columnar.Load[uint64](row, p+rel+8)
				if !lim.LongOK(int64(hi), lo) {
					ok = false
				}
				out[2*i], out[2*i+1] = lo, hi
				continue
			}
			out[2*i], out[2*i+1] = 0, 0
			valid[i>>3] &^= 1 << (i & 7)
		}
	}
	return ok
}

// copyValues copies the string or binary values of an aligned column (entry
// i at pos[i] of rows[i], null when negative) into data, writing the end
// of each into offs. It reports whether some value starts with a UTF-8
// continuation byte. Values are copied in 16-, 8- or 4-byte moves, the
// last ones overlapping those before, with no call in the loop: a memmove
// call per value costs more than the copy of a short one, and makes the
// loop keep its values on the stack.
func copyValues(rows [][]byte, pos, offs []int32, data []byte) bool {
	rows, offs = rows[:len(pos)], offs[:len(pos)]
	total := 0
	split := false
	for i, p := range pos {
		if p >= 0 {
			row := rows[i]
			n := load32(row, int(p))
			q := int(p) + 4
			// The scan has checked both; checked again here because the
			// moves below are unchecked.
			if uint(n) > uint(len(row)-q) || n > len(data)-total {
				panic(errLoad)
			}
			if n == 0 {
				offs[i] = int32(total)
				continue
			}
			sp := unsafe.Add(unsafe.Pointer(unsafe.SliceData(row)), q)
			dp := unsafe.Add(unsafe.Pointer(unsafe.SliceData(data)), total)
			switch {
			case n >= 16:
				*(*[16]byte)(dp) = *(*[16]byte)(sp)
				*(*[16]byte)(unsafe.Add(dp, n-16)) = *(*[16]byte)(unsafe.Add(sp, n-16))
				if n > 32 {
					*(*[16]byte)(unsafe.Add(dp, 16)) = *(*[16]byte)(unsafe.Add(sp, 16))
					*(*[16]byte)(unsafe.Add(dp, n-32)) = *(*[16]byte)(unsafe.Add(sp, n-32))
					for k := 32; k < n-32; k += 16 {
						*(*[16]byte)(unsafe.Add(dp, k)) = *(*[16]byte)(unsafe.Add(sp, k))
					}
				}
			case n >= 8:
				*(*[8]byte)(dp) = *(*[8]byte)(sp)
				*(*[8]byte)(unsafe.Add(dp, n-8)) = *(*[8]byte)(unsafe.Add(sp, n-8))
			case n >= 4:
				*(*[4]byte)(dp) = *(*[4]byte)(sp)
				*(*[4]byte)(unsafe.Add(dp, n-4)) = *(*[4]byte)(unsafe.Add(sp, n-4))
			default:
				v, d := row[q:q+n], data[total:total+n]
				d[0], d[n/2], d[n-1] = v[0], v[n/2], v[n-1]
			}
			if *(*byte)(sp)&0xc0 == 0x80 {
				split = true
			}
			total += n
		}
		offs[i] = int32(total)
	}
	return split
}
