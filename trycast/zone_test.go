package trycast

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // zone tests must not depend on the host's zoneinfo

	"github.com/rowbridge/rowbridge/internal/zonecache"
)

func TestZoneNameOK(t *testing.T) {
	// The longest, digit-bearing and punctuated names of the tz database.
	for _, name := range []string{
		"America/Argentina/ComodRivadavia", "America/Indiana/Tell_City", "America/Port-au-Prince",
		"Antarctica/DumontDUrville", "Etc/GMT+10", "Etc/GMT-14", "Etc/GMT0", "GMT+0", "GMT-0", "GMT0",
		"EST5EDT", "CST6CDT", "PST8PDT", "W-SU", "NZ-CHAT", "UTC", "Z", "posix/America/Argentina/ComodRivadavia",
	} {
		if !zonecache.NameOK([]byte(name)) {
			t.Errorf("zonecache.NameOK(%q) = false", name)
		}
	}
	for _, name := range []string{
		"", "Local", "/America/New_York", "America/New_York/", "America//New_York", "../etc/passwd",
		"America/../../etc", "America/.hidden", "1America", "America/1X", "America/_X", "Etc/+5",
		"America/New York", "Europe/Paris~", "UTC:01", "Europe/Pariś", "Ab/Abcdefghijklmno", // 15-byte component
		strings.Repeat("Abcdefghij/", 3) + "Abcdefghijk", // 44 bytes
	} {
		if zonecache.NameOK([]byte(name)) {
			t.Errorf("zonecache.NameOK(%q) = true", name)
		}
	}
}

func TestLoadZone(t *testing.T) {
	for _, name := range []string{"America/New_York", "Etc/GMT+10", "Asia/Kolkata"} {
		loc, ok := loadZone([]byte(name))
		if !ok || loc == nil || loc.String() != name {
			t.Fatalf("loadZone(%q) = %v, %v", name, loc, ok)
		}
		// The second lookup is the cached location itself.
		if again, ok := loadZone([]byte(name)); !ok || again != loc {
			t.Errorf("loadZone(%q) again = %p, want %p", name, again, loc)
		}
	}
	ts, ok := ParseTimestamp([]byte("2024-07-01 12:00:00 Etc/GMT+10"), nil, Presto)
	if want := time.Date(2024, 7, 1, 22, 0, 0, 0, time.UTC).UnixMicro(); !ok || ts != want {
		t.Errorf("Etc/GMT+10: got %d, %v; want %d", ts, ok, want)
	}
	for _, name := range []string{"Mars/Olympus", "Nowhere", "Local", "America/1X"} {
		if loc, ok := loadZone([]byte(name)); ok || loc != nil {
			t.Errorf("loadZone(%q) = %v, %v", name, loc, ok)
		}
	}
}

// TestUnknownZonesDoNotAllocate: a column of distinct bad zone names costs
// no allocation per row. Names that cannot be zone names are rejected
// before any lookup; names that have the shape of one but do not exist are
// looked up once and then answered from the table of unknown hashes.
func TestUnknownZonesDoNotAllocate(t *testing.T) {
	var malformed, unknown [][]byte
	for i := range 20000 {
		// A component starting with a digit, or a 15-byte component.
		malformed = append(malformed, []byte("Zone/"+strconv.Itoa(i)), []byte("Abcdefghijklm/"+letters(i)+"xxxxxxxxxxxxxxx"))
	}
	for i := range 2000 { // more than any fixed-size cache of names would hold
		unknown = append(unknown, []byte("Nowhere/Town"+letters(i)))
	}
	k := 0
	if n := testing.AllocsPerRun(len(malformed), func() {
		if _, ok := loadZone(malformed[k%len(malformed)]); ok {
			t.Fatalf("loadZone(%q) succeeded", malformed[k%len(malformed)])
		}
		k++
	}); n != 0 {
		t.Errorf("malformed zone names: %v allocs per row", n)
	}
	for _, name := range unknown { // warm-up: one LoadLocation per name
		if _, ok := loadZone(name); ok {
			t.Fatalf("loadZone(%q) succeeded", name)
		}
	}
	k = 0
	// A bucket of the table can overflow (in about one run in five), and
	// then a name or two is looked up again each pass: allow for that, but
	// nothing close to a lookup per row (about 15 allocations each).
	if n := testing.AllocsPerRun(10*len(unknown), func() {
		if _, ok := loadZone(unknown[k%len(unknown)]); ok {
			t.Fatalf("loadZone(%q) succeeded", unknown[k%len(unknown)])
		}
		k++
	}); n > 0.1 {
		t.Errorf("unknown zone names after warm-up: %v allocs per row", n)
	}
	// The same through the parser, in both dialects.
	for d := Presto; d <= SparkANSI; d++ {
		k = 0
		var buf []byte
		if n := testing.AllocsPerRun(len(unknown), func() {
			buf = append(append(buf[:0], "2024-01-05 10:00:00 "...), unknown[k%len(unknown)]...)
			if _, ok := ParseTimestamp(buf, nil, d); ok {
				t.Fatalf("ParseTimestamp(%q) succeeded", buf)
			}
			k++
		}); n > 0.1 {
			t.Errorf("%v: timestamps with unknown zones: %v allocs per row", d, n)
		}
	}
}

