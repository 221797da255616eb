package trycast

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Numeric, bool and decimal sources. These loops use a per-row closure:
// they are not on the benchmark's hot path, and one generic loop per
// target layout keeps the pairs readable.

// numericTarget reports whether a numeric, bool or decimal source can be
// cast to to.
func numericTarget(to arrow.DataType) bool {
	switch to.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.BOOL, arrow.DECIMAL128:
		return true
	}
	return stringTarget(to)
}

// mapFixed casts a fixed-width input of S to a fixed-width output of T.
func mapFixed[S, T any](c *caster, in arrow.ArrayData, to arrow.DataType, conv func(S) (T, bool)) arrow.ArrayData {
	n := in.Len()
	src := columnar.FixedValues[S](in)
	valid := validity(in)
	o := newFixedOut[T](c.mem, n)
	if valid != nil {
		o.zeroValues()
	}
	vals := o.vals
	fillRows(n, valid, in.Offset(), o.validity, func(i int) bool {
		v, ok := conv(src[i])
		vals[i] = v
		return ok
	})
	return o.finish(to, n)
}

// mapFixedToBool casts a fixed-width input to bool; it never fails.
func mapFixedToBool[S any](c *caster, in arrow.ArrayData, to arrow.DataType, conv func(S) bool) arrow.ArrayData {
	n := in.Len()
	src := columnar.FixedValues[S](in)
	bits, values := newBoolOut(c.mem, n)
	fillBoolRows(n, validity(in), in.Offset(), bits.Bytes(), values.Bytes(), func(i int) (bool, bool) {
		return conv(src[i]), true
	})
	return finishFixed(to, n, bits, values)
}

// mapBools casts a bool input to a fixed-width output of T.
func mapBools[T any](c *caster, in arrow.ArrayData, to arrow.DataType, conv func(bool) (T, bool)) arrow.ArrayData {
	n, off := in.Len(), in.Offset()
	var src []byte
	if b := in.Buffers()[1]; b != nil {
		src = b.Bytes()
	}
	valid := validity(in)
	o := newFixedOut[T](c.mem, n)
	if valid != nil {
		o.zeroValues()
	}
	vals := o.vals
	fillRows(n, valid, off, o.validity, func(i int) bool {
		v, ok := conv(bitutil.BitIsSet(src, off+i))
		vals[i] = v
		return ok
	})
	return o.finish(to, n)
}

func fromInts[S int8 | int16 | int32 | int64](to arrow.DataType) kernel {
	if !numericTarget(to) {
		return nil
	}
	return func(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
		switch to.ID() {
		case arrow.INT8:
			return narrowInts[S, int8](c, in, to)
		case arrow.INT16:
			return narrowInts[S, int16](c, in, to)
		case arrow.INT32:
			return narrowInts[S, int32](c, in, to)
		case arrow.INT64:
			return narrowInts[S, int64](c, in, to)
		case arrow.FLOAT32:
			return mapFixed(c, in, to, func(v S) (float32, bool) { return float32(v), true })
		case arrow.FLOAT64:
			return mapFixed(c, in, to, func(v S) (float64, bool) { return float64(v), true })
		case arrow.BOOL:
			return mapFixedToBool(c, in, to, func(v S) bool { return v != 0 })
		case arrow.DECIMAL128:
			return intsToDecimals[S](c, in, to.(*arrow.Decimal128Type))
		}
		return formatInts[S](c, in, to)
	}
}

// intTarget runs an int64-valued conversion into the integer type of to.
func intTarget[S any](c *caster, in arrow.ArrayData, to arrow.DataType, conv func(S) (int64, bool)) arrow.ArrayData {
	switch intWidth(to) {
	case 8:
		return mapFixed(c, in, to, narrow[S, int8](conv))
	case 16:
		return mapFixed(c, in, to, narrow[S, int16](conv))
	case 32:
		return mapFixed(c, in, to, narrow[S, int32](conv))
	}
	return mapFixed(c, in, to, narrow[S, int64](conv))
}

func narrow[S any, T int8 | int16 | int32 | int64](conv func(S) (int64, bool)) func(S) (T, bool) {
	return func(v S) (T, bool) {
		r, ok := conv(v)
		if !ok {
			return 0, false
		}
		return T(r), true
	}
}

