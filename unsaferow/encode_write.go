package unsaferow

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// The quiet NaNs Spark's writers store for every NaN.
const (
	canonicalNaN32 = 0x7fc00000
	canonicalNaN64 = 0x7ff8000000000000
)

// writeRows writes every row into out (zeroed, sized by sizeRows); row i
// spans out[starts[i]:starts[i+1]].
func (e *Encoder) writeRows(w *encWalker, s *encScratch, out []byte, starts []int) {
	cursor := s.cursor
	for i := range cursor {
		cursor[i] = e.fixed
	}
	for k := range s.cols {
		e.writeColumn(w, &s.cols[k], k, out, starts, cursor)
	}
}

// writeColumn writes top-level column k of every row: the common shapes
// (fixed width without nulls, strings) in their own loops, the rest
// through the general field writer.
func (e *Encoder) writeColumn(w *encWalker, v *encView, k int, out []byte, starts, cursor []int) {
	slot := e.header + 8*k
	n := len(cursor)
	switch {
	case v.f.kind == columnar.KindNull:
		for i := range n {
			out[starts[i]+(k>>3)] |= 1 << (k & 7)
		}
	case decimalColumn(v):
		w.writeDecimalColumn(v, k, out, starts, cursor, slot)
	case !v.f.variable && v.Valid == nil && v.f.bulk:
		writeFixedColumn(v, out, starts[:n], slot)
	case v.f.kind == columnar.KindBool && v.Valid == nil:
		for i, p := range starts[:n] {
			if v.Bool(i) {
				out[p+slot] = 1
			}
		}
	case v.f.kind == columnar.KindFloat32 && v.Valid == nil: // Spark: NaNs rewritten
		for i, p := range starts[:n] {
			b := binary.LittleEndian.Uint32(v.Values[4*i:])
			if b&0x7fffffff > 0x7f800000 {
				b = canonicalNaN32
			}
			binary.LittleEndian.PutUint32(out[p+slot:], b)
		}
	case v.f.kind == columnar.KindFloat64 && v.Valid == nil:
		for i, p := range starts[:n] {
			b := binary.LittleEndian.Uint64(v.Values[8*i:])
			if b&0x7fffffffffffffff > 0x7ff0000000000000 {
				b = canonicalNaN64
			}
			binary.LittleEndian.PutUint64(out[p+slot:], b)
		}
	case !v.f.variable:
		for i := range n {
			p := starts[i]
			if !v.IsValid(i) {
				out[p+(k>>3)] |= 1 << (k & 7)
				continue
			}
			w.row = i
			w.writeFixed(v, i, out[p+slot:p+slot+8])
		}
	case (v.f.kind == columnar.KindString || v.f.kind == columnar.KindBinary) && v.AllValid():
		offs, data := v.Offsets[:n+1], v.Data
		cursor = cursor[:n]
		for i, p := range starts[:n] {
			a, b := offs[i], offs[i+1]
			c := cursor[i]
			size := copy(out[p+c:], data[a:b])
			putOffsetSize(out[p+slot:], c, size)
			cursor[i] = c + padTo8(size)
		}
	case v.f.kind == columnar.KindString || v.f.kind == columnar.KindBinary:
		for i := range n {
			p := starts[i]
			if !v.IsValid(i) {
				out[p+(k>>3)] |= 1 << (k & 7)
				continue
			}
			b := v.Data[v.Offsets[i]:v.Offsets[i+1]]
			c := cursor[i]
			copy(out[p+c:], b)
			putOffsetSize(out[p+slot:], c, len(b))
			cursor[i] = c + padTo8(len(b))
		}
	case v.AllValid() && !v.f.longDec:
		cursor = cursor[:n]
		for i, p := range starts[:n] {
			w.row = i
			c := cursor[i]
			size := w.writeValue(v, i, out[p+c:starts[i+1]])
			putOffsetSize(out[p+slot:], c, size)
			cursor[i] = c + padTo8(size)
		}
	default:
		for i := range n {
			w.row = i
			cursor[i] = w.writeField(v, i, out[starts[i]:starts[i+1]], k, e.header, cursor[i])
		}
	}
}

// writeFixedColumn copies a null-free fixed-width column into its slots.
func writeFixedColumn(v *encView, out []byte, starts []int, slot int) {
	raw := v.Values
	switch v.f.width {
	case 1:
		for i, p := range starts {
			out[p+slot] = raw[i]
		}
	case 2:
		for i, p := range starts {
			binary.LittleEndian.PutUint16(out[p+slot:], binary.LittleEndian.Uint16(raw[2*i:]))
		}
	case 4:
		for i, p := range starts {
			binary.LittleEndian.PutUint32(out[p+slot:], binary.LittleEndian.Uint32(raw[4*i:]))
		}
	case 8:
		for i, p := range starts {
			binary.LittleEndian.PutUint64(out[p+slot:], binary.LittleEndian.Uint64(raw[8*i:]))
		}
	}
}

