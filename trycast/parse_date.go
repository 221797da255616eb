package trycast

// ParseDate parses s as a date (days since 1970-01-01) the way dialect d
// casts a string to date.
//
// Presto: C whitespace around [+-]year-m[m]-d[d] (year any number of
// digits), nothing else. Spark (both modes): trims 0x00..0x20 and 0x7F,
// then [+-]yyyy[y..] (4 to 7 digits), yyyy-[m]m, or yyyy-[m]m-[d]d; after
// the day a ' ' or 'T' may be followed by anything. Invalid calendar dates
// and dates beyond the int32 day range fail everywhere.
func ParseDate(s []byte, d Dialect) (days int32, ok bool) {
	if d == Presto {
		s = trimClass(s, clsCSpace)
		y, m, dd, n, ok := scanPrestoDate(s)
		if !ok || n != len(s) {
			return 0, false
		}
		return daysToInt32(daysFromCivil(y, m, dd))
	}
	y, m, dd, ok := scanSparkDate(trimClass(s, clsSparkTrim))
	if !ok {
		return 0, false
	}
	return daysToInt32(daysFromCivil(y, m, dd))
}

// scanPrestoDate reads [+-]digits-d[d]-d[d] from the start of s and
// returns the date and the bytes consumed.
func scanPrestoDate(s []byte) (y int64, m, d, n int, ok bool) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	st := i
	for ; i < len(s) && isDigit(s[i]); i++ {
		if i-st >= 9 { // beyond Velox's maximum year
			return 0, 0, 0, 0, false
		}
		y = y*10 + int64(s[i]-'0')
	}
	if i == st || i == len(s) || s[i] != '-' {
		return 0, 0, 0, 0, false
	}
	if neg {
		y = -y
	}
	i++
	if m, i, ok = scan12Digits(s, i); !ok || i == len(s) || s[i] != '-' {
		return 0, 0, 0, 0, false
	}
	i++
	if d, i, ok = scan12Digits(s, i); !ok || !validDate(y, m, d) {
		return 0, 0, 0, 0, false
	}
	return y, m, d, i, true
}

// scan12Digits reads one or two digits at s[i:].
func scan12Digits(s []byte, i int) (v, next int, ok bool) {
	if i >= len(s) || !isDigit(s[i]) {
		return 0, i, false
	}
	v = int(s[i] - '0')
	i++
	if i < len(s) && isDigit(s[i]) {
		v = v*10 + int(s[i]-'0')
		i++
	}
	return v, i, true
}

// scanSparkDate follows Spark's stringToDate segment loop on a trimmed
// string; anything may follow a ' ' or 'T' that ends the day.
func scanSparkDate(s []byte) (y int64, m, d int, ok bool) {
	if len(s) == 0 {
		return 0, 0, 0, false
	}
	var seg [3]int64
	seg[1], seg[2] = 1, 1
	sign := int64(1)
	j := 0
	if s[0] == '-' || s[0] == '+' {
		if s[0] == '-' {
			sign = -1
		}
		j++
	}
	i, digits := 0, 0
	var cur int64
	for j < len(s) && i < 3 && s[j] != ' ' && s[j] != 'T' {
		b := s[j]
		if i < 2 && b == '-' {
			if !sparkDateDigitsOK(i, digits) {
				return 0, 0, 0, false
			}
			seg[i] = cur
			cur, digits = 0, 0
			i++
		} else if isDigit(b) {
			if digits >= 7 {
				return 0, 0, 0, false
			}
			cur = cur*10 + int64(b-'0')
			digits++
		} else {
			return 0, 0, 0, false
		}
		j++
	}
	if !sparkDateDigitsOK(i, digits) {
		return 0, 0, 0, false
	}
	// yyyy and yyyy-[m]m must use the whole input.
	if i < 2 && j < len(s) {
		return 0, 0, 0, false
	}
	seg[i] = cur
	y, m, d = sign*seg[0], int(seg[1]), int(seg[2])
	if !validDate(y, m, d) {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

func sparkDateDigitsOK(seg, digits int) bool {
	if seg == 0 {
		return digits >= 4 && digits <= 7
	}
	return digits > 0 && digits <= 2
}
