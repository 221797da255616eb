package trycast

import (
	"math"
	"testing"
	"time"
	_ "time/tzdata" // zone tests must not depend on the host's zoneinfo
)

func micros(t *testing.T, rfc string) int64 {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, rfc)
	if err != nil {
		t.Fatal(err)
	}
	return tm.UnixMicro()
}

func TestParseTimestampDialects(t *testing.T) {
	all := func(v any) [3]any { return [3]any{v, v, v} }
	spark := func(v any) [3]any { return [3]any{nil, v, v} }
	presto := func(v any) [3]any { return [3]any{v, nil, nil} }
	null := any(nil)
	cases := []struct {
		in   string
		want [3]any // RFC 3339 instant or nil
	}{
		{"1970-01-01", all("1970-01-01T00:00:00Z")},
		{"1970-01-01 00:00:00", all("1970-01-01T00:00:00Z")},
		{" 2015-03-18 12:03:17.123456 ", all("2015-03-18T12:03:17.123456Z")},
		{"2015-03-18 12:03:17.1234567", all("2015-03-18T12:03:17.123456Z")},
		{"2015-03-18 1:2:3", all("2015-03-18T01:02:03Z")},
		{"2015-03-18 12:03", all("2015-03-18T12:03:00Z")},
		{"2015-03-18 12", spark("2015-03-18T12:00:00Z")},
		{"2015-03-18T12:03:17", spark("2015-03-18T12:03:17Z")},
		{"2015", spark("2015-01-01T00:00:00Z")},
		{"2015-03", spark("2015-03-01T00:00:00Z")},
		{"2015-03-18T12:03:17-1:0", spark("2015-03-18T13:03:17Z")},
		{"2015-03-18T12:03:17+01:30", spark("2015-03-18T10:33:17Z")},
		{"2015-03-18 12:03:17+01:30", all("2015-03-18T10:33:17Z")},
		{"2015-03-18 12:03:17 +01:30", all("2015-03-18T10:33:17Z")},
		{"2015-03-18 12:03:17-0130", all("2015-03-18T13:33:17Z")},
		{"2015-03-18 12:03:17+05", all("2015-03-18T07:03:17Z")},
		{"2015-03-18 12:03:17Z", all("2015-03-18T12:03:17Z")},
		{"2015-03-18 12:03:17 UTC", all("2015-03-18T12:03:17Z")},
		{"2015-03-18 12:03:17.5 America/Los_Angeles", all("2015-03-18T19:03:17.5Z")},
		{"2015-03-18 12:03:17 PST", spark("2015-03-18T19:03:17Z")},
		{"2015-03-18 12:03:17 EST", all("2015-03-18T17:03:17Z")},
		{"2015-03-18 12:03:17 UTC+2", spark("2015-03-18T10:03:17Z")},
		{"2015-03-18 12:03:17+17:00", all("2015-03-17T19:03:17Z")}, // Presto: hours below 24
		{"2015-03-18 12:03:17+1:00", all("2015-03-18T11:03:17Z")},
		{"2015-03-18 12:03:17+01:00:30", all("2015-03-18T11:02:47Z")},
		{"2015-03-18 12:03:17+010030", all("2015-03-18T11:02:47Z")},
		{"2015-03-18 12:03:17 -01:00:30", all("2015-03-18T13:03:47Z")},
		{"2015-03-18 12:03:17+01:00:30.5", presto("2015-03-18T11:02:46.5Z")},
		{"2015-03-18 12:03:17+19:00", presto("2015-03-17T17:03:17Z")}, // Spark: ±18:00
		{"2015-03-18 12:03:17 Mars/Olympus", all(null)},
		{"2000-01-01 00:00:00 +24", all(null)},
		{"2015-03-18T12:03:17-0:70", all(null)},
		{"2015-03-18T", all(null)},
		{"2015-03-18X", all(null)},
		{"2015-03-18 123142", all(null)},
		{"2015-03-18T123123", all(null)},
		{"2015/03/18", all(null)},
		{"2015.03.18", all(null)},
		{"abdef", all(null)},
		{"123", all(null)},
		{"", all(null)},
		{"2012-Oct-01", all(null)},
		{"2015-03-18 24:00:00", all(null)},
		{"2015-03-18 23:60:00", all(null)},
		{"2015-03-18 23:59:60", all(null)},
		{"T12:00:00", all(null)}, // Spark time-only form: rejected, see docs/trycast.md
		{"12:00:00", all(null)},  // likewise
		{"-1-1-1", presto(daysFromCivil(-1, 1, 1) * 86400 * 1e6)},
		{"+2015-03-18", all("2015-03-18T00:00:00Z")},
		{"300001-01-01", all(null)},
	}
	for _, c := range cases {
		for d := Presto; d <= SparkANSI; d++ {
			got, ok := ParseTimestamp([]byte(c.in), nil, d)
			if c.want[d] == nil {
				if ok {
					t.Errorf("%v ParseTimestamp(%q) = %s, want NULL", d, c.in, time.UnixMicro(got).UTC())
				}
				continue
			}
			w, isMicros := c.want[d].(int64)
			if !isMicros {
				w = micros(t, c.want[d].(string))
			}
			if !ok || got != w {
				t.Errorf("%v ParseTimestamp(%q) = %s, %v; want %s", d, c.in, time.UnixMicro(got).UTC(), ok, c.want[d])
			}
		}
	}
}

