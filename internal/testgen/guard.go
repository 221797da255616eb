package testgen

// Guarded hands out copies of byte slices that end exactly where readable
// memory ends, so that a decoder reading a row past its length (through an
// unchecked load) is caught: on Linux each copy is placed at the end of its
// own mapping, right before a page mapped PROT_NONE, and an overread
// faults (set debug.SetPanicOnFault to turn the fault into a panic a test
// can recover); elsewhere each copy is an exact-capacity heap slice, which
// only stops overreads through slicing. Faults says which.
type Guarded struct {
	regions [][]byte // readable bytes of each slot, a guard page after each
	unmap   func()
	Faults  bool
}

// Put copies b to the end of slot i, whose previous copy it overwrites,
// and returns the copy, whose capacity is its length. b must fit the slot
// size given to NewGuarded.
func (g *Guarded) Put(i int, b []byte) []byte {
	r := g.regions[i]
	if len(b) > len(r) {
		panic("testgen: Guarded.Put of more bytes than the slot holds")
	}
	dst := r[len(r)-len(b) : len(r) : len(r)]
	copy(dst, b)
	return dst
}

// PutAll is Put of rows[i] into slot i, for every row.
func (g *Guarded) PutAll(rows [][]byte) [][]byte {
	out := make([][]byte, len(rows))
	for i, r := range rows {
		out[i] = g.Put(i, r)
	}
	return out
}

// Slots is the number of slots.
func (g *Guarded) Slots() int { return len(g.regions) }

// Close releases the slots; copies handed out must not be used after it.
func (g *Guarded) Close() {
	if g.unmap != nil {
		g.unmap()
	}
	g.regions = nil
}
