package arrowconv

import (
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// The fixed-width conversions read the value buffer of d's entries and
// write a fresh one; the validity bitmap is shared (or moved to offset 0).
// Checks for lossy values are folded into the conversion loop as one
// flag, so that a batch of good values pays no branch per value; only when
// the flag is set does firstBad look for the failing row.

func values[T arrow.FixedWidthType](d arrow.ArrayData) []T {
	if d.Len() == 0 {
		return nil
	}
	b := d.Buffers()[1].Bytes()
	return arrow.GetData[T](b)[d.Offset() : d.Offset()+d.Len()]
}

// fixedOut allocates the value buffer of n values of T.
func fixedOut[T arrow.FixedWidthType](c *conv, n int) (*memory.Buffer, []T) {
	var zero T
	b := c.alloc(n * int(unsafe.Sizeof(zero)))
	return b, arrow.GetData[T](b.Bytes())[:n]
}

// finish builds the output array data of type n.out from d's validity and
// the new value buffer.
func (c *conv) finish(n *node, d arrow.ArrayData, vals *memory.Buffer) arrow.ArrayData {
	valid, nulls := c.validity(d)
	return columnar.NewFixedData(n.out, d.Len(), valid, nulls, vals)
}

func widen[S uint8 | uint16 | uint32, T int16 | int32 | int64](c *conv, n *node, d arrow.ArrayData) arrow.ArrayData {
	in := values[S](d)
	buf, out := fixedOut[T](c, len(in))
	for i, v := range in {
		out[i] = T(v)
	}
	return c.finish(n, d, buf)
}

func (c *conv) uint64s(n *node, d arrow.ArrayData) arrow.ArrayData {
	in := values[uint64](d)
	buf, out := fixedOut[uint64](c, 2*len(in))
	for i, v := range in {
		out[2*i] = v // low word; the high word stays zero
	}
	return c.finish(n, d, buf)
}

func (c *conv) float16s(n *node, d arrow.ArrayData) arrow.ArrayData {
	in := values[float16.Num](d)
	buf, out := fixedOut[float32](c, len(in))
	for i, v := range in {
		out[i] = v.Float32()
	}
	return c.finish(n, d, buf)
}

func (c *conv) decimal32s(n *node, d arrow.ArrayData) arrow.ArrayData {
	in := values[int32](d)
	buf, out := fixedOut[int64](c, 2*len(in))
	for i, v := range in {
		out[2*i], out[2*i+1] = int64(v), int64(v)>>63
	}
	return c.finish(n, d, buf)
}

func (c *conv) decimal64s(n *node, d arrow.ArrayData) arrow.ArrayData {
	in := values[int64](d)
	buf, out := fixedOut[int64](c, 2*len(in))
	for i, v := range in {
		out[2*i], out[2*i+1] = v, v>>63
	}
	return c.finish(n, d, buf)
}

// decimal256s keeps the low 128 bits of values whose upper words are the
// sign extension of bit 127; any other value does not fit decimal128.
// (Values that fit 128 bits but not the 38 digits of precision are caught
// by the encoders' precision check.)
func (c *conv) decimal256s(n *node, d arrow.ArrayData, sc *scope) (arrow.ArrayData, error) {
	var in []uint64 // 4 words per value, little-endian
	m := d.Len()
	if d.Len() > 0 {
		in = arrow.GetData[uint64](d.Buffers()[1].Bytes())[4*d.Offset() : 4*(d.Offset()+m)]
	}
	buf, out := fixedOut[uint64](c, 2*m)
	var bad uint64
	for i := range m {
		w := in[4*i : 4*i+4 : 4*i+4]
		out[2*i], out[2*i+1] = w[0], w[1]
		ext := uint64(int64(w[1]) >> 63)
		bad |= (w[2] ^ ext) | (w[3] ^ ext)
	}
	if bad != 0 {
		j, r := firstBad(d, sc, func(j int) bool {
			w := in[4*j : 4*j+4]
			ext := uint64(int64(w[1]) >> 63)
			return w[2] != ext || w[3] != ext
		})
		if j >= 0 {
			buf.Release()
			w := [4]uint64(in[4*j : 4*j+4])
			v := columnar.AppendDecimal256(nil, w, d.DataType().(*arrow.Decimal256Type).Scale)
			return nil, valueError(r, n.path, "%s value %s has more than 38 digits", n.in, v)
		}
	}
	return c.finish(n, d, buf), nil
}

// perUnit is how many of each unit make a microsecond (divisors) or how many
// microseconds make one (multipliers).
func unitScale(u arrow.TimeUnit) (mul, div int64) {
	switch u {
	case arrow.Second:
		return 1_000_000, 1
	case arrow.Millisecond:
		return 1_000, 1
	case arrow.Nanosecond:
		return 1, 1_000
	}
	return 1, 1
}

func (c *conv) timestamps(n *node, d arrow.ArrayData, sc *scope) (arrow.ArrayData, error) {
	unit := n.in.(*arrow.TimestampType).Unit
	in := values[int64](d)
	buf, out := fixedOut[int64](c, len(in))
	mul, div := unitScale(unit)
	if div > 1 {
		var rem int64
		for i, v := range in {
			q, r := v/div, v%div
			if r < 0 {
				q-- // floor, as Spark's Math.floorDiv
			}
			out[i] = q
			rem |= r
		}
		if rem != 0 && !c.truncate {
			if j, r := firstBad(d, sc, func(j int) bool { return in[j]%div != 0 }); j >= 0 {
				buf.Release()
				return nil, valueError(r, n.path, "%s value %d is not a whole number of microseconds (truncation, --truncate in the CLI, rounds it down)", n.in, in[j])
			}
		}
		return c.finish(n, d, buf), nil
	}
	lim := math.MaxInt64 / mul
	over := false
	for i, v := range in {
		out[i] = v * mul
		over = over || v > lim || v < -lim
	}
	if over {
		if j, r := firstBad(d, sc, func(j int) bool { return in[j] > lim || in[j] < -lim }); j >= 0 {
			buf.Release()
			return nil, valueError(r, n.path, "%s value %d is out of the range of microseconds since the epoch in 64 bits", n.in, in[j])
		}
	}
	return c.finish(n, d, buf), nil
}

const msPerDay = 86_400_000

func (c *conv) date64s(n *node, d arrow.ArrayData, sc *scope) (arrow.ArrayData, error) {
	in := values[int64](d)
	buf, out := fixedOut[int32](c, len(in))
	var rem int64
	over := false
	for i, v := range in {
		q, r := v/msPerDay, v%msPerDay
		if r < 0 {
			q--
		}
		out[i] = int32(q)
		rem |= r
		over = over || q != int64(int32(q))
	}
	if over {
		if j, r := firstBad(d, sc, func(j int) bool {
			q := math.Floor(float64(in[j]) / msPerDay)
			return q > math.MaxInt32 || q < math.MinInt32
		}); j >= 0 {
			buf.Release()
			return nil, valueError(r, n.path, "date64 value %d is beyond the days a date32 holds", in[j])
		}
	}
	if rem != 0 && !c.truncate {
		if j, r := firstBad(d, sc, func(j int) bool { return in[j]%msPerDay != 0 }); j >= 0 {
			buf.Release()
			return nil, valueError(r, n.path, "date64 value %d is not a midnight (truncation, --truncate in the CLI, drops the time of day)", in[j])
		}
	}
	return c.finish(n, d, buf), nil
}