// TestParseTimestampPrestoOffsets: Velox's tryParsePrestoTimeOffsetString
// grammar ±h[h][[:]m[m][[:]s[s][[.,]f{1,3}]]], hours below 24, the
// fraction in milliseconds. The accepted rows are Velox's
// CastExprTest.stringToTimestamp cases, as seconds and nanoseconds.
func TestParseTimestampPrestoOffsets(t *testing.T) {
	for _, c := range []struct {
		in          string
		sec, nanos  int64
		ok, sparkOK bool
	}{
		{"1970-01-01 00:00:00-02:00", 7200, 0, true, true},
		{"1970-01-01 00:00:00 +02", -7200, 0, true, true},
		{"1970-01-01 00:00:00 -0101", 3660, 0, true, true},
		{"1970-01-02 00:00:00 +01:01:01.001", 82738, 999000000, true, false},
		{"1970-01-01 00:00:00 -01:01:01.001", 3661, 1000000, true, false},
		{"1970-01-02 00:00:00 +01:01:01.01", 82738, 990000000, true, false},
		{"1970-01-01 00:00:00 -01:01:01.01", 3661, 10000000, true, false},
		{"1970-01-02 00:00:00 +01:01:01.1", 82738, 900000000, true, false},
		{"1970-01-01 00:00:00 -01:01:01.1", 3661, 100000000, true, false},
		{"1970-01-02 00:00:00 +01:01:01", 82739, 0, true, true},
		{"1970-01-01 00:00:00 -01:01:01", 3661, 0, true, true},
		{"1970-01-02 00:00:00 +23:01", 3540, 0, true, false},
		{"1970-01-01 00:00:00 -23:01", 82860, 0, true, false},
		{"1970-01-02 00:00:00 +23", 3600, 0, true, false},
		{"1970-01-01 00:00:00 -23", 82800, 0, true, false},
		{"2000-01-01 12:13:14.123+23:59:59.999", 946642394, 124000000, true, false},
		{"2000-01-01 12:13:14.123-23:59:59.999", 946815194, 122000000, true, false},
		{"1970-01-01 00:00:00 -01:01:01,001", 3661, 1000000, true, false},
		{"1970-01-02 00:00:00 +01:01:01.001   ", 82738, 999000000, true, false},
		{"1970-01-01 00:00:00.999 -01:01:01.002", 3662, 1000000, true, false},
		{"1970-01-02 00:00:00.001 +01:01:01.002", 82738, 999000000, true, false},
		{"1970-01-01 00:00:00 -010101001", 3661, 1000000, true, false},
		{"1970-01-01 00:00:00 +1", -3600, 0, true, true},
		{"1970-01-01 00:00:00 +1:5", -3900, 0, true, true},
		// Rejected: 24 hours, 60 minutes or seconds, a fourth fraction
		// digit, a separator with nothing after it, other characters.
		{"1970-01-01 00:00:00 +24", 0, 0, false, false},
		{"1970-01-01 00:00:00 +01:60", 0, 0, false, false},
		{"1970-01-01 00:00:00 +01:00:60", 0, 0, false, false},
		{"1970-01-01 00:00:00 +01:00:00.0001", 0, 0, false, false},
		{"1970-01-01 00:00:00 +01:00:00.", 0, 0, false, false},
		{"1970-01-01 00:00:00 +01:", 0, 0, false, false},
		{"1970-01-01 00:00:00 +01:00:", 0, 0, false, false},
		{"1970-01-01 00:00:00 +01:00:00.x", 0, 0, false, false},
		{"1970-01-01 00:00:00 +01x", 0, 0, false, false},
		{"1970-01-01 00:00:00 +", 0, 0, false, false},
		{"1970-01-01 00:00:00 +01:00 x", 0, 0, false, false},
	} {
		got, ok := ParseTimestamp([]byte(c.in), nil, Presto)
		want := c.sec*1_000_000 + c.nanos/1000
		if ok != c.ok || (ok && got != want) {
			t.Errorf("Presto ParseTimestamp(%q) = %d, %v; want %d, %v", c.in, got, ok, want, c.ok)
		}
		if _, ok := ParseTimestamp([]byte(c.in), nil, Spark); ok != c.sparkOK {
			t.Errorf("Spark ParseTimestamp(%q) ok = %v, want %v", c.in, ok, c.sparkOK)
		}
	}
	// Near the end of the int64 range the fraction of the offset can
	// overflow: a failure, not a wrapped instant.
	const maxTs = "294247-01-10 04:00:54.775807"
	for _, c := range []struct {
		zone string
		want int64
		ok   bool
	}{
		{"", math.MaxInt64, true},
		{" +00:00:00.001", math.MaxInt64 - 1000, true},
		{" -00:00:00.001", 0, false},
	} {
		if got, ok := ParseTimestamp([]byte(maxTs+c.zone), nil, Presto); ok != c.ok || got != c.want {
			t.Errorf("Presto ParseTimestamp(%q) = %d, %v; want %d, %v", maxTs+c.zone, got, ok, c.want, c.ok)
		}
	}
}

func TestParseTimestampSessionZone(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ in, want string }{
		{"2020-07-01 12:00:00", "2020-07-01T16:00:00Z"},
		{"2020-01-01 12:00:00", "2020-01-01T17:00:00Z"},
		// Spring-forward gap: 02:30 does not exist, moves forward to 03:30 EDT.
		{"2021-03-14 02:30:00", "2021-03-14T07:30:00Z"},
		// Fall-back overlap: 01:30 happens twice, the earlier (EDT) wins.
		{"2021-11-07 01:30:00", "2021-11-07T05:30:00Z"},
		// An explicit zone wins over the session zone.
		{"2020-07-01 12:00:00 UTC", "2020-07-01T12:00:00Z"},
	}
	for _, c := range cases {
		for d := Presto; d <= SparkANSI; d++ {
			got, ok := ParseTimestamp([]byte(c.in), ny, d)
			if w := micros(t, c.want); !ok || got != w {
				t.Errorf("%v ParseTimestamp(%q, NY) = %s, %v; want %s", d, c.in, time.UnixMicro(got).UTC(), ok, c.want)
			}
		}
	}
}
