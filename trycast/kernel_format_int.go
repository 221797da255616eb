package trycast

import (
	"encoding/binary"
	"math"
	mathbits "math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Integers are cast to text (AppendInt's base 10, the same in every
// dialect) in two passes with no call per row: the first writes each
// row's offset from its text's length (intTextLen), so the data buffer is
// allocated once at its exact size, and the second writes each row's
// digits 8 at a time (eightDigits) straight into it, with 8-byte stores
// that may run past the row's end into the next row's place (which that
// row then overwrites) or into a few bytes of slack past the data.

// intStoreSlack is the room past the text that a row's last 8-byte store
// may touch: at most 7 bytes.
const intStoreSlack = 8

func formatInts[S int8 | int16 | int32 | int64](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	if to.ID() == arrow.LARGE_STRING {
		return formatIntsInto[S, int64](c, in, to)
	}
	return formatIntsInto[S, int32](c, in, to)
}

// formatIntsInto is formatInts for offsets O. It returns nil, with c.err
// set, when the text would pass what offsets O address.
func formatIntsInto[S int8 | int16 | int32 | int64, O offset](c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	n, valid, bit0 := in.Len(), validity(in), in.Offset()
	src := columnar.FixedValues[S](in)
	// The slack must fit an int too: on 386 an int32-offset output could
	// otherwise end a few bytes below 2^31 and its allocation wrap.
	limit := min(dataLimit[O](), math.MaxInt-intStoreSlack)
	var zero O
	offBuf := columnar.NewBuffer(c.mem, (n+1)*int(unsafe.Sizeof(zero)))
	offs := columnar.Cast[O](offBuf.Bytes())[:n+1]
	pos := 0
	for base := 0; base < n; base += 8 {
		m := min(8, n-base)
		mask := byte(1<<m - 1)
		if valid != nil {
			mask &= bitsAt(valid, bit0+base)
		}
		rows, at := src[base:base+m], offs[base:base+m]
		if mask == 0 { // only nulls: no text
			for j := range at {
				at[j] = O(pos)
			}
			continue
		}
		for j, v := range rows {
			at[j] = O(pos)
			k := intTextLen(int64(v)) & -int(mask>>j&1) // 0 for a null
			if k > limit-pos {
				offBuf.Release()
				c.overflow(base+j, limit, to)
				return nil
			}
			pos += k
		}
	}
	offs[n] = O(pos)
	dataBuf := columnar.NewBuffer(c.mem, pos+intStoreSlack)
	writeInts(dataBuf.Bytes(), src, offs)
	dataBuf.ResizeNoShrink(pos)
	bitsBuf, nulls := c.rowValidity(in, nil) // a text for every valid row: the input's nulls
	return columnar.NewBinaryData(to, n, bitsBuf, nulls, offBuf, dataBuf)
}

// intTextLen is the length of v's base-10 text: its digits and a '-'.
func intTextLen(v int64) int {
	neg := int(uint64(v) >> 63)
	return neg + decimalDigits(absInt(v))
}

// absInt is |v| (2^63 for the most negative int64), without a branch.
func absInt(v int64) uint64 {
	s := v >> 63
	return uint64((v ^ s) - s)
}

// decimalDigits is the count of base-10 digits of x (1 for 0): the bit
// length gives it to within one (1233/4096 is just above log10(2)), and
// one comparison with a power of ten settles it.
func decimalDigits(x uint64) int {
	x |= 1
	t := uint(mathbits.Len64(x)) * 1233 >> 12 // 0 to 19
	if x < digitBounds[t&31] {
		return int(t)
	}
	return int(t) + 1
}

// digitBounds[t] is 10^t for t <= 19, and pads the table to 32 entries
// so that an index masked by 31 needs no bounds check.
var digitBounds = func() (b [32]uint64) {
	copy(b[:], pow10u64[:])
	return b
}()

// writeInts writes row i's text (src[i] in base 10) at offs[i] in data,
// for each row whose text is not empty (a null row's is), skipping groups
// of 8 nulls at once. data has intStoreSlack bytes past offs[len(src)].
func writeInts[S int8 | int16 | int32 | int64, O offset](data []byte, src []S, offs []O) {
	for base := 0; base < len(src); base += 8 {
		m := min(8, len(src)-base)
		if offs[base] == offs[base+m] {
			continue
		}
		writeIntGroup(data, src[base:base+m], offs[base:base+m+1])
	}
}

// writeIntGroup is writeInts for up to 8 rows.
func writeIntGroup[S int8 | int16 | int32 | int64, O offset](data []byte, src []S, offs []O) {
	offs = offs[:len(src)+1]
	for i, s := range src {
		p, end := int(offs[i]), int(offs[i+1])
		if p == end {
			continue // null
		}
		v := int64(s)
		x := absInt(v)
		// The '-' is always stored; the digits overwrite it when v >= 0.
		data[p] = '-'
		p += int(uint64(v) >> 63)
		k := uint(end - p) // digits
		switch {
		case x < 1e8:
			binary.LittleEndian.PutUint64(data[p:], eightDigits(x)>>(8*(8-k)&63))
		case x < 1e16:
			hi, lo := x/1e8, x%1e8
			binary.LittleEndian.PutUint64(data[p:], eightDigits(hi)>>(8*(16-k)&63))
			binary.LittleEndian.PutUint64(data[end-8:], eightDigits(lo))
		default:
			top, mid, lo := x/1e16, x/1e8%1e8, x%1e8
			binary.LittleEndian.PutUint64(data[p:], eightDigits(top)>>(8*(24-k)&63))
			binary.LittleEndian.PutUint64(data[end-16:], eightDigits(mid))
			binary.LittleEndian.PutUint64(data[end-8:], eightDigits(lo))
		}
	}
}

// eightDigits is the 8 ASCII digits of x < 10^8, leading zeros included,
// its first digit in the lowest byte (as stored little-endian). The
// number is split in halves, each half in two, and each quarter in two
// again, every split done on all the parts at once in one word: a
// multiply and a shift divide each part exactly (x*5243>>19 is x/100 for
// x < 10^4, x*103>>10 is x/10 for x < 100), and the parts never carry
// into each other.
func eightDigits(x uint64) uint64 {
	w := x/10000 | x%10000<<32 // two 32-bit parts below 10^4
	q := (w * 5243 >> 19) & 0x0000007F0000007F
	w = q | (w-q*100)<<16 // four 16-bit parts below 100
	q = (w * 103 >> 10) & 0x000F000F000F000F
	w = q | (w-q*10)<<8 // eight digits
	return w + 0x3030303030303030
}
