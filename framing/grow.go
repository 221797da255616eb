package framing

import (
	"io"
	"slices"
)

// growStep is the least a buffer grows by while bytes arrive.
const growStep = 64 << 10

// appendRead appends exactly n bytes from r to dst. The buffer grows with
// the bytes that actually arrive (doubling, from growStep), never by n at
// once, so a hostile size costs memory only as its bytes are delivered. On a
// short read it returns what arrived and io.ErrUnexpectedEOF (or r's error).
func appendRead(dst []byte, r io.Reader, n int) ([]byte, error) {
	for n > 0 {
		if len(dst) == cap(dst) {
			dst = slices.Grow(dst, min(n, max(len(dst), growStep)))
		}
		chunk := min(n, cap(dst)-len(dst))
		m, err := io.ReadFull(r, dst[len(dst):len(dst)+chunk])
		dst = dst[:len(dst)+m]
		n -= m
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return dst, err
		}
	}
	return dst, nil
}
