package compactrow

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/arrowvec"
)

// The fill pass: every column's buffers are allocated once at their exact
// size and written from the positions the scan pass recorded. Nothing here
// can fail: the scan pass has checked every byte it read.

var le = binary.LittleEndian

func fill(mem memory.Allocator, c *column, rows [][]byte) arrow.ArrayData {
	n := len(c.pos)
	switch c.node.Kind {
	case arrowvec.KindNull:
		return arrowvec.NewNullData(n)
	case arrowvec.KindStruct:
		valid, nulls := validity(mem, c)
		children := make([]arrow.ArrayData, len(c.children))
		for i, ch := range c.children {
			children[i] = fill(mem, ch, rows)
		}
		return arrowvec.NewStructData(c.node.Type, n, valid, nulls, children)
	case arrowvec.KindList:
		valid, nulls := validity(mem, c)
		offs := countOffsets(mem, c, rows)
		return arrowvec.NewListData(c.node.Type, n, valid, nulls, offs, fill(mem, c.children[0], rows))
	case arrowvec.KindMap:
		valid, nulls := validity(mem, c)
		offs := countOffsets(mem, c, rows) // the key count of each map
		keys := fill(mem, c.children[0], rows)
		vals := fill(mem, c.children[1], rows)
		return arrowvec.NewMapData(c.node.Type.(*arrow.MapType), n, valid, nulls, offs, keys, vals)
	case arrowvec.KindString, arrowvec.KindBinary:
		valid, nulls := validity(mem, c)
		offs, data := fillBinary(mem, c, rows)
		return arrowvec.NewBinaryData(c.node.Type, n, valid, nulls, offs, data)
	}
	valid, nulls := validity(mem, c)
	return arrowvec.NewFixedData(c.node.Type, n, valid, nulls, fillFixed(mem, c, rows))
}

// validity builds the Arrow bitmap of c, or nil when no value is null.
func validity(mem memory.Allocator, c *column) (*memory.Buffer, int) {
	if c.nulls == 0 {
		return nil, 0
	}
	buf := arrowvec.NewZeroedBuffer(mem, nullBytes(len(c.pos)))
	bits := buf.Bytes()
	for i, p := range c.pos {
		if p >= 0 {
			bits[i>>3] |= 1 << (i & 7)
		}
	}
	return buf, c.nulls
}

// countOffsets builds list offsets from the int32 count at each position.
func countOffsets(mem memory.Allocator, c *column, rows [][]byte) *memory.Buffer {
	buf, offs := arrowvec.NewOffsets(mem, len(c.pos))
	i, total := 0, int32(0)
	for r, row := range rows {
		for end := int(c.rowEnd[r]); i < end; i++ {
			if p := c.pos[i]; p >= 0 {
				total += int32(le.Uint32(row[p:]))
			}
			offs[i+1] = total
		}
	}
	return buf
}

func fillBinary(mem memory.Allocator, c *column, rows [][]byte) (*memory.Buffer, *memory.Buffer) {
	obuf, offs := arrowvec.NewOffsets(mem, len(c.pos))
	dbuf := arrowvec.NewBuffer(mem, c.bytes)
	data := dbuf.Bytes()
	i, total := 0, 0
	for r, row := range rows {
		for end := int(c.rowEnd[r]); i < end; i++ {
			if p := int(c.pos[i]); p >= 0 {
				n := int(le.Uint32(row[p:]))
				total += copy(data[total:], row[p+4:p+4+n])
			}
			offs[i+1] = int32(total)
		}
	}
	return obuf, dbuf
}

// fillFixed builds the value buffer of a boolean or fixed-width column;
// null slots are zero.
func fillFixed(mem memory.Allocator, c *column, rows [][]byte) *memory.Buffer {
	n := len(c.pos)
	k := c.node.Kind
	if k == arrowvec.KindBool {
		buf := arrowvec.NewZeroedBuffer(mem, nullBytes(n))
		bits := buf.Bytes()
		i := 0
		for r, row := range rows {
			for end := int(c.rowEnd[r]); i < end; i++ {
				if p := c.pos[i]; p >= 0 && row[p] != 0 {
					bits[i>>3] |= 1 << (i & 7)
				}
			}
		}
		return buf
	}
	buf := arrowvec.NewBuffer(mem, n*k.ValueWidth())
	dst := buf.Bytes()
	i := 0
	switch {
	case c.width == 1:
		for r, row := range rows {
			for end := int(c.rowEnd[r]); i < end; i++ {
				var v byte
				if p := c.pos[i]; p >= 0 {
					v = row[p]
				}
				dst[i] = v
			}
		}
	case c.width == 2:
		for r, row := range rows {
			for end := int(c.rowEnd[r]); i < end; i++ {
				var v uint16
				if p := c.pos[i]; p >= 0 {
					v = le.Uint16(row[p:])
				}
				le.PutUint16(dst[2*i:], v)
			}
		}
	case c.width == 4:
		for r, row := range rows {
			for end := int(c.rowEnd[r]); i < end; i++ {
				var v uint32
				if p := c.pos[i]; p >= 0 {
					v = le.Uint32(row[p:])
				}
				le.PutUint32(dst[4*i:], v)
			}
		}
	case c.width == 8 && k != arrowvec.KindDecimal:
		for r, row := range rows {
			for end := int(c.rowEnd[r]); i < end; i++ {
				var v uint64
				if p := c.pos[i]; p >= 0 {
					v = le.Uint64(row[p:])
				}
				le.PutUint64(dst[8*i:], v)
			}
		}
	case c.width == 8: // short decimal: int64 unscaled, sign-extended to decimal128
		for r, row := range rows {
			for end := int(c.rowEnd[r]); i < end; i++ {
				var v int64
				if p := c.pos[i]; p >= 0 {
					v = int64(le.Uint64(row[p:]))
				}
				le.PutUint64(dst[16*i:], uint64(v))
				le.PutUint64(dst[16*i+8:], uint64(v>>63))
			}
		}
	default: // long decimal: int128 little-endian, Arrow's own layout
		for r, row := range rows {
			for end := int(c.rowEnd[r]); i < end; i++ {
				if p := c.pos[i]; p >= 0 {
					copy(dst[16*i:16*i+16], row[p:p+16])
				} else {
					clear(dst[16*i : 16*i+16])
				}
			}
		}
	}
	return buf
}
