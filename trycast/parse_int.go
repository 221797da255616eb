package trycast

// ParseInt parses s as a base-10 integer of the given width (8, 16, 32 or
// 64 bits) the way dialect d casts a string to tinyint..bigint.
//
// Presto trims ASCII 0x01..0x20 and Unicode whitespace and accepts only
// [+-]digits. Spark trims 0x00..0x20 and 0x7F; legacy Spark also accepts a
// '.' followed by digits and truncates the fraction ("12.7" -> 12, "." -> 0),
// ANSI rejects any '.'. Out-of-range values fail in every dialect.
func ParseInt(s []byte, bits int, d Dialect) (int64, bool) {
	if d == Presto {
		s = trimPresto(s)
	} else {
		s = trimClass(s, clsSparkTrim)
	}
	if len(s) == 0 {
		return 0, false
	}
	neg := false
	i := 0
	switch s[0] {
	case '-':
		neg = true
		i = 1
	case '+':
		i = 1
	}
	if i == len(s) {
		return 0, false
	}
	// limit is the largest magnitude allowed: 2^(bits-1) for negatives,
	// 2^(bits-1)-1 otherwise.
	limit := uint64(1)<<(uint(bits)-1) - 1
	if neg {
		limit++
	}
	var mag uint64
	cut := limit / 10 // above this, 10*mag exceeds limit
	start := i
	for ; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			break
		}
		if mag > cut {
			return 0, false
		}
		mag = mag*10 + uint64(c)
		if mag > limit {
			return 0, false
		}
	}
	digits := i - start
	if i < len(s) {
		// Only legacy Spark accepts a fractional part, and only digits in it.
		if d != Spark || s[i] != '.' {
			return 0, false
		}
		for i++; i < len(s); i++ {
			if !isDigit(s[i]) {
				return 0, false
			}
		}
	} else if digits == 0 {
		return 0, false
	}
	if neg {
		return -int64(mag), true
	}
	return int64(mag), true
}