// writeField writes value j of struct field k (its owner's bitset ends at
// head) into owner, whose variable region is filled up to cursor, and
// returns the new cursor.
func (w *encWalker) writeField(v *encView, j int, owner []byte, k, head, cursor int) int {
	slot := head + 8*k
	if !v.IsValid(j) {
		owner[k>>3] |= 1 << (k & 7)
		if w.spark && v.f.longDec {
			putOffsetSize(owner[slot:], cursor, 0) // Spark keeps the reserved area's offset
			return cursor + 16
		}
		return cursor
	}
	if !v.f.variable {
		w.writeFixed(v, j, owner[slot:slot+8])
		return cursor
	}
	size := w.writeValue(v, j, owner[cursor:])
	putOffsetSize(owner[slot:], cursor, size)
	if w.spark && v.f.longDec {
		return cursor + 16
	}
	return cursor + padTo8(size)
}

// writeFixed writes valid fixed-width value j into dst (zeroed).
func (w *encWalker) writeFixed(v *encView, j int, dst []byte) {
	switch v.f.kind {
	case columnar.KindBool:
		if v.Bool(j) {
			dst[0] = 1
		}
	case columnar.KindInt8:
		dst[0] = v.Values[j]
	case columnar.KindInt16:
		binary.LittleEndian.PutUint16(dst, binary.LittleEndian.Uint16(v.Values[2*j:]))
	case columnar.KindInt32, columnar.KindDate32:
		binary.LittleEndian.PutUint32(dst, binary.LittleEndian.Uint32(v.Values[4*j:]))
	case columnar.KindInt64, columnar.KindTimestamp:
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(v.Values[8*j:]))
	case columnar.KindFloat32:
		b := binary.LittleEndian.Uint32(v.Values[4*j:])
		if w.spark && b&0x7fffffff > 0x7f800000 {
			b = canonicalNaN32
		}
		binary.LittleEndian.PutUint32(dst, b)
	case columnar.KindFloat64:
		b := binary.LittleEndian.Uint64(v.Values[8*j:])
		if w.spark && b&0x7fffffffffffffff > 0x7ff0000000000000 {
			b = canonicalNaN64
		}
		binary.LittleEndian.PutUint64(dst, b)
	case columnar.KindDecimal: // short: the unscaled value as int64
		lo, hi := v.decimalAt(j)
		if !w.decimalFits(v, lo, hi) {
			return
		}
		binary.LittleEndian.PutUint64(dst, lo)
	}
}

// writeValue writes valid variable-width value j at the start of dst and
// returns its size field (see valueSize).
func (w *encWalker) writeValue(v *encView, j int, dst []byte) int {
	switch v.f.kind {
	case columnar.KindString, columnar.KindBinary:
		return copy(dst, v.Data[v.Offsets[j]:v.Offsets[j+1]])
	case columnar.KindDecimal:
		lo, hi := v.decimalAt(j)
		if !w.decimalFits(v, lo, hi) {
			return 0
		}
		return putBigInteger(dst, lo, hi)
	case columnar.KindStruct:
		head := nullBitsetBytes(len(v.kids))
		cursor := v.f.fixed
		for k := range v.kids {
			cursor = w.writeField(&v.kids[k], j, dst, k, head, cursor)
		}
		return cursor
	case columnar.KindList:
		start, n := v.span(j)
		return w.writeArray(&v.kids[0], start, n, dst)
	case columnar.KindMap:
		start, n := v.span(j)
		keys := w.writeArray(&v.kids[0], start, n, dst[8:])
		binary.LittleEndian.PutUint64(dst, uint64(keys))
		return 8 + keys + w.writeArray(&v.kids[1], start, n, dst[8+keys:])
	}
	return 0
}

