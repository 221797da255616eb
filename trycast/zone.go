package trycast

import (
	"time"
	"unsafe"
)

// javaShortIDs is java.time.ZoneId.SHORT_IDS, which Spark passes to
// ZoneId.of.
var javaShortIDs = map[string]string{
	"ACT": "Australia/Darwin", "AET": "Australia/Sydney", "AGT": "America/Argentina/Buenos_Aires",
	"ART": "Africa/Cairo", "AST": "America/Anchorage", "BET": "America/Sao_Paulo",
	"BST": "Asia/Dhaka", "CAT": "Africa/Harare", "CNT": "America/St_Johns",
	"CST": "America/Chicago", "CTT": "Asia/Shanghai", "EAT": "Africa/Addis_Ababa",
	"ECT": "Europe/Paris", "IET": "America/Indiana/Indianapolis", "IST": "Asia/Kolkata",
	"JST": "Asia/Tokyo", "MIT": "Pacific/Apia", "NET": "Asia/Yerevan",
	"NST": "Pacific/Auckland", "PLT": "Asia/Karachi", "PNT": "America/Phoenix",
	"PRT": "America/Puerto_Rico", "PST": "America/Los_Angeles", "SST": "Pacific/Guadalcanal",
	"VST": "Asia/Ho_Chi_Minh",
}

// javaShortOffsets are the SHORT_IDS entries that map to fixed offsets.
var javaShortOffsets = map[string]int64{"EST": -5 * 3600, "MST": -7 * 3600, "HST": -10 * 3600}

// zone is a parsed zone suffix: either a fixed offset or a location.
type zone struct {
	loc       *time.Location
	offset    int64 // seconds east of UTC, used when loc is nil
	offMicros int64 // Presto's millisecond part of the offset, as micros with its sign
}

// toUTC converts wall-clock seconds in this zone to an instant; the
// offset's fraction (offMicros) is left to the caller.
func (z zone) toUTC(local int64) int64 {
	if z.loc != nil {
		return localToUTC(local, z.loc)
	}
	return local - z.offset
}

// parsePrestoZone reads a zone suffix as Velox's Presto cast does: Z, UTC,
// GMT or UT (any case), an offset (parsePrestoOffset), or a time-zone
// database name.
func parsePrestoZone(z []byte) (zone, bool) {
	if equalFold(z, "z") || equalFold(z, "utc") || equalFold(z, "gmt") || equalFold(z, "ut") {
		return zone{}, true
	}
	if z[0] == '+' || z[0] == '-' {
		return parsePrestoOffset(z)
	}
	loc, ok := loadZone(z)
	return zone{loc: loc}, ok
}

// parsePrestoOffset reads an offset as Velox's
// tryParsePrestoTimeOffsetString (velox/type/TimestampConversion.cpp)
// does; its time-zone table holds only ±hh:mm offsets up to ±14:00, which
// this grammar also accepts with the same value. The grammar is
// ±h[h][[:]m[m][[:]s[s][[.,]f[f[f]]]]]: every separator is optional, hours
// are below 24, minutes and seconds below 60, and the fraction is 1 to 3
// digits of milliseconds ("+01:01:01.5" is 3661.5 s east, "-010101001" is
// -3661.001 s); a separator must be followed by digits.
func parsePrestoOffset(z []byte) (zone, bool) {
	h, i, ok := scan12Digits(z, 1)
	if !ok || h > 23 {
		return zone{}, false
	}
	var m, sec, ms int
	if i < len(z) {
		if z[i] == ':' {
			i++
		}
		if m, i, ok = scan12Digits(z, i); !ok || m > 59 {
			return zone{}, false
		}
	}
	if i < len(z) {
		if z[i] == ':' {
			i++
		}
		if sec, i, ok = scan12Digits(z, i); !ok || sec > 59 {
			return zone{}, false
		}
	}
	if i < len(z) {
		if z[i] == '.' || z[i] == ',' {
			i++
		}
		start := i
		for mult := 100; i < len(z) && mult > 0 && isDigit(z[i]); i, mult = i+1, mult/10 {
			ms += int(z[i]-'0') * mult
		}
		if i == start || i != len(z) {
			return zone{}, false
		}
	}
	off, frac := int64(h*3600+m*60+sec), int64(ms)*1000
	if z[0] == '-' {
		off, frac = -off, -frac
	}
	return zone{offset: off, offMicros: frac}, true
}

