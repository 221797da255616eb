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

// RefsOf fills refs with the rows of data at offs (row i is
// data[offs[i]:offs[i+1]]), which the caller has checked to be ranges of
// data, in order, and returns the rows' count.
func RefsOf(refs []RowRef, data []byte, offs []int) int {
	if len(offs) < 2 {
		return 0
	}
	refs = refs[:len(offs)-1]
	for i := range refs {
		lo, hi := offs[i], offs[i+1]
		// data[lo:hi:hi] of an empty row keeps data's base pointer rather
		// than pointing past the end of data.
		refs[i] = RefOf(data[lo:hi:hi])
	}
	return len(refs)
}

// Len is the row's length in bytes.
func (r RowRef) Len() int { return r.n }

// Bytes is the row, aliasing the input.
func (r RowRef) Bytes() []byte { return unsafe.Slice(r.p, r.n) }

// LoadFixed reads the little-endian T at byte off of row r (see Load)
// without a bounds check.
//
// The invariant that makes it safe: the caller has checked, once for the
// whole batch, that every row is at least fixed bytes long, and off is a
// constant position of the row's fixed part (a null bit's byte, or an
// 8-byte slot) with off+sizeof(T) <= fixed. The UnsafeRow decoder's
// rowSpans checks every row against its null bitset plus one slot per
// field before any column is read, and only reads at those positions of
// the top-level rows go through here; everything past the fixed part (the
// values behind offset/size words) is read through Bytes, with checks.
func LoadFixed[T Word](r RowRef, off int) T {
	return *(*T)(unsafe.Add(unsafe.Pointer(r.p), off))
}
