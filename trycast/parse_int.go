package trycast

import "encoding/binary"

// ParseInt parses s as a base-10 integer of the given width (8, 16, 32 or
// 64 bits) the way dialect d casts a string to tinyint..bigint.
//
// Presto trims ASCII 0x01..0x20 and Unicode whitespace and accepts only
// [+-]digits. Spark trims 0x00..0x20 and 0x7F; legacy Spark also accepts a
// '.' followed by digits and truncates the fraction ("12.7" -> 12, "." -> 0),
// ANSI rejects any '.'. Out-of-range values fail in every dialect.
//
// The common strings are settled first, the same way in every dialect: 1
// to 8 plain digits (nothing to trim, no sign, no fraction) are checked
// and converted as one word (digitWord), and a string whose first byte no
// dialect trims and no number starts with fails (cannotStartInt). The
// array kernel (settleInts) settles the same forms, '-' and up to 16
// bytes, with the same word steps. Otherwise trimming starts only when an end byte is
// one the dialect may trim, and the width is checked once after the digits.
func ParseInt(s []byte, bits int, d Dialect) (int64, bool) {
	n := len(s)
	if n == 0 || cannotStartInt(s[0]) {
		return 0, false
	}
	if n <= 8 && isDigit(s[0]) {
		if v, ok := digitWord(gatherWord(s), n); ok {
			if v > maxMagnitude(bits, false) {
				return 0, false
			}
			return int64(v), true
		}
	}
	edge := uint8(clsSparkTrim)
	if d == Presto {
		edge = clsPrestoEdge
	}
	if (byteClass[s[0]]|byteClass[s[n-1]])&edge != 0 {
		if d == Presto {
			s = trimPresto(s)
		} else {
			s = trimClass(s, clsSparkTrim)
		}
		if len(s) == 0 {
			return 0, false
		}
	}
	i, neg := 0, false
	if c := s[0]; c == '-' || c == '+' {
		i, neg = 1, c == '-'
	}
	start := i
	var mag uint64
	for ; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			break
		}
		mag = mag*10 + uint64(c) // wraps only past 19 digits, handled below
	}
	digits := i - start
	if i < len(s) {
		// Only legacy Spark accepts a fractional part, and only digits in it.
		if d != Spark || s[i] != '.' || !digitsOnly(s[i+1:]) {
			return 0, false
		}
	} else if digits == 0 {
		return 0, false
	}
	if digits > 19 {
		var ok bool
		if mag, ok = bigMagnitude(s[start:i]); !ok {
			return 0, false
		}
	}
	if mag > maxMagnitude(bits, neg) {
		return 0, false
	}
	if neg {
		return -int64(mag), true
	}
	return int64(mag), true
}

// maxMagnitude is the largest magnitude an integer of the given width
// holds: 2^(bits-1) for negatives, 2^(bits-1)-1 otherwise.
func maxMagnitude(bits int, neg bool) uint64 {
	m := uint64(1)<<(uint(bits-1)&63) - 1
	if neg {
		m++
	}
	return m
}

// cannotStartInt reports a first byte with which no dialect parses an
// integer: printable ASCII that no dialect trims and that is not a digit,
// a sign or '.' (like "$" or "abc").
func cannotStartInt(c byte) bool { return byteClass[c]&clsNotInt != 0 }

// gatherWord packs s (1 to 8 bytes) into the top len(s) bytes of a
// little-endian word, as digitWord wants it, with two overlapping loads
// and no read outside s.
func gatherWord(s []byte) uint64 {
	n := len(s)
	x := uint64(s[0])
	if n >= 4 {
		x = uint64(binary.LittleEndian.Uint32(s)) | uint64(binary.LittleEndian.Uint32(s[n-4:]))<<(8*uint(n-4))
	} else if n >= 2 {
		x = uint64(binary.LittleEndian.Uint16(s)) | uint64(binary.LittleEndian.Uint16(s[n-2:]))<<(8*uint(n-2))
	}
	return x << ((8 * uint(8-n)) & 63)
}

// digitWord is the value of an n-byte string (0 <= n <= 8; 0 is the empty
// string, whose value is 0) held in the top n bytes of the little-endian
// word x (its last byte in x's top byte; the bytes below are ignored),
// when every byte is an ASCII digit. It checks and converts 8 digits with
// the word steps the settle loops use (notDigits, wordValue) instead of a
// multiply per digit, and is small enough to inline into ParseInt.
func digitWord(x uint64, n int) (uint64, bool) {
	// Leading '0's in place of the ignored bytes.
	x = x&wordKeep[n&15] | wordPad[n&15]
	if notDigits(x) != 0 {
		return 0, false
	}
	return wordValue(x), true
}

// wordKeep[n] masks the top n bytes of a word (0 <= n <= 8), and
// wordPad[n] puts a '0' in each byte below them: tables, because a
// computed shift costs the kernel's loop more than a load. They have 16
// entries so that an index masked by 15 needs no bounds check.
var wordKeep, wordPad = func() (keep, pad [16]uint64) {
	for n := 0; n <= 8; n++ {
		low := ^uint64(0) >> (8 * uint(n)) // Go shifts by 64 to 0
		keep[n], pad[n] = ^low, 0x3030303030303030&low
	}
	return keep, pad
}()

// bigMagnitude is the value of a digit string longer than 19 digits, false
// when more than 19 are significant (more than any width holds): only
// leading zeros make such a string fit.
func bigMagnitude(digits []byte) (uint64, bool) {
	for len(digits) > 19 {
		if digits[0] != '0' {
			return 0, false
		}
		digits = digits[1:]
	}
	var m uint64
	for _, c := range digits {
		m = m*10 + uint64(c-'0') // 19 digits fit in a uint64
	}
	return m, true
}

// digitsOnly reports whether s has no byte but digits (true when empty).
func digitsOnly(s []byte) bool {
	for _, c := range s {
		if c-'0' > 9 {
			return false
		}
	}
	return true
}
