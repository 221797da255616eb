//go:build linux

package testgen

import (
	"os"
	"syscall"
)

// NewGuarded makes n slots of size bytes each, every one followed by an
// unreadable page.
func NewGuarded(n, size int) (*Guarded, error) {
	page := os.Getpagesize()
	usable := (max(size, 1) + page - 1) / page * page
	stride := usable + page
	m, err := syscall.Mmap(-1, 0, n*stride, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, err
	}
	g := &Guarded{Faults: true, unmap: func() { _ = syscall.Munmap(m) }}
	for i := range n {
		base := i * stride
		if err := syscall.Mprotect(m[base+usable:base+stride], syscall.PROT_NONE); err != nil {
			_ = syscall.Munmap(m)
			return nil, err
		}
		g.regions = append(g.regions, m[base:base+usable:base+usable])
	}
	return g, nil
}