// letters spells i in base 26 with the letters a..z.
func letters(i int) string {
	b := []byte{byte('a' + i%26)}
	for i /= 26; i > 0; i /= 26 {
		b = append(b, byte('a'+i%26))
	}
	return string(b)
}

// TestLoadLocationSharesTheCache: the session-zone path (zonecache.Load) and
// zone names in strings (loadZone) resolve through one cache, so both give
// the same *time.Location, and "" and "UTC" are time.UTC.
func TestLoadLocationSharesTheCache(t *testing.T) {
	for _, name := range []string{"Europe/Lisbon", "Pacific/Chatham"} {
		loc, err := zonecache.Load(name)
		if err != nil || loc.String() != name {
			t.Fatalf("zonecache.Load(%q) = %v, %v", name, loc, err)
		}
		if z, ok := loadZone([]byte(name)); !ok || z != loc {
			t.Errorf("loadZone(%q) = %p, %v; want zonecache.Load's %p", name, z, ok, loc)
		}
	}
	if z, ok := loadZone([]byte("Australia/Eucla")); !ok {
		t.Fatal("loadZone(Australia/Eucla) failed")
	} else if loc, err := zonecache.Load("Australia/Eucla"); err != nil || loc != z {
		t.Errorf("zonecache.Load after loadZone = %p, %v; want %p", loc, err, z)
	}
	for _, name := range []string{"", "UTC"} {
		if loc, err := zonecache.Load(name); err != nil || loc != time.UTC {
			t.Errorf("zonecache.Load(%q) = %v, %v; want UTC", name, loc, err)
		}
	}
	if _, err := zonecache.Load("Mars/Olympus"); err == nil {
		t.Error("zonecache.Load(Mars/Olympus) succeeded")
	}
}

// TestKnownZoneLookupDoesNotAllocate: a cached zone costs a map lookup per
// value, nothing more.
func TestKnownZoneLookupDoesNotAllocate(t *testing.T) {
	name := []byte("America/Chicago")
	if _, ok := loadZone(name); !ok {
		t.Fatal("loadZone failed")
	}
	if n := testing.AllocsPerRun(1000, func() {
		if _, ok := loadZone(name); !ok {
			t.Fatal("loadZone failed")
		}
	}); n != 0 {
		t.Errorf("%v allocs per cached lookup", n)
	}
}

// TestZoneCacheConcurrent: readers and writers of the cache at once (run
// under -race); every goroutine gets the one cached location per name.
func TestZoneCacheConcurrent(t *testing.T) {
	names := []string{"Asia/Tokyo", "Africa/Lagos", "America/Lima", "Europe/Oslo", "Asia/Dubai", "America/Bogota"}
	var wg sync.WaitGroup
	got := make([][]*time.Location, 4)
	for g := range got {
		got[g] = make([]*time.Location, len(names))
		wg.Go(func() {
			for r := range 50 {
				for i, name := range names {
					loc, ok := loadZone([]byte(name))
					if r%2 == 1 {
						var err error
						loc, err = zonecache.Load(name)
						ok = err == nil
					}
					if !ok || loc.String() != name {
						t.Errorf("zone %q: %v, %v", name, loc, ok)
						return
					}
					if r == 49 {
						got[g][i] = loc
					}
				}
			}
		})
	}
	wg.Wait()
	for g := 1; g < len(got); g++ {
		for i := range names {
			if got[g][i] != got[0][i] {
				t.Errorf("%s: goroutine %d has %p, goroutine 0 %p", names[i], g, got[g][i], got[0][i])
			}
		}
	}
}
