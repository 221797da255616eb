package trycast

import (
	"math"
	"time"
)

// Proleptic Gregorian calendar arithmetic on day numbers (days since
// 1970-01-01), valid for any int64 year that does not overflow.

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysInMonth(y int64, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// validDate reports whether y-m-d is a calendar date.
func validDate(y int64, m, d int) bool {
	return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m)
}

// daysFromCivil converts a calendar date to days since the epoch.
func daysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := int64((153*mp+2)/5 + d - 1)
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays converts days since the epoch to a calendar date.
func civilFromDays(z int64) (y int64, m, d int) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	m = int(mp + 3)
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// daysToInt32 narrows a day number; dates beyond int32 days fail.
func daysToInt32(days int64) (int32, bool) {
	if days < math.MinInt32 || days > math.MaxInt32 {
		return 0, false
	}
	return int32(days), true
}

// zoneOffset returns loc's UTC offset in seconds at the instant unix.
func zoneOffset(loc *time.Location, unix int64) int64 {
	_, off := time.Unix(unix, 0).In(loc).Zone()
	return int64(off)
}

// localToUTC converts a wall-clock time in loc (seconds since the epoch as
// if loc were UTC) to an instant, resolving like java.time's
// ZonedDateTime.of: in an overlap the earlier offset wins, in a gap the
// wall time moves forward by the gap's length.
func localToUTC(local int64, loc *time.Location) int64 {
	if loc == nil || loc == time.UTC {
		return local
	}
	const day = 86400
	early := zoneOffset(loc, local-day)
	late := zoneOffset(loc, local+day)
	if early == late {
		u := local - early
		if zoneOffset(loc, u) == early {
			return u
		}
		// Two transitions within two days: fall back to a local fix-up.
		return local - zoneOffset(loc, u)
	}
	if u := local - early; zoneOffset(loc, u) == early {
		return u
	}
	if u := local - late; zoneOffset(loc, u) == late {
		return u
	}
	return local - early
}

const (
	microsPerSecond = 1_000_000
	secondsPerDay   = 86400
)

// secondsToMicros combines seconds and a microsecond fraction, failing on
// int64 overflow.
func secondsToMicros(sec, micros int64) (int64, bool) {
	const lim = math.MaxInt64 / microsPerSecond
	if sec > lim || sec < -lim-1 {
		return 0, false
	}
	r := sec * microsPerSecond
	if micros > 0 && r > math.MaxInt64-micros {
		return 0, false
	}
	return r + micros, true
}
