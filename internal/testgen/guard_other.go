//go:build !linux

package testgen

// NewGuarded makes n slots of size bytes each. Without mmap guard pages
// here, a slot is a heap slice of exactly size bytes (Faults is false).
func NewGuarded(n, size int) (*Guarded, error) {
	g := &Guarded{}
	for range n {
		g.regions = append(g.regions, make([]byte, size))
	}
	return g, nil
}
