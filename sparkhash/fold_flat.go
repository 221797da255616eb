package sparkhash

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// validity is an array's null bitmap and offset; bits is nil when the array
// has no nulls.
type validity struct {
	bits []byte
	off  int
}

func validOf(a arrow.Array) validity {
	if a.NullN() == 0 {
		return validity{}
	}
	return validity{a.NullBitmapBytes(), a.Data().Offset()}
}

func (v validity) ok(i int) bool { return v.bits == nil || bitutil.BitIsSet(v.bits, v.off+i) }

// foldArray folds column a into dst, one running hash per row. The type has
// been checked; flat types run as loops over the buffers.
func foldArray(dst []int32, a arrow.Array) {
	if len(dst) == 0 { // an empty array may lack its buffers
		return
	}
	switch a := a.(type) {
	case *array.Null:
	case *array.Boolean:
		foldBool(dst, a)
	case *array.Int8:
		foldInts(dst, a.Int8Values(), validOf(a))
	case *array.Int16:
		foldInts(dst, a.Int16Values(), validOf(a))
	case *array.Int32:
		foldInts(dst, a.Int32Values(), validOf(a))
	case *array.Date32:
		foldInts(dst, a.Date32Values(), validOf(a))
	case *array.Int64:
		foldLongs(dst, a.Int64Values(), validOf(a))
	case *array.Timestamp:
		foldLongs(dst, a.TimestampValues(), validOf(a))
	case *array.Float32:
		foldFloats(dst, a.Float32Values(), validOf(a))
	case *array.Float64:
		foldDoubles(dst, a.Float64Values(), validOf(a))
	case *array.Decimal32:
		foldLongs(dst, a.Values(), validOf(a)) // a short decimal is hashed as a long
	case *array.Decimal64:
		foldLongs(dst, a.Values(), validOf(a))
	case *array.Decimal128:
		foldDecimal128(dst, a)
	case *array.String:
		foldBytes(dst, a.ValueOffsets(), a.ValueBytes(), validOf(a))
	case *array.LargeString:
		foldBytes(dst, a.ValueOffsets(), a.ValueBytes(), validOf(a))
	case *array.Binary:
		foldBytes(dst, a.ValueOffsets(), a.ValueBytes(), validOf(a))
	case *array.LargeBinary:
		foldBytes(dst, a.ValueOffsets(), a.ValueBytes(), validOf(a))
	case *array.Struct:
		foldStruct(dst, a)
	default: // lists: per row
		v := validOf(a)
		for i := range dst {
			if v.ok(i) {
				dst[i] = hashAt(a, i, dst[i])
			}
		}
	}
}

func foldBool(dst []int32, a *array.Boolean) {
	vals := a.Data().Buffers()[1].Bytes()
	off := a.Data().Offset()
	v := validOf(a)
	for i := range dst {
		if v.ok(i) {
			var x int32
			if bitutil.BitIsSet(vals, off+i) {
				x = 1
			}
			dst[i] = HashInt(x, dst[i])
		}
	}
}

type smallInt interface{ ~int8 | ~int16 | ~int32 }

func foldInts[T smallInt](dst []int32, vals []T, v validity) {
	vals = vals[:len(dst)]
	if v.bits == nil {
		for i, x := range vals {
			dst[i] = HashInt(int32(x), dst[i])
		}
		return
	}
	for i, x := range vals {
		if bitutil.BitIsSet(v.bits, v.off+i) {
			dst[i] = HashInt(int32(x), dst[i])
		}
	}
}

func foldLongs[T ~int32 | ~int64](dst []int32, vals []T, v validity) {
	vals = vals[:len(dst)]
	if v.bits == nil {
		for i, x := range vals { // HashLong, inlined by hand (too big for the compiler)
			u := uint64(int64(x))
			h1 := mixH1(uint32(dst[i]), mixK1(uint32(u)))
			h1 = mixH1(h1, mixK1(uint32(u>>32)))
			dst[i] = int32(fmix(h1, 8))
		}
		return
	}
	for i, x := range vals {
		if bitutil.BitIsSet(v.bits, v.off+i) {
			dst[i] = HashLong(int64(x), dst[i])
		}
	}
}

func foldFloats(dst []int32, vals []float32, v validity) {
	vals = vals[:len(dst)]
	for i, x := range vals {
		if v.ok(i) {
			dst[i] = HashFloat32(x, dst[i])
		}
	}
}

func foldDoubles(dst []int32, vals []float64, v validity) {
	vals = vals[:len(dst)]
	for i, x := range vals {
		if v.ok(i) {
			dst[i] = HashFloat64(x, dst[i])
		}
	}
}

func foldDecimal128(dst []int32, a *array.Decimal128) {
	vals := a.Values()[:len(dst)]
	v := validOf(a)
	if a.DataType().(*arrow.Decimal128Type).Precision <= MaxLongDigits {
		for i, x := range vals {
			if v.ok(i) {
				dst[i] = HashLong(int64(x.LowBits()), dst[i])
			}
		}
		return
	}
	for i, x := range vals {
		if v.ok(i) {
			dst[i] = hashBigDecimal(x, dst[i])
		}
	}
}

// hashBigDecimal hashes the bytes of BigInteger.toByteArray() of the
// unscaled value.
func hashBigDecimal(x decimal128.Num, seed int32) int32 {
	var buf [16]byte
	return HashBytes(decimalBytes(x, &buf), seed)
}

// decimalBytes is BigInteger.toByteArray() of a 128-bit unscaled value:
// big-endian two's complement in as few bytes as keep the sign (0 is one
// byte 0x00, 128 is 0x00 0x80, -129 is 0xFF 0x7F). It slices buf.
func decimalBytes(x decimal128.Num, buf *[16]byte) []byte {
	binary.BigEndian.PutUint64(buf[:8], uint64(x.HighBits()))
	binary.BigEndian.PutUint64(buf[8:], x.LowBits())
	b := buf[:]
	for len(b) > 1 && ((b[0] == 0x00 && b[1]&0x80 == 0) || (b[0] == 0xff && b[1]&0x80 != 0)) {
		b = b[1:]
	}
	return b
}

func foldBytes[O int32 | int64](dst []int32, offs []O, data []byte, v validity) {
	base := offs[0]
	for i := range dst {
		if v.ok(i) {
			dst[i] = HashBytes(data[offs[i]-base:offs[i+1]-base], dst[i])
		}
	}
}

// foldStruct folds the fields column by column. A null struct row keeps
// its hash: the null rows' hashes are set aside before the fields fold and
// put back after.
func foldStruct(dst []int32, a *array.Struct) {
	nulls := a.NullN()
	if nulls == len(dst) {
		return
	}
	var kept []int32
	v := validOf(a)
	if nulls > 0 {
		kept = make([]int32, 0, nulls)
		for i, h := range dst {
			if !v.ok(i) {
				kept = append(kept, h)
			}
		}
	}
	for f := 0; f < a.NumField(); f++ {
		foldArray(dst, a.Field(f))
	}
	if nulls > 0 {
		k := 0
		for i := range dst {
			if !v.ok(i) {
				dst[i] = kept[k]
				k++
			}
		}
	}
}
