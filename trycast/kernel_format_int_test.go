package trycast

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestEightDigits: the multiply-and-shift divisions hold for every part
// they divide, and eightDigits prints every boundary and random value as
// %08d does.
func TestEightDigits(t *testing.T) {
	for x := uint64(0); x < 10000; x++ {
		if x*5243>>19 != x/100 {
			t.Fatalf("%d*5243>>19 = %d, want %d", x, x*5243>>19, x/100)
		}
	}
	for x := uint64(0); x < 100; x++ {
		if x*103>>10 != x/10 {
			t.Fatalf("%d*103>>10 = %d, want %d", x, x*103>>10, x/10)
		}
	}
	vals := []uint64{0, 1, 9, 10, 99, 100, 9999, 10000, 10001, 99999999, 12345678, 87654321, 10000000, 9999999}
	r := rand.New(rand.NewPCG(51, 52))
	for range 100000 {
		vals = append(vals, r.Uint64N(1e8))
	}
	for _, x := range vals {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], eightDigits(x))
		if got, want := string(b[:]), fmt.Sprintf("%08d", x); got != want {
			t.Fatalf("eightDigits(%d) = %q, want %q", x, got, want)
		}
	}
}

// TestDecimalDigits: the digit count at every power of ten and next to it.
func TestDecimalDigits(t *testing.T) {
	vals := []uint64{0, math.MaxUint64, 1 << 63}
	for p := uint64(1); p <= 1e19; p *= 10 {
		vals = append(vals, p-1, p, p+1)
		if p == 1e19 {
			break
		}
	}
	for b := 0; b < 64; b++ {
		vals = append(vals, 1<<b, 1<<b-1)
	}
	for _, x := range vals {
		if got, want := decimalDigits(x), len(strconv.FormatUint(x, 10)); got != want {
			t.Fatalf("decimalDigits(%d) = %d, want %d", x, got, want)
		}
	}
}

// intTextValues are the values around every length the text writer
// handles: each power of ten and one less, their negatives, the widths'
// ends, and random values of every magnitude.
func intTextValues(r *rand.Rand) []int64 {
	vals := []int64{0, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, math.MaxInt32, math.MinInt32,
		math.MaxInt16, math.MinInt16, math.MaxInt8, math.MinInt8}
	for p := int64(1); p <= 1e18; p *= 10 {
		vals = append(vals, p, p-1, p+1, -p, 1-p, -p-1)
	}
	for range 3000 {
		vals = append(vals, r.Int64()>>r.IntN(64))
	}
	return vals
}

// TestCastIntsToTextEdges: every integer width cast to string and
// large_string prints each value as strconv does, with nulls whose slots
// hold the longest values (some, and runs of more than 8), at offsets 0
// to 9; the data buffer holds
// exactly the text.
func TestCastIntsToTextEdges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(53, 54))
	vals := intTextValues(r)
	for _, from := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64} {
		width := intWidth(from)
		wide := make([]int64, len(vals))
		for i, v := range vals {
			wide[i] = v << (64 - width) >> (64 - width) // wraps into the width
		}
		for _, null := range []func(int) bool{nil, func(i int) bool { return i%3 == 1 }, func(i int) bool { return i >= 16 && i < 90 || i%5 == 0 }} {
			in := intColumn(mem, from, wide, null)
			for off := 0; off <= 9; off++ {
				sliced := array.NewSlice(in, int64(off), int64(in.Len()))
				for _, to := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString} {
					out, err := Cast(mem, sliced, to, Options{})
					if err != nil {
						t.Fatal(err)
					}
					if err := array.ValidateFull(out); err != nil {
						t.Fatal(err)
					}
					total := 0
					for i := range sliced.Len() {
						row := off + i
						if null != nil && null(row) {
							if out.IsValid(i) {
								t.Fatalf("%s->%s row %d: null input is valid", from, to, row)
							}
							continue
						}
						want := strconv.FormatInt(wide[row], 10)
						total += len(want)
						got := out.(array.StringLike).Value(i)
						if !out.IsValid(i) || got != want {
							t.Fatalf("%s->%s row %d: %q, want %q", from, to, row, got, want)
						}
					}
					if got := out.Data().Buffers()[2].Len(); got != total {
						t.Fatalf("%s->%s off %d: %d data bytes, want %d", from, to, off, got, total)
					}
					out.Release()
				}
				sliced.Release()
			}
			in.Release()
		}
	}
}

// intColumn is an integer column of vals in type dt; row i is null when
// null(i) (null may be nil), its slot holding the width's most negative
// value (the longest text).
func intColumn(mem memory.Allocator, dt arrow.DataType, vals []int64, null func(int) bool) arrow.Array {
	width := intWidth(dt) / 8
	n := len(vals)
	values := memory.NewResizableBuffer(mem)
	values.Resize(n * width)
	b := values.Bytes()
	var bits *memory.Buffer
	nulls := 0
	if null != nil {
		bits = memory.NewResizableBuffer(mem)
		bits.Resize(int(bitutil.BytesForBits(int64(n))))
		clear(bits.Bytes())
	}
	for i, v := range vals {
		if null != nil {
			if null(i) {
				v = math.MinInt64 >> (64 - 8*width)
				nulls++
			} else {
				bitutil.SetBit(bits.Bytes(), i)
			}
		}
		for k := range width {
			b[i*width+k] = byte(v >> (8 * k))
		}
	}
	d := array.NewData(dt, n, []*memory.Buffer{bits, values}, nil, nulls, 0)
	values.Release()
	if bits != nil {
		bits.Release()
	}
	defer d.Release()
	return array.MakeFromData(d)
}

// TestCastIntsToTextNoRows: an empty column, and one sliced to no rows,
// give a valid empty text column of either offset width.
func TestCastIntsToTextNoRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	whole := intColumn(mem, arrow.PrimitiveTypes.Int64, []int64{12, -3}, func(i int) bool { return i == 1 })
	defer whole.Release()
	for _, lohi := range [][2]int64{{0, 0}, {1, 1}, {2, 2}} {
		in := array.NewSlice(whole, lohi[0], lohi[1])
		for _, to := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString} {
			out, err := Cast(mem, in, to, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := array.ValidateFull(out); err != nil {
				t.Fatal(err)
			}
			if out.Len() != 0 || out.DataType().ID() != to.ID() {
				t.Fatalf("slice %v to %s: %d rows of %s", lohi, to, out.Len(), out.DataType())
			}
			out.Release()
		}
		in.Release()
	}
}
