package main

import (
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// appendDecimal128 appends v at the given scale as exact number text:
// the unscaled digits with the point scale places from their end (zeros
// added for a negative scale), as arrow-go's Num.ToString writes it. That
// method is not used: it reads the value through big.Words it takes to be
// 64 bits, which on 32-bit machines drops the high half of each word.
func appendDecimal128(dst []byte, v decimal128.Num, scale int32) []byte {
	digits := columnar.Int128String(v.HighBits(), v.LowBits())
	if digits[0] == '-' {
		dst = append(dst, '-')
		digits = digits[1:]
	}
	if scale <= 0 {
		dst = append(dst, digits...)
		if digits != "0" {
			for range -scale {
				dst = append(dst, '0')
			}
		}
		return dst
	}
	places := int(scale)
	if len(digits) <= places {
		dst = append(dst, "0."...)
		for range places - len(digits) {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	at := len(digits) - places
	dst = append(dst, digits[:at]...)
	dst = append(dst, '.')
	return append(dst, digits[at:]...)
}