func fromFloats[S float32 | float64](to arrow.DataType) kernel {
	if !numericTarget(to) {
		return nil
	}
	// A real source has its own rules for integer bounds and decimal digits.
	real := unsafe.Sizeof(S(0)) == 4
	return func(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
		d := c.d
		switch to.ID() {
		case arrow.INT8:
			return floatsToInts[S, int8](c, in, to, real)
		case arrow.INT16:
			return floatsToInts[S, int16](c, in, to, real)
		case arrow.INT32:
			return floatsToInts[S, int32](c, in, to, real)
		case arrow.INT64:
			return floatsToInts[S, int64](c, in, to, real)
		case arrow.FLOAT32:
			return mapFixed(c, in, to, func(v S) (float32, bool) { return DoubleToReal(float64(v), d) })
		case arrow.FLOAT64:
			return mapFixed(c, in, to, func(v S) (float64, bool) { return float64(v), true })
		case arrow.BOOL:
			return mapFixedToBool(c, in, to, func(v S) bool { return FloatToBool(float64(v), d) })
		case arrow.DECIMAL128:
			dt := to.(*arrow.Decimal128Type)
			if real {
				return mapFixed(c, in, to, func(v S) (decimal128.Num, bool) {
					return Float32ToDecimal(float32(v), dt.Precision, dt.Scale, d)
				})
			}
			return mapFixed(c, in, to, func(v S) (decimal128.Num, bool) {
				return FloatToDecimal(float64(v), dt.Precision, dt.Scale, d)
			})
		}
		bits := 64
		if real {
			bits = 32
		}
		return formatFixed(c, in, to, maxFloatText, func(dst []byte, v S) ([]byte, bool) {
			return AppendFloat(dst, float64(v), bits, d), true
		})
	}
}

func fromBools(to arrow.DataType) kernel {
	if !numericTarget(to) {
		return nil
	}
	return func(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
		d := c.d
		switch to.ID() {
		case arrow.INT8:
			return mapBools(c, in, to, func(v bool) (int8, bool) { return int8(b2i(v)), true })
		case arrow.INT16:
			return mapBools(c, in, to, func(v bool) (int16, bool) { return int16(b2i(v)), true })
		case arrow.INT32:
			return mapBools(c, in, to, func(v bool) (int32, bool) { return int32(b2i(v)), true })
		case arrow.INT64:
			return mapBools(c, in, to, func(v bool) (int64, bool) { return b2i(v), true })
		case arrow.FLOAT32:
			return mapBools(c, in, to, func(v bool) (float32, bool) { return float32(b2i(v)), true })
		case arrow.FLOAT64:
			return mapBools(c, in, to, func(v bool) (float64, bool) { return float64(b2i(v)), true })
		case arrow.DECIMAL128:
			dt := to.(*arrow.Decimal128Type)
			return mapBools(c, in, to, func(v bool) (decimal128.Num, bool) {
				return IntToDecimal(b2i(v), dt.Precision, dt.Scale, d)
			})
		}
		return formatBools(c, in, to)
	}
}

func b2i(v bool) int64 {
	if v {
		return 1
	}
	return 0
}

func fromDecimals(from *arrow.Decimal128Type, to arrow.DataType) kernel {
	if !numericTarget(to) {
		return nil
	}
	scale := from.Scale
	return func(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
		d := c.d
		if w := intWidth(to); w != 0 {
			return intTarget(c, in, to, func(v decimal128.Num) (int64, bool) { return DecimalToInt(v, scale, w, d) })
		}
		switch to.ID() {
		case arrow.FLOAT32:
			return mapFixed(c, in, to, func(v decimal128.Num) (float32, bool) { return DecimalToFloat32(v, scale), true })
		case arrow.FLOAT64:
			return decimalsToDoubles(c, in, to, scale)
		case arrow.BOOL:
			return mapFixedToBool(c, in, to, func(v decimal128.Num) bool { return v.Sign() != 0 })
		case arrow.DECIMAL128:
			dt := to.(*arrow.Decimal128Type)
			return mapFixed(c, in, to, func(v decimal128.Num) (decimal128.Num, bool) {
				return DecimalToDecimal(v, scale, dt.Precision, dt.Scale, d)
			})
		}
		return formatFixed(c, in, to, maxDecimalText, func(dst []byte, v decimal128.Num) ([]byte, bool) {
			return AppendDecimal(dst, v, scale, d), true
		})
	}
}
