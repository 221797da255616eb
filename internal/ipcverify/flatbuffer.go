package ipcverify

import (
	"encoding/binary"
	"fmt"
	"math"
)

// maxDepth bounds how deeply tables nest, as flatbuffers::Verifier's
// default does. Arrow nests a table per child field, so this also bounds
// the type nesting arrow-go recurses through (its array loader stops at 64).
const maxDepth = 64

// slotKind is how a table field is stored.
type slotKind uint8

const (
	slotScalar  slotKind = iota // inline scalar of size bytes
	slotString                  // offset to a string
	slotTable                   // offset to a table
	slotTables                  // offset to a vector of offsets to tables
	slotStructs                 // offset to a vector of size-byte scalars or structs
	slotUnion                   // offset to a table whose type the ubyte field in slot tag names
)

// slot describes one field of a table type, at its index in the vtable.
type slot struct {
	name  string
	kind  slotKind
	size  int          // slotScalar: the value's size (and alignment); slotStructs: an element's size
	table *tableType   // slotTable, slotTables
	union []*tableType // slotUnion: the member types by type tag; nil for tags not accepted
	tag   int          // slotUnion: the slot of the type tag, an earlier one (verified first)
}

func scalarSlot(name string, size int) slot { return slot{name: name, kind: slotScalar, size: size} }
func stringSlot(name string) slot           { return slot{name: name, kind: slotString} }
func tableSlot(name string, t *tableType) slot {
	return slot{name: name, kind: slotTable, table: t}
}
func tablesSlot(name string, t *tableType) slot {
	return slot{name: name, kind: slotTables, table: t}
}
func structsSlot(name string, size int) slot { return slot{name: name, kind: slotStructs, size: size} }
func unionSlot(name string, tag int, members []*tableType) slot {
	return slot{name: name, kind: slotUnion, tag: tag, union: members}
}

// tableType describes a flatbuffer table type: its fields by slot.
type tableType struct {
	name  string
	slots []slot
}

// verifier checks one flatbuffer (a message's metadata or a file footer)
// against a root table type: every table, vtable, string and vector lies
// inside it and is aligned, unions name known members, tables nest at most
// maxDepth deep, and the tables, strings and vector elements visited in all
// (counting shared ones each time they are reached, as a reader expands
// them) are no more than the buffer has bytes.
type verifier struct {
	buf    []byte
	base   int64 // input offset of buf[0], for errors
	depth  int
	visits int // tables, strings and vector elements still allowed
}

func newVerifier(buf []byte, base int64) *verifier {
	return &verifier{buf: buf, base: base, visits: len(buf)}
}

func (v *verifier) errorf(pos int64, format string, args ...any) *Error {
	return errorAt(v.base+pos, format, args...)
}

// inside reports whether n bytes at pos lie inside the buffer.
func (v *verifier) inside(pos, n int64) bool {
	return pos >= 0 && n >= 0 && pos <= int64(len(v.buf)) && n <= int64(len(v.buf))-pos
}

// place checks that n bytes of what at pos are aligned to align and lie
// inside the buffer.
func (v *verifier) place(what string, pos, n, align int64) *Error {
	if pos%align != 0 {
		return v.errorf(pos, "%s is not aligned to %d bytes", what, align)
	}
	if !v.inside(pos, n) {
		return v.errorf(pos, "%s of %d bytes runs past the end of the %d-byte buffer", what, n, len(v.buf))
	}
	return nil
}

func (v *verifier) u16(pos int) int    { return int(binary.LittleEndian.Uint16(v.buf[pos:])) }
func (v *verifier) u32(pos int) uint32 { return binary.LittleEndian.Uint32(v.buf[pos:]) }

// spend takes n visits from the budget.
func (v *verifier) spend(pos int64, n int64) *Error {
	if n > int64(v.visits) {
		return v.errorf(pos, "more tables, strings and vector elements than a %d-byte buffer holds (shared offsets repeated too often)", len(v.buf))
	}
	v.visits -= int(n)
	return nil
}

// root verifies the root table of type t, which the offset at the start
// of the buffer locates.
func (v *verifier) root(t *tableType) (table, *Error) {
	if len(v.buf) < 4 {
		return table{}, v.errorf(0, "%d bytes are too few for a flatbuffer", len(v.buf))
	}
	if len(v.buf) > math.MaxInt32 {
		return table{}, v.errorf(0, "a flatbuffer of %d bytes is larger than 2 GiB", len(v.buf))
	}
	pos, err := v.offset(0)
	if err != nil {
		return table{}, err.within(t.name)
	}
	tb, err := v.table(pos, t)
	if err != nil {
		return table{}, err.within(t.name)
	}
	return tb, nil
}