// writeArray writes elements [start, start+n) of v as an UnsafeArrayData at
// the start of dst and returns its size.
func (w *encWalker) writeArray(v *encView, start, n int, dst []byte) int {
	binary.LittleEndian.PutUint64(dst, uint64(n))
	nulls := dst[8:]
	head := 8 + nullBitsetBytes(n)
	if v.f.variable && n > 0 && v.AllValid() && !v.f.longDec {
		cursor := head + 8*n
		slots := dst[head : head+8*n]
		switch {
		case v.f.kind == columnar.KindString || v.f.kind == columnar.KindBinary:
			offs, data := v.Offsets[start:start+n+1], v.Data
			for k := range n {
				size := copy(dst[cursor:], data[offs[k]:offs[k+1]])
				putOffsetSize(slots[8*k:], cursor, size)
				cursor += padTo8(size)
			}
		case v.f.kind == columnar.KindList && v.kids[0].f.bulk && v.kids[0].AllValid():
			// Arrays of null-free arrays of plain values: each inner array
			// is its count, a zero null bitset and one copy.
			offs, es, vals := v.Offsets[start:start+n+1], v.kids[0].f.elem, v.kids[0].Values
			for k := range n {
				a, b := int(offs[k]), int(offs[k+1])
				d := dst[cursor:]
				binary.LittleEndian.PutUint64(d, uint64(b-a))
				h := 8 + nullBitsetBytes(b-a)
				size := h + copy(d[h:], vals[a*es:b*es])
				if w.spark {
					size = padTo8(size)
				}
				putOffsetSize(slots[8*k:], cursor, size)
				cursor += padTo8(size)
			}
		case v.f.kind == columnar.KindList:
			// Arrays of arrays: each inner array written directly.
			offs, kid := v.Offsets[start:start+n+1], &v.kids[0]
			for k := range n {
				a := int(offs[k])
				size := w.writeArray(kid, a, int(offs[k+1])-a, dst[cursor:])
				putOffsetSize(slots[8*k:], cursor, size)
				cursor += padTo8(size)
			}
		default:
			for k := range n {
				size := w.writeValue(v, start+k, dst[cursor:])
				putOffsetSize(slots[8*k:], cursor, size)
				cursor += padTo8(size)
			}
		}
		return cursor
	}
	if v.f.variable {
		cursor := head + 8*n
		for k := range n {
			j := start + k
			if !v.IsValid(j) {
				nulls[k>>3] |= 1 << (k & 7)
				continue
			}
			size := w.writeValue(v, j, dst[cursor:])
			putOffsetSize(dst[head+8*k:], cursor, size)
			cursor += padTo8(size)
		}
		return cursor
	}
	es := v.f.elem
	elems := dst[head : head+n*es]
	switch {
	case v.f.kind == columnar.KindNull:
		for k := range n {
			nulls[k>>3] |= 1 << (k & 7)
		}
	case v.f.bulk:
		copy(elems, v.Values[start*es:(start+n)*es])
		if v.Valid != nil {
			for k := range n {
				if !v.IsValid(start + k) {
					nulls[k>>3] |= 1 << (k & 7)
					clear(elems[k*es : k*es+es])
				}
			}
		}
	default:
		for k := range n {
			if !v.IsValid(start + k) {
				nulls[k>>3] |= 1 << (k & 7)
				continue
			}
			w.writeFixed(v, start+k, elems[k*es:k*es+es])
		}
	}
	size := head + n*es
	if w.spark {
		size = padTo8(size)
	}
	return size
}

// putWord stores a variable-width value's slot: offset in the high half,
// size in the low half.
func putOffsetSize(dst []byte, offset, size int) {
	binary.LittleEndian.PutUint64(dst, uint64(offset)<<32|uint64(size))
}

// bigIntLen is the length of Java's BigInteger.toByteArray for a 128-bit
// two's complement value: the minimal big-endian bytes with a sign bit.
func bigIntegerLen(lo uint64, hi int64) int {
	if hi < 0 {
		lo, hi = ^lo, ^hi
	}
	n := bits.Len64(lo)
	if hi != 0 {
		n = 64 + bits.Len64(uint64(hi))
	}
	return n/8 + 1
}

// putBigInteger writes the BigInteger bytes of the value and returns their
// count, n. dst has room for n rounded up to 8, which the value's owner
// reserves, and is zero: the value is shifted up to the top of 128 bits so
// that its n bytes lead the big-endian words, which are stored whole (the
// second only when n > 8), rather than copied a byte count at a time.
func putBigInteger(dst []byte, lo uint64, hi int64) int {
	n := bigIntegerLen(lo, hi)
	s := uint(128 - 8*n) // 0..120; Go's shifts by 64 or more give 0
	top := uint64(hi)<<s | lo>>(64-s) | lo<<(s-64)
	binary.BigEndian.PutUint64(dst[:8], top)
	if n > 8 {
		binary.BigEndian.PutUint64(dst[8:16], lo<<s)
	}
	return n
}

// decimalFits checks a decimal's unscaled value against its declared
// precision, failing the encode when it does not fit: the decoders reject
// such values, so writing them would break the round trip.
func (w *encWalker) decimalFits(v *encView, lo uint64, hi int64) bool {
	if !v.f.limit.LongOK(hi, lo) {
		w.fail(v.f, fmt.Errorf("%w: unscaled value %s exceeds decimal precision %d", rowbridge.ErrValue, columnar.Int128String(hi, lo), v.f.prec))
		return false
	}
	return true
}
