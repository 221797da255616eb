package trycast

import (
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// TestParsersDoNotAllocate asserts zero allocations per call for accepted
// and rejected inputs of every parser and conversion, in every dialect.
func TestParsersDoNotAllocate(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string][]string{
		"int": {"12345", "  -77 ", "12.5", "", "$", "2147483648", "\u00a012"},
		"float": {"1.5", "3.14159265358979323846", "1e309", "1.7976931348623158e308", "NaN", "inf", "1.2d", "0x1p3", "", "abc", "1e", "1e-400",
			"9007199254740993" + strings.Repeat("0", 900) + "1e-901", "1" + strings.Repeat("0", 1000) + "e-1000000", "1e-" + strings.Repeat("9", 30)},
		"bool":      {"true", " yes ", "", "maybe"},
		"decimal":   {"1.556", "-3E+2", " 1.23", "12345678901234567890123456789012345678", "1e99", "abc", ""},
		"date":      {"2024-01-05", "2015-03-18T12:00", "2015", "2015-02-30", "", "x"},
		"timestamp": {"2015-03-18 12:03:17.123", "2015-03-18T12:03:17Z", "2015-03-18 12:03:17 America/Los_Angeles", "2015-03-18 12:03:17 Nowhere/Zone", "2015-03-18 12:03:17+01:00", "2015-03-18 12:03:17 -01:01:01.5", "2015-03-18 12:03:17 Zone/9", "", "2015-13-01"},
	}
	var sink int64
	for d := Presto; d <= SparkANSI; d++ {
		for kind, list := range inputs {
			for _, in := range list {
				b := []byte(in)
				var f func()
				switch kind {
				case "int":
					f = func() { v, _ := ParseInt(b, 32, d); sink += v }
				case "float":
					f = func() { v, _ := ParseFloat(b, 64, d); w, _ := ParseFloat(b, 32, d); sink += int64(v + w) }
				case "bool":
					f = func() {
						if v, _ := ParseBool(b, d); v {
							sink++
						}
					}
				case "decimal":
					f = func() { v, _ := ParseDecimal(b, 38, 2, d); sink += int64(v.LowBits()) }
				case "date":
					f = func() { v, _ := ParseDate(b, d); sink += int64(v) }
				case "timestamp":
					f = func() { v, _ := ParseTimestamp(b, ny, d); sink += v }
				}
				f() // warm the zone cache
				if n := testing.AllocsPerRun(50, f); n != 0 {
					t.Errorf("%v %s %q: %v allocs per call", d, kind, in, n)
				}
			}
		}
	}
	_ = sink
}

// Package-level sinks keep the compiler from dropping pure calls.
var (
	sinkInt   int64
	sinkFloat float64
	sinkDec   decimal128.Num
	sinkOK    bool
)

// TestConversionsDoNotAllocate covers the numeric conversions and the
// Append functions (appending into a buffer with room).
func TestConversionsDoNotAllocate(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	dec := decimal128.FromI64(-123456789)
	big := decimal128.FromI64(1152921573326323713)
	small := decimal128.FromI64(100)
	buf := make([]byte, 0, 128)
	for d := Presto; d <= SparkANSI; d++ {
		for _, f := range []func(){
			func() { sinkInt, sinkOK = IntToInt(1234, 8, d) },
			func() { sinkInt, sinkOK = FloatToInt(2.5, 32, d); sinkInt, sinkOK = FloatToInt(1e300, 64, d) },
			func() { sinkDec, sinkOK = IntToDecimal(99, 4, 2, d); sinkDec, sinkOK = IntToDecimal(99, 3, 2, d) },
			func() {
				sinkDec, sinkOK = FloatToDecimal(9.95, 3, 1, d)
				sinkDec, sinkOK = FloatToDecimal(10000000000000.25, 20, 1, d)
			},
			func() { sinkInt, sinkOK = DecimalToInt(dec, 2, 32, d) },
			func() { sinkFloat = DecimalToFloat(dec, 30) },
			func() { sinkFloat = float64(DecimalToFloat32(dec, 30) + DecimalToFloat32(big, 0)) },
			func() { sinkDec, sinkOK = DecimalToDecimal(dec, 2, 5, 0, d) },
			func() { buf = AppendInt(buf[:0], -42, d) },
			func() { buf = AppendFloat(buf[:0], 1.234e-5, 64, d); buf = AppendFloat(buf[:0], 5e-324, 64, d) },
			func() { buf = AppendBool(buf[:0], true, d) },
			func() { buf = AppendDecimal(buf[:0], dec, 4, d); buf = AppendDecimal(buf[:0], small, 10, d) },
			func() { buf = AppendDate(buf[:0], 19727, d) },
			func() { buf = AppendTimestamp(buf[:0], 1426683797123456, tokyo, d) },
		} {
			if n := testing.AllocsPerRun(50, f); n != 0 {
				t.Errorf("%v: conversion allocates %v per call", d, n)
			}
		}
	}
}
