package columnar

import "unsafe"

// RowRef locates one input row: its first byte and its length. A decoder
// keeps the rows of a batch as one dense []RowRef, whether they came as
// one slice each or as one buffer plus offsets (rowbridge.Rows), so that
// its loops over the top-level rows load one pointer a row rather than a
// slice header.
type RowRef struct {
	p *byte // never past the row's memory: for an empty row, its slice's base
	n int
}

// RefOf is the RowRef of row b.
func RefOf(b []byte) RowRef { return RowRef{p: unsafe.SliceData(b), n: len(b)} }

// SliceRefs fills refs, of len(rows) entries at least, with the RowRefs
// of rows.
func SliceRefs(refs []RowRef, rows [][]byte) {
	refs = refs[:len(rows)]
	for i, r := range rows {
		refs[i] = RefOf(r)
	}
}

// RefsOf fills refs, of len(offs)-1 entries at least, with the rows of
// data at offs (row i is data[offs[i]:offs[i+1]]), checking as it goes
// that each is a range of data that starts where the previous one ended:
// it returns the index of the first row that is not (-1 when all are,
// and 0 for a lone offset outside data), and the caller builds the error.
func RefsOf(refs []RowRef, data []byte, offs []int) (bad int) {
	if len(offs) < 2 {
		if len(offs) == 1 && uint(offs[0]) > uint(len(data)) {
			return 0
		}
		return -1
	}
	refs = refs[:len(offs)-1]
	offs = offs[:len(refs)+1]
	base, n := unsafe.Pointer(unsafe.SliceData(data)), uint(len(data))
	lo := uint(offs[0]) // a negative offset is huge
	for i := range refs {
		hi := uint(offs[i+1])
		if lo > hi || hi > n {
			return i
		}
		at := lo
		if lo == n { // an empty row at the end: point inside data, not past it
			at = 0
		}
		refs[i] = RowRef{p: (*byte)(unsafe.Add(base, at)), n: int(hi - lo)}
		lo = hi
	}
	return -1
}

// Len is the row's length in bytes.
func (r RowRef) Len() int { return r.n }

// Bytes is the row, aliasing the input.
func (r RowRef) Bytes() []byte { return unsafe.Slice(r.p, r.n) }

// LoadFixed reads the little-endian T at byte off of row r (see Load)
// without a bounds check.
//
// The invariant that makes it safe: off+sizeof(T) lies inside the fixed
// part (null bitset and 8-byte slots) of a struct of row r whose size has
// already been checked to hold that fixed part. The UnsafeRow decoder
// checks every top-level row against its fixed part (rowSpans) and every
// valid nested struct against its own (decodeStruct) before any of its
// fields is read, and reads only null bits, slots and bitset words of
// those structs through here; everything behind an offset/size word is
// read through Bytes, with checks.
func LoadFixed[T Word](r RowRef, off int) T {
	return *(*T)(unsafe.Add(unsafe.Pointer(r.p), off))
}
