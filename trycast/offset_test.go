package trycast

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// lowerMaxOffset makes 32-bit offsets address only limit data bytes until
// t ends, so that overflows can be tested without 2 GiB arrays.
func lowerMaxOffset(t *testing.T, limit int64) {
	t.Helper()
	old := maxOffset
	maxOffset = limit
	t.Cleanup(func() { maxOffset = old })
}

// TestOffsetOverflow: a cast whose output's int32 offsets cannot address
// its data (large_string -> string, numbers, dates, timestamps, bools,
// decimals -> string) fails with an OffsetOverflowError naming the first
// top-level row that does not fit, instead of wrapping the offsets; one
// byte less text fits. Large targets are not limited, nulls and failed
// rows take no room.
func TestOffsetOverflow(t *testing.T) {
	utf8, large := arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString
	ts := &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}
	st := func(dt arrow.DataType) arrow.DataType {
		return arrow.StructOf(arrow.Field{Name: "a", Type: dt, Nullable: true})
	}
	for _, c := range []struct {
		name     string
		from, to arrow.DataType
		in       string
		limit    int64 // the bytes the whole output takes
		row      int   // the first row past limit-1 bytes
	}{
		{"large_string", large, utf8, `["abc", null, "defg", "hi"]`, 9, 3},
		{"large_string first row", large, utf8, `["abcdefghi", null]`, 9, 0},
		{"large_binary", arrow.BinaryTypes.LargeBinary, utf8, `["YWJj", "ZGVm", "/w=="]`, 6, 1}, // "abc", "def", invalid UTF-8
		{"large_binary to binary", arrow.BinaryTypes.LargeBinary, arrow.BinaryTypes.Binary, `["YWJj", "ZGVm", "/w=="]`, 7, 2},
		{"int64", arrow.PrimitiveTypes.Int64, utf8, `[12345, null, 678, 9]`, 9, 3},
		{"int8 long texts", arrow.PrimitiveTypes.Int8, utf8, `[-128, -128, -128, -128, -128, -128]`, 24, 5},
		{"float64", arrow.PrimitiveTypes.Float64, utf8, `[1.5, 100]`, 8, 1},
		{"bool", arrow.FixedWidthTypes.Boolean, utf8, `[true, false, true]`, 13, 2},
		{"decimal", &arrow.Decimal128Type{Precision: 5, Scale: 2}, utf8, `["1.25", "-100.50"]`, 11, 1},
		{"date", arrow.FixedWidthTypes.Date32, utf8, `[0, 19000]`, 20, 1},
		{"timestamp", ts, utf8, `[0, 1]`, 46, 1},
		{"list", arrow.ListOf(large), arrow.ListOf(utf8), `[["ab", "cd"], [], null, ["ef"]]`, 6, 3},
		{"struct", st(arrow.PrimitiveTypes.Int32), st(utf8), `[{"a": 10}, {"a": null}, {"a": 200}]`, 5, 2},
		{"map", arrow.MapOf(arrow.PrimitiveTypes.Int32, large), arrow.MapOf(utf8, utf8),
			`[[{"key": 1, "value": "x"}], [{"key": 22, "value": "y"}, {"key": 333, "value": "z"}]]`, 6, 1},
		{"map value", arrow.MapOf(arrow.PrimitiveTypes.Int32, large), arrow.MapOf(arrow.PrimitiveTypes.Int32, utf8),
			`[[{"key": 1, "value": "x"}], [{"key": 2, "value": "yy"}, {"key": 3, "value": "zzz"}]]`, 6, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			in := fromJSON(t, mem, c.from, c.in)
			defer in.Release()

			lowerMaxOffset(t, c.limit)
			out, err := Cast(mem, in, c.to, Options{})
			if err != nil {
				t.Fatalf("%d bytes fit: %v", c.limit, err)
			}
			if err := array.ValidateFull(out); err != nil {
				t.Error(err)
			}
			out.Release()

			lowerMaxOffset(t, c.limit-1)
			_, f, err := CastWithFailures(mem, in, c.to, Options{})
			var oe *OffsetOverflowError
			if !errors.As(err, &oe) || !errors.Is(err, ErrOffsetOverflow) || !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("%d bytes: got %v, want an OffsetOverflowError", c.limit-1, err)
			}
			if oe.Row != c.row || oe.Limit != c.limit-1 || f.Count != 0 {
				t.Errorf("row %d limit %d failures %d, want row %d limit %d", oe.Row, oe.Limit, f.Count, c.row, c.limit-1)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, fmt.Sprintf("row %d: ", c.row)) || strings.Contains(msg, "\n") {
				t.Errorf("message %q", msg)
			}
		})
	}

	// 64-bit offsets are not limited by maxOffset.
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	lowerMaxOffset(t, 1)
	for from, js := range map[arrow.DataType]string{arrow.PrimitiveTypes.Int64: `[123456, 789]`, utf8: `["123456", "789"]`} {
		in := fromJSON(t, mem, from, js)
		out, err := Cast(mem, in, large, Options{})
		if err != nil {
			t.Fatalf("%s to large_string: %v", from, err)
		}
		if got := out.(*array.LargeString); got.Value(0) != "123456" || got.Value(1) != "789" {
			t.Errorf("%s to large_string: %v", from, got)
		}
		out.Release()
		in.Release()
	}
}

// TestOffsetLimits: the real limit is 2^31-1 bytes for int32 offsets, and
// sizing the output of many long values does not overflow int (on 386)
// before it is bounded.
func TestOffsetLimits(t *testing.T) {
	if got := dataLimit[int32](); got != math.MaxInt32 {
		t.Errorf("int32 limit %d", got)
	}
	if got := dataLimit[int64](); got != math.MaxInt {
		t.Errorf("int64 limit %d", got)
	}
	if got := dataSize(math.MaxInt32/8, maxTimestampText, dataLimit[int32]()); got != math.MaxInt32 {
		t.Errorf("size of %d timestamps: %d", math.MaxInt32/8, got)
	}
	if got := dataSize(1000, maxTimestampText, dataLimit[int32]()); got != 1000*maxTimestampText {
		t.Errorf("size of 1000 timestamps: %d", got)
	}
	// 300 million int8 or bool rows fit in 386 memory, their int64,
	// decimal or offsets outputs do not.
	n, wide := 300_000_000, strconv.IntSize == 64
	for _, to := range []arrow.DataType{arrow.PrimitiveTypes.Int64, &arrow.Decimal128Type{Precision: 38}, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.String} {
		want := wide || to.ID() == arrow.STRING
		if got := outputFits(n, to); got != want {
			t.Errorf("%d rows of %s fit: %v, want %v", n, to, got, want)
		}
	}
	if !outputFits(n, arrow.FixedWidthTypes.Boolean) || !outputFits(math.MaxInt32-1, arrow.PrimitiveTypes.Int8) {
		t.Error("narrow outputs do not fit")
	}
}