// offset verifies the uoffset at pos and returns the position it points to.
func (v *verifier) offset(pos int) (int, *Error) {
	if err := v.place("offset", int64(pos), 4, 4); err != nil {
		return 0, err
	}
	o := v.u32(pos)
	if o == 0 || o > math.MaxInt32 {
		return 0, v.errorf(int64(pos), "offset %d is zero or negative", int32(o))
	}
	target := int64(pos) + int64(o)
	if target >= int64(len(v.buf)) {
		return 0, v.errorf(int64(pos), "offset %d points past the end of the %d-byte buffer", o, len(v.buf))
	}
	return int(target), nil
}

// table verifies the table of type t at pos and, recursively, everything
// its known fields reference. Fields in slots t does not know are skipped,
// as a reader that does not know them skips them.
func (v *verifier) table(pos int, t *tableType) (table, *Error) {
	if v.depth >= maxDepth {
		return table{}, v.errorf(int64(pos), "tables nest more than %d deep", maxDepth)
	}
	if err := v.spend(int64(pos), 1); err != nil {
		return table{}, err
	}
	if err := v.place("table", int64(pos), 4, 4); err != nil {
		return table{}, err
	}
	vt := int64(pos) - int64(int32(v.u32(pos)))
	if !v.inside(vt, 0) {
		return table{}, v.errorf(int64(pos), "the table's vtable offset points outside the %d-byte buffer", len(v.buf))
	}
	if err := v.place("vtable", vt, 4, 2); err != nil {
		return table{}, err
	}
	vtSize, tSize := v.u16(int(vt)), v.u16(int(vt)+2)
	if vtSize < 4 || vtSize%2 != 0 {
		return table{}, v.errorf(vt, "vtable size %d is not an even number of at least 4", vtSize)
	}
	if err := v.place("vtable", vt, int64(vtSize), 2); err != nil {
		return table{}, err
	}
	if tSize < 4 {
		return table{}, v.errorf(vt+2, "table size %d is less than 4", tSize)
	}
	if err := v.place("table", int64(pos), int64(tSize), 4); err != nil {
		return table{}, err
	}
	tb := table{buf: v.buf, pos: pos, vt: int(vt), vtSize: vtSize}
	v.depth++
	defer func() { v.depth-- }()
	for i := range t.slots {
		if err := v.field(tb, tSize, i, &t.slots[i]); err != nil {
			return table{}, err.within("." + t.slots[i].name)
		}
	}
	return tb, nil
}

// field verifies the field in slot i of table tb, whose inline part is
// tSize bytes long.
func (v *verifier) field(tb table, tSize, i int, s *slot) *Error {
	fo := tb.fieldOffset(i)
	if fo == 0 {
		return nil
	}
	size := 4 // an offset
	if s.kind == slotScalar {
		size = s.size
	}
	pos := tb.pos + fo
	if fo < 4 || fo+size > tSize {
		return v.errorf(int64(tb.vt+4+2*i), "field at table offset %d is outside the %d-byte table", fo, tSize)
	}
	if pos%size != 0 {
		return v.errorf(int64(pos), "field is not aligned to %d bytes", size)
	}
	if s.kind == slotScalar {
		return nil
	}
	if s.kind == slotUnion {
		tag := int(tb.uint8(s.tag, 0))
		if tag == 0 { // NONE: the value is not read
			return nil
		}
		if tag >= len(s.union) || s.union[tag] == nil {
			return v.errorf(int64(pos), "unknown or unsupported union member %d", tag)
		}
		target, err := v.offset(pos)
		if err != nil {
			return err
		}
		_, err = v.table(target, s.union[tag])
		if err != nil {
			return err.within("(" + s.union[tag].name + ")")
		}
		return nil
	}
	target, err := v.offset(pos)
	if err != nil {
		return err
	}
	switch s.kind {
	case slotString:
		return v.string(target)
	case slotTable:
		_, err := v.table(target, s.table)
		return err
	case slotStructs:
		_, err := v.vector(target, s.size)
		return err
	}
	// slotTables
	n, err := v.vector(target, 4)
	if err != nil {
		return err
	}
	for j := range n {
		elem, err := v.offset(target + 4 + 4*j)
		if err == nil {
			_, err = v.table(elem, s.table)
		}
		if err != nil {
			return err.within(fmt.Sprintf("[%d]", j))
		}
	}
	return nil
}

