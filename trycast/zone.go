package trycast

import (
	"sync"
	"time"
	"unsafe"
)

// Named zones in timestamp strings are resolved through time.LoadLocation
// once per distinct name; later rows hit this cache, whose map lookup with
// string(bytes) does not allocate. Unknown names are cached as nil so a
// column of bad names does not reread the zone database per row.
var namedZones = struct {
	mu sync.RWMutex
	m  map[string]*time.Location
}{m: make(map[string]*time.Location)}

// maxCachedZones bounds the cache against columns of distinct garbage.
const maxCachedZones = 1024

func loadZone(name []byte) (*time.Location, bool) {
	namedZones.mu.RLock()
	loc, hit := namedZones.m[string(name)]
	namedZones.mu.RUnlock()
	if hit {
		return loc, loc != nil
	}
	if !zoneNameOK(name) {
		return nil, false
	}
	key := string(name)
	loc, err := time.LoadLocation(key)
	if err != nil {
		loc = nil
	}
	namedZones.mu.Lock()
	if len(namedZones.m) < maxCachedZones {
		namedZones.m[key] = loc
	}
	namedZones.mu.Unlock()
	return loc, loc != nil
}

// zoneNameOK accepts region-id shaped names ([A-Za-z][A-Za-z0-9~/._+-]*),
// and keeps names LoadLocation treats specially ("Local", "", paths with
// "..") away from it.
func zoneNameOK(name []byte) bool {
	if len(name) == 0 || len(name) > 64 || (name[0]|0x20)-'a' >= 26 {
		return false
	}
	if string(name) == "Local" {
		return false
	}
	for i, c := range name {
		switch {
		case (c|0x20)-'a' < 26, isDigit(c), c == '/', c == '_', c == '+', c == '-', c == '~':
		case c == '.':
			if i > 0 && name[i-1] == '.' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

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
	loc    *time.Location
	offset int64 // seconds east of UTC, used when loc is nil
}

// toUTC converts wall-clock seconds in this zone to an instant.
func (z zone) toUTC(local int64) int64 {
	if z.loc != nil {
		return localToUTC(local, z.loc)
	}
	return local - z.offset
}

// parsePrestoZone reads a zone suffix as Velox's Presto cast does: Z, UTC,
// GMT or UT (any case), an offset ±hh, ±hhmm or ±hh:mm within ±14:00, or a
// time-zone database name.
func parsePrestoZone(z []byte) (zone, bool) {
	if equalFold(z, "z") || equalFold(z, "utc") || equalFold(z, "gmt") || equalFold(z, "ut") {
		return zone{}, true
	}
	if z[0] == '+' || z[0] == '-' {
		var h, m int
		switch {
		case len(z) == 3 && isDigit(z[1]) && isDigit(z[2]):
			h = int(z[1]-'0')*10 + int(z[2]-'0')
		case len(z) == 5 && allDigits(z[1:5]):
			h = int(z[1]-'0')*10 + int(z[2]-'0')
			m = int(z[3]-'0')*10 + int(z[4]-'0')
		case len(z) == 6 && z[3] == ':' && allDigits(z[1:3]) && allDigits(z[4:6]):
			h = int(z[1]-'0')*10 + int(z[2]-'0')
			m = int(z[4]-'0')*10 + int(z[5]-'0')
		default:
			return zone{}, false
		}
		if m > 59 || h*60+m > 14*60 {
			return zone{}, false
		}
		off := int64(h*3600 + m*60)
		if z[0] == '-' {
			off = -off
		}
		return zone{offset: off}, true
	}
	loc, ok := loadZone(z)
	return zone{loc: loc}, ok
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
