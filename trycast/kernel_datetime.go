package trycast

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Timestamp -> date, in both dialects the calendar date of the instant in
// the session zone (Options.TimeZone, nil = UTC): Spark's
// microsToDays(t, zoneId), and Velox's Presto cast with
// adjust_timestamp_to_session_timezone (UTC when it is off). Times before
// 1970 floor to the earlier day. It is the date that the timestamp's text
// (timestamp -> utf8) starts with. A date past int32 days (only reachable
// from seconds) fails.

func timestampsTo(from *arrow.TimestampType, to arrow.DataType) kernel {
	if to.ID() == arrow.DATE32 {
		return timestampsToDates(from.Unit)
	}
	return formatTimestamps(from, to)
}

func timestampsToDates(unit arrow.TimeUnit) kernel {
	return func(c *caster, in arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
		n := in.Len()
		src := columnar.FixedValues[int64](in)
		valid := validity(in)
		o := newFixedOut[int32](c.mem, n)
		zc := zoneCache{loc: c.loc}
		if zc.loc == time.UTC {
			zc.loc = nil // no offset: rows skip the cache
		}
		vals, bits := o.vals[:n], o.validity
		for base := 0; base < n; base += 8 {
			m := min(8, n-base)
			rows := vals[base : base+m]
			mask := byte(1<<m - 1)
			if valid != nil {
				mask &= bitsAt(valid, in.Offset()+base)
				if mask == 0 {
					clearRows(rows)
					bits[base>>3] = 0
					continue
				}
			}
			var ok byte
			for j, v := range src[base : base+m] {
				// Constant divisors: the compiler multiplies instead.
				var sec int64
				switch unit {
				case arrow.Second:
					sec = v
				case arrow.Millisecond:
					sec = floorDiv(v, 1_000)
				case arrow.Microsecond:
					sec = floorDiv(v, 1_000_000)
				default:
					sec = floorDiv(v, 1_000_000_000)
				}
				if zc.loc != nil {
					sec += zc.offset(sec)
				}
				days := floorDiv(sec, secondsPerDay)
				// Only seconds can leave int32 days; a null row's value is 0.
				if mask>>j&1 == 0 || days < math.MinInt32 || days > math.MaxInt32 {
					rows[j] = 0
					continue
				}
				rows[j] = int32(days)
				ok |= 1 << j
			}
			bits[base>>3] = ok
		}
		return o.finish(to, n)
	}
}

// zoneCache is a zone's UTC offset with the span of instants it holds for,
// so that a column of nearby instants asks time.Location once per
// transition rather than once per row. A nil or UTC loc is nil here.
type zoneCache struct {
	loc    *time.Location
	lo, hi int64 // [lo, hi) in Unix seconds; empty at first
	off    int64
}

// offset is loc's offset in seconds east of UTC at the instant sec.
func (z *zoneCache) offset(sec int64) int64 {
	if sec >= z.lo && sec < z.hi {
		return z.off
	}
	return z.miss(sec)
}

func (z *zoneCache) miss(sec int64) int64 {
	t := time.Unix(sec, 0).In(z.loc)
	_, off := t.Zone()
	start, end := t.ZoneBounds()
	z.lo, z.hi, z.off = math.MinInt64, math.MaxInt64, int64(off)
	if !start.IsZero() {
		z.lo = start.Unix()
	}
	if !end.IsZero() {
		z.hi = end.Unix()
	}
	if sec < z.lo || sec >= z.hi { // not expected; do not cache
		z.lo, z.hi = 0, 0
	}
	return int64(off)
}
