package trycast

import (
	"math"
	"strconv"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// The Append functions render a value as the dialect's cast to varchar
// does, appending to dst; they allocate only if dst must grow.

// AppendInt appends v in base 10 (the same in every dialect).
func AppendInt(dst []byte, v int64, d Dialect) []byte {
	return strconv.AppendInt(dst, v, 10)
}

// AppendBool appends "true" or "false" (the same in every dialect).
func AppendBool(dst []byte, v bool, d Dialect) []byte {
	if v {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// AppendFloat appends v the way Java's Double.toString (bits 64) or
// Float.toString (bits 32) prints it, which both Presto and Spark follow:
// the shortest digits that round-trip, plain notation with at least one
// fraction digit for 1e-3 <= |v| < 1e7 ("100.0", "0.001"), otherwise
// d.dddE[-]n ("1.0E7", "1.234E-5"); "NaN", "Infinity", "-Infinity".
func AppendFloat(dst []byte, v float64, bits int, d Dialect) []byte {
	if bits == 64 {
		if r, ok := appendPlainFloat(dst, v); ok {
			return r
		}
	}
	return appendFloatDigits(dst, v, bits)
}

// appendFloatDigits is AppendFloat from strconv's shortest digits, for
// every value.
func appendFloatDigits(dst []byte, v float64, bits int) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, "NaN"...)
	case math.IsInf(v, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(v, -1):
		return append(dst, "-Infinity"...)
	case v == 0:
		if math.Signbit(v) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	// Shortest round-trip digits in 'e' form: [-]d[.ddd]e±xx.
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], v, 'e', -1, bitSize(bits))
	if len(e) <= len("-1e-324") && isSubnormal(v, bits) {
		// Java picks, among one- and two-digit decimals that round to v,
		// the closest one (4.9E-324, not 5.0E-324). For normal numbers a
		// different two-digit decimal never rounds to v.
		var alt [32]byte
		a := strconv.AppendFloat(alt[:0], v, 'e', 1, bitSize(bits))
		if f, err := strconv.ParseFloat(unsafe.String(&a[0], len(a)), bitSize(bits)); err == nil && f == v {
			e = append(buf[:0], a...)
		}
	}
	i := 0
	if e[0] == '-' {
		dst = append(dst, '-')
		i = 1
	}
	// Split into digits and exponent.
	var digs [24]byte
	nd := 0
	for ; e[i] != 'e'; i++ {
		if e[i] != '.' {
			digs[nd] = e[i]
			nd++
		}
	}
	i++
	eneg := e[i] == '-'
	exp := 0
	for i++; i < len(e); i++ {
		exp = exp*10 + int(e[i]-'0')
	}
	if eneg {
		exp = -exp
	}
	if exp >= -3 && exp < 7 {
		if exp < 0 {
			dst = append(dst, "0."...)
			for k := -1; k > exp; k-- {
				dst = append(dst, '0')
			}
			return append(dst, digs[:nd]...)
		}
		if nd <= exp+1 {
			dst = append(dst, digs[:nd]...)
			for k := nd; k <= exp; k++ {
				dst = append(dst, '0')
			}
			return append(dst, ".0"...)
		}
		dst = append(dst, digs[:exp+1]...)
		dst = append(dst, '.')
		return append(dst, digs[exp+1:nd]...)
	}
	dst = append(dst, digs[0], '.')
	if nd == 1 {
		dst = append(dst, '0')
	} else {
		dst = append(dst, digs[1:nd]...)
	}
	dst = append(dst, 'E')
	return strconv.AppendInt(dst, int64(exp), 10)
}

func isSubnormal(v float64, bits int) bool {
	a := math.Abs(v)
	if bits == 32 {
		return a < 0x1p-126
	}
	return a < 0x1p-1022
}

