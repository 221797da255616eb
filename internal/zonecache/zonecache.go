// Package zonecache is rowbridge's one cache of time zones: the zone names
// in timestamp strings that try_cast parses (FromText) and the session
// zones of compute's options (Load) are resolved through time.LoadLocation
// once per distinct name.
package zonecache

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
)

// Names in timestamp strings (FromText) and session zones (Load) are
// resolved through time.LoadLocation once per distinct name. Lookups read
// an immutable map through an atomic pointer, so a column of zoned
// timestamps takes no lock per value, and the map lookup with string(bytes)
// does not allocate. A name that loads is added by copying the map under a
// mutex; the cache holds only names that loaded, and there are about 600 of
// those (1,250 with a system zoneinfo's posix/ and right/ copies), so the
// bound is never reached in practice and the copies stay few.
var (
	knownZones   atomic.Pointer[map[string]*time.Location]
	knownZonesMu sync.Mutex // serializes writers of knownZones
)

const maxCachedZones = 4096

// cachedZone is the cached location of name, without locking.
func cachedZone(name []byte) (*time.Location, bool) {
	m := knownZones.Load()
	if m == nil {
		return nil, false
	}
	loc, ok := (*m)[string(name)]
	return loc, ok
}

// cacheZone adds a loaded location, unless the cache is full.
func cacheZone(name string, loc *time.Location) {
	knownZonesMu.Lock()
	defer knownZonesMu.Unlock()
	old := knownZones.Load()
	var m map[string]*time.Location
	if old != nil {
		if _, ok := (*old)[name]; ok || len(*old) >= maxCachedZones {
			return
		}
		m = make(map[string]*time.Location, len(*old)+1)
		for k, v := range *old {
			m[k] = v
		}
	} else {
		m = make(map[string]*time.Location, 1)
	}
	m[name] = loc
	knownZones.Store(&m)
}

// Load is time.LoadLocation through the cache that try_cast uses for
// zone names in strings: each name reads the zone database once. ""
// and "UTC" are time.UTC.
func Load(name string) (*time.Location, error) {
	if name == "" || name == "UTC" {
		return time.UTC, nil
	}
	if m := knownZones.Load(); m != nil {
		if loc, ok := (*m)[name]; ok {
			return loc, nil
		}
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	cacheZone(name, loc)
	return loc, nil
}

// Names time.LoadLocation rejected are remembered by a 64-bit hash in a fixed
// table of buckets, without locks: a column of bad names neither rereads
// the zone database per row nor allocates, and no number of distinct names
// grows memory. A full bucket overwrites one of its slots, so a name that
// is evicted costs one more time.LoadLocation when it comes back.
const (
	unknownBuckets    = 1024 // a power of two
	unknownBucketSize = 8
)

var (
	unknownZones [unknownBuckets * unknownBucketSize]atomic.Uint64
	zoneSeed     = maphash.MakeSeed()
)

// FromText resolves a zone name read from a timestamp string; text that
// cannot be a tz database name (NameOK) is refused without a lookup.
func FromText(name []byte) (*time.Location, bool) {
	if loc, hit := cachedZone(name); hit {
		return loc, true
	}
	if !NameOK(name) {
		return nil, false
	}
	h := maphash.Bytes(zoneSeed, name) | 1 // 0 marks an empty slot
	bucket := unknownZones[(h>>32)%unknownBuckets*unknownBucketSize:][:unknownBucketSize]
	for i := range bucket {
		v := bucket[i].Load()
		if v == h {
			return nil, false
		}
		if v == 0 {
			break
		}
	}
	// A name not seen before (or evicted): the only path that allocates.
	key := string(name)
	loc, err := time.LoadLocation(key)
	if err != nil {
		for i := range bucket {
			if bucket[i].CompareAndSwap(0, h) || bucket[i].Load() == h {
				return nil, false
			}
		}
		bucket[(h>>1)%unknownBucketSize].Store(h)
		return nil, false
	}
	cacheZone(key, loc)
	return loc, true
}

// NameOK accepts the shape of tz database names, so that text that
// cannot name a zone is rejected before any lookup: at most 40 bytes of
// '/'-separated components, each 1 to 14 bytes (the tz rule; the longest,
// like "ComodRivadavia", have 14) of ASCII letters, digits, '_', '-' and
// '+', starting with a letter ("Etc/GMT+10", "EST5EDT", "Port-au-Prince").
// "Local", which time.LoadLocation treats specially, is refused.
func NameOK(name []byte) bool {
	if len(name) == 0 || len(name) > 40 || string(name) == "Local" {
		return false
	}
	comp := 0 // length of the current component
	for _, c := range name {
		switch {
		case c == '/':
			if comp == 0 {
				return false
			}
			comp = 0
			continue
		case (c|0x20)-'a' < 26:
		case comp == 0:
			return false // a component starts with a letter
		case c-'0' < 10, c == '_', c == '-', c == '+':
		default:
			return false
		}
		if comp++; comp > 14 {
			return false
		}
	}
	return comp > 0
}
