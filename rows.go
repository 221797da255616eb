package rowbridge

import "slices"

// Rows is a batch of encoded rows laid end to end in one buffer, as the
// encoders produce them: row i is Data[Offsets[i]:Offsets[i+1]].
type Rows struct {
	Data    []byte
	Offsets []int // len(Offsets) == Len()+1 when non-empty
}

// Len is the number of rows.
func (r *Rows) Len() int {
	if len(r.Offsets) == 0 {
		return 0
	}
	return len(r.Offsets) - 1
}

// Row returns row i, aliasing Data.
func (r *Rows) Row(i int) []byte { return r.Data[r.Offsets[i]:r.Offsets[i+1]:r.Offsets[i+1]] }

// Slices returns every row as its own slice of Data (one allocation for the
// slice headers), the input shape the decoders' Decode takes. The decoders'
// DecodeRows takes r itself, with no allocation.
func (r *Rows) Slices() [][]byte { return r.AppendSlices(nil) }

// AppendSlices appends every row, as its own slice of Data, to dst and
// returns the extended slice.
func (r *Rows) AppendSlices(dst [][]byte) [][]byte {
	n := r.Len()
	dst = slices.Grow(dst, n)
	for i := range n {
		dst = append(dst, r.Row(i))
	}
	return dst
}

// Reset empties r, keeping its memory for reuse.
func (r *Rows) Reset() {
	r.Data = r.Data[:0]
	r.Offsets = r.Offsets[:0]
}