// parseSparkZone reads a zone as Spark's getZoneId does: Spark first
// rewrites ±h: to ±0h: and a trailing ±hh:m to ±hh:0m, then calls
// java.time.ZoneId.of with SHORT_IDS.
func parseSparkZone(z []byte) (zone, bool) {
	if len(z) == 0 {
		return zone{}, false
	}
	if z[0] == '+' || z[0] == '-' {
		off, ok := parseJavaOffset(z)
		return zone{offset: off}, ok
	}
	if string(z) == "Z" {
		return zone{}, true
	}
	for _, p := range [...]string{"UTC", "GMT", "UT"} {
		if len(z) >= len(p) && string(z[:len(p)]) == p {
			rest := z[len(p):]
			if len(rest) == 0 {
				return zone{}, true
			}
			if rest[0] == '+' || rest[0] == '-' {
				off, ok := parseJavaOffset(rest)
				return zone{offset: off}, ok
			}
			break
		}
	}
	if id, ok := javaShortIDs[string(z)]; ok {
		// The name is only read, so view the string's bytes without copying.
		loc, ok := loadZone(unsafe.Slice(unsafe.StringData(id), len(id)))
		return zone{loc: loc}, ok
	}
	if off, ok := javaShortOffsets[string(z)]; ok {
		return zone{offset: off}, true
	}
	loc, ok := loadZone(z)
	return zone{loc: loc}, ok
}

// parseJavaOffset reads ZoneOffset.of forms (±h, ±hh, ±hh:mm, ±hhmm,
// ±hh:mm:ss, ±hhmmss, limit ±18:00) after Spark's ±h: and ±hh:m rewrites.
func parseJavaOffset(z []byte) (int64, bool) {
	neg := z[0] == '-'
	b := z[1:]
	var h, m, sec int
	switch {
	case len(b) == 1 && isDigit(b[0]):
		h = int(b[0] - '0')
	case len(b) >= 2 && isDigit(b[0]) && b[1] == ':':
		// ±h:... is rewritten to ±0h:...
		return parseJavaOffsetColon(neg, int(b[0]-'0'), b[2:])
	case len(b) >= 2 && allDigits(b[:2]):
		h = int(b[0]-'0')*10 + int(b[1]-'0')
		r := b[2:]
		switch {
		case len(r) == 0:
		case r[0] == ':':
			return parseJavaOffsetColon(neg, h, r[1:])
		case len(r) == 2 && allDigits(r):
			m = int(r[0]-'0')*10 + int(r[1]-'0')
		case len(r) == 4 && allDigits(r):
			m = int(r[0]-'0')*10 + int(r[1]-'0')
			sec = int(r[2]-'0')*10 + int(r[3]-'0')
		default:
			return 0, false
		}
	default:
		return 0, false
	}
	return javaOffset(neg, h, m, sec)
}

// parseJavaOffsetColon reads the "mm[:ss]" after "±hh:"; a single trailing
// minute digit is Spark's ±hh:m form.
func parseJavaOffsetColon(neg bool, h int, r []byte) (int64, bool) {
	var m, sec int
	switch {
	case len(r) == 1 && isDigit(r[0]):
		m = int(r[0] - '0')
	case len(r) == 2 && allDigits(r):
		m = int(r[0]-'0')*10 + int(r[1]-'0')
	case len(r) == 5 && allDigits(r[:2]) && r[2] == ':' && allDigits(r[3:]):
		m = int(r[0]-'0')*10 + int(r[1]-'0')
		sec = int(r[3]-'0')*10 + int(r[4]-'0')
	default:
		return 0, false
	}
	return javaOffset(neg, h, m, sec)
}

func javaOffset(neg bool, h, m, sec int) (int64, bool) {
	if h > 18 || m > 59 || sec > 59 {
		return 0, false
	}
	off := int64(h*3600 + m*60 + sec)
	if off > 18*3600 {
		return 0, false
	}
	if neg {
		off = -off
	}
	return off, true
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if !isDigit(c) {
			return false
		}
	}
	return len(b) > 0
}