// AppendDecimal appends the unscaled value v with the given scale as the
// dialect's cast to varchar prints it.
//
// Presto and Spark ANSI (and try_cast): plain notation with exactly scale
// fraction digits ("-1.50", "0.05", "123"), as Velox's
// DecimalUtil::castToString and Java's BigDecimal.toPlainString do.
//
// Spark legacy: Java's BigDecimal.toString, which Spark's Cast uses when
// ANSI is off (ToStringBase.useDecimalPlainString = ansiEnabled). With
// adjusted = len(digits) - 1 - scale, it is plain unless scale < 0 or
// adjusted < -6, and then d[.ddd]E±n: "1.00E-8" for 0.0000000100, "0E-10"
// for zero at scale 10, "1.2E+3" for unscaled 12 at scale -2.
func AppendDecimal(dst []byte, v decimal128.Num, scale int32, d Dialect) []byte {
	mag, neg := magFromNum(v)
	var buf [40]byte
	digs := appendU128(buf[:0], mag)
	if d == Spark {
		if adj := int64(len(digs)) - 1 - int64(scale); scale < 0 || adj < -6 {
			if neg {
				dst = append(dst, '-')
			}
			dst = append(dst, digs[0])
			if len(digs) > 1 {
				dst = append(dst, '.')
				dst = append(dst, digs[1:]...)
			}
			if adj != 0 {
				dst = append(dst, 'E')
				if adj > 0 {
					dst = append(dst, '+')
				}
				dst = strconv.AppendInt(dst, adj, 10)
			}
			return dst
		}
	}
	return columnar.AppendPlainDecimal(dst, neg, digs, scale)
}

// AppendDate appends days since the epoch as YYYY-MM-DD, the year padded
// to four digits and preceded by '-' when negative. Spark (java.time
// formatting) also writes '+' before years above 9999; Presto does not.
func AppendDate(dst []byte, days int32, d Dialect) []byte {
	y, m, dd := civilFromDays(int64(days))
	return appendYMD(dst, y, m, dd, d)
}

func appendYMD(dst []byte, y int64, m, d int, dia Dialect) []byte {
	if y < 0 {
		dst = append(dst, '-')
		y = -y
	} else if y > 9999 && dia != Presto {
		dst = append(dst, '+')
	}
	for p := int64(1000); p > 1 && y < p; p /= 10 {
		dst = append(dst, '0')
	}
	dst = strconv.AppendInt(dst, y, 10)
	dst = append(dst, '-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
	return dst
}

// AppendTimestamp appends micros (UTC) as wall-clock time in loc (nil
// means UTC): Presto "YYYY-MM-DD HH:MM:SS.mmm" (milliseconds, always
// three digits, as Velox's Presto cast prints); Spark "YYYY-MM-DD
// HH:MM:SS[.ffffff]" with trailing fraction zeros removed.
func AppendTimestamp(dst []byte, micros int64, loc *time.Location, d Dialect) []byte {
	sec := micros / microsPerSecond
	frac := micros % microsPerSecond
	if frac < 0 {
		frac += microsPerSecond
		sec--
	}
	if loc != nil && loc != time.UTC {
		sec += zoneOffset(loc, sec)
	}
	days := sec / secondsPerDay
	tod := sec % secondsPerDay
	if tod < 0 {
		tod += secondsPerDay
		days--
	}
	y, m, dd := civilFromDays(days)
	dst = appendYMD(dst, y, m, dd, d)
	h, mi, s := int(tod/3600), int(tod/60%60), int(tod%60)
	dst = append(dst, ' ',
		byte('0'+h/10), byte('0'+h%10), ':',
		byte('0'+mi/10), byte('0'+mi%10), ':',
		byte('0'+s/10), byte('0'+s%10))
	if d == Presto {
		ms := frac / 1000
		return append(dst, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	}
	if frac == 0 {
		return dst
	}
	var fb [6]byte
	for k := 5; k >= 0; k-- {
		fb[k] = byte('0' + frac%10)
		frac /= 10
	}
	n := 6
	for fb[n-1] == '0' {
		n--
	}
	dst = append(dst, '.')
	return append(dst, fb[:n]...)
}
