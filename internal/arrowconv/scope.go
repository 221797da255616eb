package arrowconv

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
)

// scope maps the indices of an array being converted to the rows of the
// batch, for error messages: through each enclosing list, map, struct or
// dictionary up to the top-level column. Only a value some row reaches
// through valid parents can fail a conversion (a value under a null parent,
// or outside every list's range, is never read by the encoders).
type scope struct {
	up *scope
	// owner maps an index to its index in the parent array, false when
	// no valid parent entry holds it; nil at the top level.
	owner func(j int) (int, bool)
}

// row is the batch row that index j belongs to, or -1 when no row reaches it.
func (s *scope) row(j int) int {
	for ; s != nil && s.owner != nil; s = s.up {
		i, ok := s.owner(j)
		if !ok {
			return -1
		}
		j = i
	}
	return j
}

// firstBad returns the first index j < n that is valid in d, bad(j), and
// reached by a row; its row; or -1, -1. It runs only once a kernel has seen
// that some value is bad.
func firstBad(d arrow.ArrayData, sc *scope, bad func(j int) bool) (int, int) {
	valid := validBits(d)
	off := d.Offset()
	for j := range d.Len() {
		if valid != nil && !bitutil.BitIsSet(valid, off+j) {
			continue
		}
		if bad(j) {
			if r := sc.row(j); r >= 0 {
				return j, r
			}
		}
	}
	return -1, -1
}

// valueError is the error for row r of field path.
func valueError(r int, path, format string, args ...any) error {
	return &rowbridge.EncodeError{Row: r, Field: path, Err: fmt.Errorf("%w: "+format, append([]any{rowbridge.ErrValue}, args...)...)}
}

// validBits is d's validity bitmap, nil when d has no nulls.
func validBits(d arrow.ArrayData) []byte {
	b := d.Buffers()[0]
	if b == nil || d.NullN() == 0 {
		return nil
	}
	return b.Bytes()
}

// isValid reports whether entry j of d is valid.
func isValid(d arrow.ArrayData, j int) bool {
	v := validBits(d)
	return v == nil || bitutil.BitIsSet(v, d.Offset()+j)
}

// validity returns d's validity bitmap moved to offset 0 (shared when it
// already is there) and the null count, for an output of d.Len() entries.
func (c *conv) validity(d arrow.ArrayData) (*memory.Buffer, int) {
	b := d.Buffers()[0]
	nulls := d.NullN()
	if b == nil || nulls == 0 {
		return nil, 0
	}
	if d.Offset() == 0 {
		b.Retain()
		return b, nulls
	}
	out := memory.NewResizableBuffer(c.mem)
	out.Resize(int(bitutil.BytesForBits(int64(d.Len()))))
	bitutil.CopyBitmap(b.Bytes(), d.Offset(), d.Len(), out.Bytes(), 0)
	return out, nulls
}

// alloc returns a zeroed buffer of n bytes.
func (c *conv) alloc(n int) *memory.Buffer {
	b := memory.NewResizableBuffer(c.mem)
	b.Resize(n)
	clear(b.Bytes())
	return b
}
