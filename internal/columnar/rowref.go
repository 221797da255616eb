package columnar

import "unsafe"

// RowRef is one input row of a batch a decoder reads. A RowRef is exactly
// a []byte, so that the rows a decoder is handed one slice each are read
// in place (RowRefs), and the rows of one buffer plus offsets
// (rowbridge.Rows) are located in one pass over the offsets (RefsOf);
// either way the decoder's loops see one dense []RowRef. The loops over
// the top-level rows load only each row's start from it (LoadFixed), not
// its length, and check nothing per value.
type RowRef struct{ b []byte }

// RefOf is the RowRef of row b.
func RefOf(b []byte) RowRef { return RowRef{b: b} }

// RowRefs views rows as RowRefs, without a copy (they share one memory
// layout).
func RowRefs(rows [][]byte) []RowRef {
	return unsafe.Slice((*RowRef)(unsafe.Pointer(unsafe.SliceData(rows))), len(rows))
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
	lo := uint(offs[0]) // a negative offset is huge
	for i := range refs {
		hi := uint(offs[i+1])
		if lo > hi || hi > uint(len(data)) {
			return i
		}
		// The full slice expression gives an empty row at the end of
		// data data's own start, not a pointer past its end.
		refs[i] = RowRef{b: data[lo:hi:hi]}
		lo = hi
	}
	return -1
}

// Len is the row's length in bytes.
func (r RowRef) Len() int { return len(r.b) }

// Bytes is the row, aliasing the input.
func (r RowRef) Bytes() []byte { return r.b }

// LoadFixed reads the little-endian T at byte off of row r (see Load)
// without a bounds check, loading only the row's start.
//
// The invariant that makes it safe: off+sizeof(T) lies inside the fixed
// part (null bitset and 8-byte slots) of a struct of row r whose size has
// already been checked to hold that fixed part. The UnsafeRow decoder
// checks every top-level row against its fixed part (rowSpans) and every
// valid nested struct against its own (decodeStruct) before any of its
// fields is read, and reads only null bits, slots and bitset words of
// those structs through here; everything behind an offset/size word is
// read through Bytes, with checks.
func LoadFixed[T Word](r RowRef, off int) T { return LoadUnchecked[T](r.b, off) }

// LoadUnchecked reads the little-endian T at byte off of b (see Load)
// without a bounds check: the one unchecked load of the decoders, for
// loops whose caller has proven 0 <= off and off+sizeof(T) <= len(b)
// once, before the loop, and says how beside the call.
func LoadUnchecked[T Word](b []byte, off int) T {
	return *(*T)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), off))
}