// vector verifies the vector of n elemSize-byte elements at pos (its
// length, then the elements) and returns n.
func (v *verifier) vector(pos, elemSize int) (int, *Error) {
	if err := v.place("vector length", int64(pos), 4, 4); err != nil {
		return 0, err
	}
	n := int64(v.u32(pos))
	if !v.inside(int64(pos)+4, n*int64(elemSize)) {
		return 0, v.errorf(int64(pos), "vector of %d elements (%d bytes each) runs past the end of the %d-byte buffer", n, elemSize, len(v.buf))
	}
	if err := v.spend(int64(pos), n); err != nil {
		return 0, err
	}
	return int(n), nil
}

// string verifies the string at pos: its length, bytes and terminating NUL.
func (v *verifier) string(pos int) *Error {
	if err := v.spend(int64(pos), 1); err != nil {
		return err
	}
	if err := v.place("string length", int64(pos), 4, 4); err != nil {
		return err
	}
	n := int64(v.u32(pos))
	if !v.inside(int64(pos)+4, n+1) {
		return v.errorf(int64(pos), "string of %d bytes runs past the end of the %d-byte buffer", n, len(v.buf))
	}
	if v.buf[int64(pos)+4+n] != 0 {
		return v.errorf(int64(pos), "string of %d bytes lacks its NUL terminator", n)
	}
	return nil
}

// table is a verified table: reading its fields stays inside the buffer.
type table struct {
	buf    []byte
	pos    int // the table
	vt     int // its vtable
	vtSize int
}

// fieldOffset returns the offset in the table of the field in slot i, or
// 0 when the field is absent.
func (t table) fieldOffset(i int) int {
	if 4+2*i >= t.vtSize {
		return 0
	}
	return int(binary.LittleEndian.Uint16(t.buf[t.vt+4+2*i:]))
}

// has reports whether the field in slot i is present.
func (t table) has(i int) bool { return t.fieldOffset(i) != 0 }

func (t table) uint8(i int, def uint8) uint8 {
	if fo := t.fieldOffset(i); fo != 0 {
		return t.buf[t.pos+fo]
	}
	return def
}

func (t table) int16(i int, def int16) int16 {
	if fo := t.fieldOffset(i); fo != 0 {
		return int16(binary.LittleEndian.Uint16(t.buf[t.pos+fo:]))
	}
	return def
}

func (t table) int32(i int, def int32) int32 {
	if fo := t.fieldOffset(i); fo != 0 {
		return int32(binary.LittleEndian.Uint32(t.buf[t.pos+fo:]))
	}
	return def
}

func (t table) int64(i int, def int64) int64 {
	if fo := t.fieldOffset(i); fo != 0 {
		return int64(binary.LittleEndian.Uint64(t.buf[t.pos+fo:]))
	}
	return def
}

// target returns where the offset in slot i points, or 0 when it is absent.
func (t table) target(i int) int {
	fo := t.fieldOffset(i)
	if fo == 0 {
		return 0
	}
	p := t.pos + fo
	return p + int(binary.LittleEndian.Uint32(t.buf[p:]))
}

// at returns the verified table at pos.
func (t table) at(pos int) table {
	vt := pos - int(int32(binary.LittleEndian.Uint32(t.buf[pos:])))
	return table{buf: t.buf, pos: pos, vt: vt, vtSize: int(binary.LittleEndian.Uint16(t.buf[vt:]))}
}

// child returns the table in slot i (a table or union field).
func (t table) child(i int) (table, bool) {
	p := t.target(i)
	if p == 0 {
		return table{}, false
	}
	return t.at(p), true
}

// vector returns the position of the first element of the vector in slot
// i and its length; n is 0 when the vector is absent.
func (t table) vector(i int) (elems, n int) {
	p := t.target(i)
	if p == 0 {
		return 0, 0
	}
	return p + 4, int(binary.LittleEndian.Uint32(t.buf[p:]))
}

// element returns the j-th table of the table vector whose elements start
// at elems.
func (t table) element(elems, j int) table {
	p := elems + 4*j
	return t.at(p + int(binary.LittleEndian.Uint32(t.buf[p:])))
}

func (t table) int64At(pos int) int64 { return int64(binary.LittleEndian.Uint64(t.buf[pos:])) }
func (t table) int32At(pos int) int32 { return int32(binary.LittleEndian.Uint32(t.buf[pos:])) }
