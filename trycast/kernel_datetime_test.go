package trycast

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/zonecache"
)

func castTimestampsToDates(t *testing.T, mem memory.Allocator, unit arrow.TimeUnit, vals []int64, valid []bool, opts Options) *array.Date32 {
	t.Helper()
	b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: unit})
	defer b.Release()
	for i, v := range vals {
		b.AppendValues([]arrow.Timestamp{arrow.Timestamp(v)}, []bool{valid == nil || valid[i]})
	}
	in := b.NewArray()
	defer in.Release()
	out, err := Cast(mem, in, arrow.FixedWidthTypes.Date32, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := array.ValidateFull(out); err != nil {
		t.Fatal(err)
	}
	return out.(*array.Date32)
}

// TestCastTimestampToDate: known answers, before and after 1970, in every
// unit, in UTC and in session zones, the same in every dialect.
func TestCastTimestampToDate(t *testing.T) {
	const fail = math.MinInt64 // marks an expected failure (null)
	tokyo, _ := zonecache.Load("Asia/Tokyo")
	la, _ := zonecache.Load("America/Los_Angeles")
	ny, _ := zonecache.Load("America/New_York")
	kathmandu, _ := zonecache.Load("Asia/Kathmandu")
	cases := []struct {
		name string
		unit arrow.TimeUnit
		loc  *time.Location
		in   int64
		want int64
	}{
		{"epoch", arrow.Microsecond, nil, 0, 0},
		{"last micro of day 0", arrow.Microsecond, nil, 86_399_999_999, 0},
		{"day 1", arrow.Microsecond, time.UTC, 86_400_000_000, 1},
		{"one micro before 1970", arrow.Microsecond, nil, -1, -1},
		{"one nano before 1970", arrow.Nanosecond, nil, -1, -1},
		{"one milli before 1970", arrow.Millisecond, nil, -1, -1},
		{"two days before 1970", arrow.Second, nil, -86_401, -2},
		{"exactly one day before", arrow.Second, nil, -86_400, -1},
		{"min micros", arrow.Microsecond, nil, math.MinInt64, -106_751_992},
		{"seconds past int32 days", arrow.Second, nil, math.MaxInt64, fail},
		{"seconds before int32 days", arrow.Second, nil, math.MinInt64, fail},
		{"millis past int32 days", arrow.Millisecond, nil, math.MinInt64, fail},
		{"Tokyo: 1969-12-31T15:00Z is 1970-01-01", arrow.Second, tokyo, -32_400, 0},
		{"Tokyo: a second earlier", arrow.Second, tokyo, -32_401, -1},
		{"LA: 03:00 PDT on DST day", arrow.Second, la, 1_710_064_800, 19_792},
		{"LA: 23:59:59 PST the day before", arrow.Second, la, 1_710_057_599, 19_791},
		{"New York LMT (-4:56:02) in 1883", arrow.Second, ny, -2_745_429_000, -31_777},
		{"Kathmandu +5:45", arrow.Millisecond, kathmandu, 1_704_132_900_000, 19_724},
	}
	for _, d := range []Dialect{Presto, Spark, SparkANSI} {
		for _, c := range cases {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			out := castTimestampsToDates(t, mem, c.unit, []int64{c.in}, nil, Options{Dialect: d, TimeZone: c.loc})
			switch {
			case c.want == fail && out.IsValid(0):
				t.Errorf("%v %s: got %d, want null", d, c.name, out.Value(0))
			case c.want != fail && (out.IsNull(0) || int64(out.Value(0)) != c.want):
				t.Errorf("%v %s: got %v (null %v), want %d", d, c.name, out.Value(0), out.IsNull(0), c.want)
			}
			out.Release()
			mem.AssertSize(t, 0)
		}
	}
}

// TestCastTimestampToDateMatchesText: the date is the one the timestamp's
// text starts with, for random instants from 1800 to 2200 in several
// zones, with nulls and a sliced input.
func TestCastTimestampToDateMatchesText(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(11, 12))
	const n = 3000
	lo := time.Date(1800, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	hi := time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	vals, valid := make([]int64, n), make([]bool, n)
	for i := range vals {
		vals[i] = lo + r.Int64N(hi-lo)
		if i%97 < 40 { // runs of instants an hour apart cross transitions
			vals[i] = vals[i-i%97] + int64(i%97)*3_600_000_000
		}
		valid[i] = i%13 != 5
	}
	for _, zone := range []string{"UTC", "Europe/Berlin", "America/Sao_Paulo", "Australia/Lord_Howe", "Pacific/Apia"} {
		loc, err := zonecache.Load(zone)
		if err != nil {
			t.Fatal(err)
		}
		out := castTimestampsToDates(t, mem, arrow.Microsecond, vals, valid, Options{TimeZone: loc})
		sliced := array.NewSlice(out, 3, n-5).(*array.Date32)
		for i := range n {
			if !valid[i] {
				if out.IsValid(i) {
					t.Fatalf("%s row %d: null input gave %d", zone, i, out.Value(i))
				}
				continue
			}
			text := string(AppendTimestamp(nil, vals[i], loc, Spark))
			date := string(AppendDate(nil, int32(out.Value(i)), Spark))
			if !strings.HasPrefix(text, date+" ") {
				t.Fatalf("%s row %d (%d): date %s, text %s", zone, i, vals[i], date, text)
			}
			if i >= 3 && i < n-5 && sliced.Value(i-3) != out.Value(i) {
				t.Fatalf("slice row %d differs", i-3)
			}
		}
		sliced.Release()
		out.Release()
	}
}
