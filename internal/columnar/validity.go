package columnar

import (
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Validity assembles an Arrow validity bitmap for n entries. The bitmap is
// allocated at the first null only, so a column without nulls costs nothing
// and carries no validity buffer.
type Validity struct {
	mem  memory.Allocator
	n    int
	buf  *memory.Buffer
	bits []byte
}

// Reset prepares v for n entries, all valid.
func (v *Validity) Reset(mem memory.Allocator, n int) {
	v.Release()
	*v = Validity{mem: mem, n: n}
}

// SetNull marks entry i null; marking an entry twice changes nothing.
// It is small enough to inline into the decoders' loops, so a null costs
// a clear of its bit and no call (the bitmap's allocation, at the first
// null, is the call); the nulls are counted once, when the bitmap is
// finished.
func (v *Validity) SetNull(i int) {
	if v.bits == nil {
		v.allocate()
	}
	v.bits[i>>3] &^= 1 << (i & 7)
}

// allocate makes the bitmap, every entry valid.
func (v *Validity) allocate() {
	v.buf = NewBuffer(v.mem, int(bitutil.BytesForBits(int64(v.n))))
	v.bits = v.buf.Bytes()
	for j := range v.bits {
		v.bits[j] = 0xff
	}
}

// IsNull reports whether entry i was marked null.
func (v *Validity) IsNull(i int) bool {
	return v.bits != nil && v.bits[i>>3]&(1<<(i&7)) == 0
}

// NullCount is the number of entries marked null.
func (v *Validity) NullCount() int {
	if v.bits == nil {
		return 0
	}
	return v.n - bitutil.CountSetBits(v.bits, 0, v.n)
}

// Len is the number of entries.
func (v *Validity) Len() int { return v.n }

// Bits is the bitmap so far (nil while every entry is valid).
func (v *Validity) Bits() []byte { return v.bits }

// Finish hands over the bitmap (nil when there were no nulls) and its null
// count; v is empty afterwards.
func (v *Validity) Finish() (*memory.Buffer, int) {
	buf, nulls := v.buf, v.NullCount()
	*v = Validity{}
	return buf, nulls
}

// Release frees a bitmap that was never finished.
func (v *Validity) Release() {
	if v.buf != nil {
		v.buf.Release()
	}
	*v = Validity{}
}
