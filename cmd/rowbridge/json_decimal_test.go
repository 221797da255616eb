package main

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestDecimal128JSONExact: decimal128 values print as their exact
// number text at every magnitude, on 32-bit machines too (arrow-go's
// Num.ToString reads the value through big.Words it takes to be 64 bits,
// so on 386 it printed 2^40 at scale 2 as "0.00").
func TestDecimal128JSONExact(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	max38 := decimal128.New(5421010862427522170, 687399551400673279) // 10^38 - 1
	cases := []struct {
		v     decimal128.Num
		scale int32
		want  string
	}{
		{decimal128.New(0, 0), 2, "0.00"},
		{decimal128.New(0, 1), 2, "0.01"},
		{decimal128.FromI64(-1), 2, "-0.01"},
		{decimal128.New(0, 1<<40), 2, "10995116277.76"},
		{decimal128.FromI64(-(1 << 40)), 2, "-10995116277.76"},
		{decimal128.New(0, 1<<40), 0, "1099511627776"},
		{decimal128.New(0, 12), -3, "12000"},
		{decimal128.New(1, 0), 5, "184467440737095.51616"},
		{max38, 10, "9999999999999999999999999999.9999999999"},
		{max38.Negate(), 38, "-0.99999999999999999999999999999999999999"},
	}
	for _, c := range cases {
		b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 38, Scale: c.scale})
		b.Append(c.v)
		arr := b.NewArray()
		b.Release()
		if got := string(appendValueJSON(nil, arr, 0)); got != c.want {
			t.Errorf("%v at scale %d: %s, want %s", c.v, c.scale, got, c.want)
		}
		arr.Release()
	}
}

// TestDecimal256JSONExact: decimal256 values print exactly too (they fell
// through to arrow-go's ValueStr, wrong on 386 like decimal128's ToString).
func TestDecimal256JSONExact(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cases := []struct {
		v     decimal256.Num
		scale int32
		want  string
	}{
		{decimal256.New(0, 0, 0, 1<<40), 2, "10995116277.76"},
		{decimal256.FromI64(-(1 << 40)), 2, "-10995116277.76"},
		{decimal256.New(0, 0, 1, 0), 5, "184467440737095.51616"},
		{decimal256.New(0x161bcca7119915b5, 0x764b4abe8652979, 0x7775a5f171950fff, 0xffffffffffffffff), 20,
			"99999999999999999999999999999999999999999999999999999999.99999999999999999999"},
		{decimal256.New(0, 0, 0, 12), -3, "12000"},
	}
	for _, c := range cases {
		b := array.NewDecimal256Builder(mem, &arrow.Decimal256Type{Precision: 76, Scale: c.scale})
		b.Append(c.v)
		arr := b.NewArray()
		b.Release()
		if got := string(appendValueJSON(nil, arr, 0)); got != c.want {
			t.Errorf("%v at scale %d: %s, want %s", c.v, c.scale, got, c.want)
		}
		arr.Release()
	}
}
