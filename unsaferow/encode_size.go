package unsaferow

import (
	"encoding/binary"
	"fmt"

	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// encWalker carries the flavour and the first error through the recursive
// size and write passes; row is the top-level row being walked, for errors.
type encWalker struct {
	spark bool
	row   int
	err   error
}

func (w *encWalker) fail(f *encField, err error) {
	if w.err == nil {
		w.err = &rowbridge.EncodeError{Row: w.row, Field: f.path, Err: err}
	}
}

// sizeRows sets sizes[i] to the encoded size of row i, one column at a time.
func (e *Encoder) sizeRows(w *encWalker, cols []encView, sizes []int) {
	for i := range sizes {
		sizes[i] = e.fixed
	}
	for _, k := range e.vars {
		v := &cols[k]
		switch {
		case w.spark && v.f.longDec: // 16 bytes, null or not
			for i := range sizes {
				sizes[i] += 16
			}
		case v.f.longDec:
			addLongDecimalSizes(v, sizes)
		case (v.f.kind == columnar.KindString || v.f.kind == columnar.KindBinary) && v.AllValid():
			offs := v.Offsets[:len(sizes)+1]
			for i := range sizes {
				sizes[i] += padTo8(int(offs[i+1] - offs[i]))
			}
		case v.f.kind == columnar.KindString || v.f.kind == columnar.KindBinary:
			offs := v.Offsets
			for i := range sizes {
				if v.IsValid(i) {
					sizes[i] += padTo8(int(offs[i+1] - offs[i]))
				}
			}
		case v.AllValid():
			for i := range sizes {
				w.row = i
				sizes[i] += padTo8(w.valueSize(v, i))
			}
		default:
			for i := range sizes {
				if v.IsValid(i) {
					w.row = i
					sizes[i] += padTo8(w.valueSize(v, i))
				}
			}
		}
	}
}

// valueSize is the size field of valid variable-width value j: the exact
// payload length, unpadded (Velox arrays of fixed-width elements are
// unpadded too; the owner pads its cursor).
func (w *encWalker) valueSize(v *encView, j int) int {
	switch v.f.kind {
	case columnar.KindString, columnar.KindBinary:
		return int(v.Offsets[j+1] - v.Offsets[j])
	case columnar.KindDecimal:
		lo, hi := v.decimalAt(j)
		return bigIntegerLen(lo, hi)
	case columnar.KindStruct:
		s := v.f.fixed
		for _, k := range v.f.varKids {
			s += w.fieldReserve(&v.kids[k], j)
		}
		return s
	case columnar.KindList:
		start, n := v.span(j)
		return w.arraySize(&v.kids[0], start, n)
	case columnar.KindMap:
		start, n := v.span(j)
		if v.kids[0].HasNulls(start, n) {
			w.fail(v.kids[0].f, fmt.Errorf("%w: null map key", rowbridge.ErrValue))
		}
		return 8 + w.arraySize(&v.kids[0], start, n) + w.arraySize(&v.kids[1], start, n)
	}
	return 0
}

// fieldReserve is how many bytes struct field value j takes in its owner's
// variable region.
func (w *encWalker) fieldReserve(v *encView, j int) int {
	if w.spark && v.f.longDec {
		return 16 // Spark reserves a full 16 bytes, even for a null
	}
	if !v.IsValid(j) {
		return 0
	}
	return padTo8(w.valueSize(v, j))
}

// arraySize is the size of the UnsafeArrayData holding elements
// [start, start+n) of v.
func (w *encWalker) arraySize(v *encView, start, n int) int {
	head := 8 + nullBitsetBytes(n)
	if !v.f.variable {
		s := head + n*v.f.elem
		if w.spark {
			s = padTo8(s)
		}
		return s
	}
	s := head + 8*n
	if n > 0 && v.AllValid() {
		switch {
		case v.f.kind == columnar.KindString || v.f.kind == columnar.KindBinary:
			offs := v.Offsets[start : start+n+1]
			for j := range n {
				s += padTo8(int(offs[j+1] - offs[j]))
			}
			return s
		case v.f.kind == columnar.KindList && !v.kids[0].f.variable:
			// Arrays of fixed-width elements: each one's size inline.
			es, offs := v.kids[0].f.elem, v.Offsets[start:start+n+1]
			for j := range n {
				m := int(offs[j+1] - offs[j])
				s += padTo8(8 + nullBitsetBytes(m) + m*es)
			}
			return s
		}
		for j := start; j < start+n; j++ {
			s += padTo8(w.valueSize(v, j))
		}
		return s
	}
	if v.f.kind == columnar.KindString || v.f.kind == columnar.KindBinary {
		for j := start; j < start+n; j++ {
			if v.IsValid(j) {
				s += padTo8(int(v.Offsets[j+1] - v.Offsets[j]))
			}
		}
		return s
	}
	for j := start; j < start+n; j++ {
		if v.IsValid(j) {
			s += padTo8(w.valueSize(v, j))
		}
	}
	return s
}

// span is the element range of list or map entry j.
func (v *encView) span(j int) (start, n int) {
	return int(v.Offsets[j]), int(v.Offsets[j+1] - v.Offsets[j])
}

// decimalAt reads decimal j as two's complement halves.
func (v *encView) decimalAt(j int) (lo uint64, hi int64) {
	b := v.Values[16*j : 16*j+16]
	return binary.LittleEndian.Uint64(b), int64(binary.LittleEndian.Uint64(b[8:]))
}
