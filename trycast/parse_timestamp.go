package trycast

import "time"

// ParseTimestamp parses s as a timestamp (microseconds since the epoch,
// UTC) the way dialect d casts a string to timestamp. A string without a
// zone is a wall-clock time in loc (nil means UTC); a zone in the string
// wins over loc. Wall-clock times in a DST gap move forward by the gap, in
// an overlap take the earlier offset (java.time's rule).
//
// Presto: C whitespace around "date[ h[h]:m[m][:s[s][.fraction]]][[ ]zone]",
// the date as for ParseDate, zone Z/UTC/GMT/UT, an offset
// ±h[h][[:]m[m][[:]s[s][[.,]fff]]] below ±24:00 or a time-zone database
// name; 'T' is rejected. Spark: Spark's
// stringToTimestamp on a string trimmed of 0x00..0x20 and 0x7F: yyyy,
// yyyy-[m]m, yyyy-[m]m-[d]d, then ' ' or 'T' and h[h][:m[m][:s[s][.f..]]]
// with an optional zone after the seconds (Z, ±h[h][:mm], UTC+.., region
// ids, short ids). Fraction digits beyond microseconds are truncated.
func ParseTimestamp(s []byte, loc *time.Location, d Dialect) (micros int64, ok bool) {
	if d == Presto {
		return parseTimestampPresto(trimClass(s, clsCSpace), loc)
	}
	return parseTimestampSpark(trimClass(s, clsSparkTrim), loc)
}

func parseTimestampPresto(s []byte, loc *time.Location) (int64, bool) {
	y, mo, d, i, ok := scanPrestoDate(s)
	if !ok {
		return 0, false
	}
	var h, mi, sec, frac int
	z := zone{loc: loc}
	if i < len(s) {
		if s[i] != ' ' {
			return 0, false
		}
		if h, i, ok = scan12Digits(s, i+1); !ok || h > 23 || i == len(s) || s[i] != ':' {
			return 0, false
		}
		if mi, i, ok = scan12Digits(s, i+1); !ok || mi > 59 {
			return 0, false
		}
		if i < len(s) && s[i] == ':' {
			if sec, i, ok = scan12Digits(s, i+1); !ok || sec > 59 {
				return 0, false
			}
			if i < len(s) && s[i] == '.' {
				frac, i = scanFraction(s, i+1)
			}
		}
		if i < len(s) {
			if s[i] == ' ' {
				i++
			}
			if i == len(s) {
				return 0, false
			}
			if z, ok = parsePrestoZone(s[i:]); !ok {
				return 0, false
			}
		}
	}
	return wallToMicros(y, mo, d, h, mi, sec, frac, z)
}

// scanFraction reads fraction digits at s[i:], keeping microseconds and
// truncating the rest.
func scanFraction(s []byte, i int) (micros, next int) {
	scale := 100000
	for ; i < len(s) && isDigit(s[i]); i++ {
		micros += int(s[i]-'0') * scale
		scale /= 10
	}
	return micros, i
}

// wallToMicros converts a validated wall-clock time in zone z to UTC
// microseconds, failing on int64 overflow.
func wallToMicros(y int64, mo, d, h, mi, sec, frac int, z zone) (int64, bool) {
	if y > 300000 || y < -300000 {
		return 0, false
	}
	local := daysFromCivil(y, mo, d)*secondsPerDay + int64(h*3600+mi*60+sec)
	us, ok := secondsToMicros(z.toUTC(local), int64(frac))
	if !ok || z.offMicros == 0 {
		return us, ok
	}
	r := us - z.offMicros
	if (r < us) != (z.offMicros > 0) {
		return 0, false
	}
	return r, true
}

// sparkTsDigitsOK is Spark's isValidDigits for timestamp segments: year 4
// to 6 digits, fraction any, others 1 or 2.
func sparkTsDigitsOK(seg, digits int) bool {
	switch seg {
	case 0:
		return digits >= 4 && digits <= 6
	case 6:
		return true
	}
	return digits > 0 && digits <= 2
}

func parseTimestampSpark(s []byte, loc *time.Location) (int64, bool) {
	if len(s) == 0 {
		return 0, false
	}
	// Segments: year, month, day, hour, minute, second, microseconds.
	seg := [7]int{1, 1, 1, 0, 0, 0, 0}
	sign := 1
	j := 0
	if s[0] == '-' || s[0] == '+' {
		if s[0] == '-' {
			sign = -1
		}
		j = 1
	}
	i, digits, cur := 0, 0, 0
	fracDigits := 0
	var tz []byte
	hasTZ := false
	for ; j < len(s); j++ {
		b := s[j]
		if isDigit(b) {
			if i == 6 {
				fracDigits++
				if digits < 6 {
					cur = cur*10 + int(b-'0')
				}
			} else if digits < 9 {
				cur = cur*10 + int(b-'0')
			}
			digits++
			continue
		}
		switch {
		case i < 2:
			// A leading 'T' or ':' would be Spark's time-only form, which
			// takes today's date; it is rejected (see docs/trycast.md).
			if b != '-' || !sparkTsDigitsOK(i, digits) {
				return 0, false
			}
		case i == 2:
			if (b != ' ' && b != 'T') || !sparkTsDigitsOK(i, digits) {
				return 0, false
			}
		case i == 3 || i == 4:
			if b != ':' || !sparkTsDigitsOK(i, digits) {
				return 0, false
			}
		default: // seconds or fraction: '.' starts the fraction, anything else the zone
			if !sparkTsDigitsOK(i, digits) {
				return 0, false
			}
			if b != '.' || i == 6 {
				seg[i] = cur
				tz, hasTZ = s[j:], true
				j = len(s)
				continue
			}
		}
		seg[i] = cur
		cur, digits = 0, 0
		i++
	}
	if !hasTZ {
		if !sparkTsDigitsOK(i, digits) {
			return 0, false
		}
		seg[i] = cur
	}
	for ; fracDigits < 6 && i >= 6; fracDigits++ {
		seg[6] *= 10
	}
	y := int64(sign * seg[0])
	if !validDate(y, seg[1], seg[2]) || seg[3] > 23 || seg[4] > 59 || seg[5] > 59 {
		return 0, false
	}
	z := zone{loc: loc}
	if hasTZ {
		var ok bool
		if z, ok = parseSparkZone(trimClass(tz, clsCSpace)); !ok {
			return 0, false
		}
	}
	return wallToMicros(y, seg[1], seg[2], seg[3], seg[4], seg[5], seg[6], z)
}
