package rowbridge

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
// slice headers), the input shape the decoders take.
func (r *Rows) Slices() [][]byte {
	out := make([][]byte, r.Len())
	for i := range out {
		out[i] = r.Row(i)
	}
	return out
}

// Reset empties r, keeping its memory for reuse.
func (r *Rows) Reset() {
	r.Data = r.Data[:0]
	r.Offsets = r.Offsets[:0]
}
