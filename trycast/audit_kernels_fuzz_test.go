package trycast

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// These fuzz targets hold the array kernels that settle rows without a
// call (text to integers 64 rows at a time, integers to text, doubles to
// integers, decimals to doubles) to the scalar conversions on batches of
// many rows, with nulls, sliced at an offset, their buffers ending exactly
// at their last byte, in every dialect.

// auditNull says whether row i of a batch is null, from the fuzzer's mask.
func auditNull(mask uint64, i int) bool { return mask>>(uint(i)%64)&1 != 0 }

// auditValidity is the exact validity bitmap of n rows (nil without nulls).
func auditValidity(n int, mask uint64) ([]byte, int) {
	if mask == 0 {
		return nil, 0
	}
	bits := make([]byte, (n+7)/8)
	nulls := 0
	for i := range n {
		if auditNull(mask, i) {
			nulls++
		} else {
			bits[i>>3] |= 1 << (i & 7)
		}
	}
	return bits, nulls
}

// auditArray makes an array of type dt over exact copies of the buffers.
func auditArray(dt arrow.DataType, n int, mask uint64, bufs ...[]byte) arrow.Array {
	bits, nulls := auditValidity(n, mask)
	list := []*memory.Buffer{nil}
	if bits != nil {
		list[0] = memory.NewBufferBytes(bits)
	}
	for _, b := range bufs {
		list = append(list, memory.NewBufferBytes(bytes.Clone(b)[:len(b):len(b)]))
	}
	d := array.NewData(dt, n, list, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// auditCast casts in[off:] to to and returns the valid ValidateFull'd
// result; the caller releases it.
func auditCast(t *testing.T, mem memory.Allocator, in arrow.Array, off int, to arrow.DataType, d Dialect) arrow.Array {
	t.Helper()
	sl := array.NewSlice(in, int64(off), int64(in.Len()))
	defer sl.Release()
	out, err := Cast(mem, sl, to, Options{Dialect: d})
	if err != nil {
		t.Fatal(err)
	}
	if err := array.ValidateFull(out); err != nil {
		t.Fatal(err)
	}
	return out
}

var auditDialects = []Dialect{Presto, Spark, SparkANSI}

// FuzzAuditTextToIntBatches splits data at sep into rows, repeats them to
// more than two groups of 64, and casts the batch (string and
// large_string, nulls from mask, sliced at off) to every integer width.
func FuzzAuditTextToIntBatches(f *testing.F) {
	f.Add([]byte("12,-7,,abc,99999999,-128,1234567890123456,-0, 5 ,1.5,+3"), byte(','), uint64(0), uint8(0))
	f.Add([]byte("-9223372036854775808;9223372036854775807;-;--1;00000000000000001"), byte(';'), uint64(0x8000000000000001), uint8(63))
	f.Fuzz(func(t *testing.T, data []byte, sep byte, mask uint64, off uint8) {
		parts := bytes.Split(data, []byte{sep})
		if len(parts) > 200 {
			return
		}
		var rows []string
		for len(rows) < 130 {
			for _, p := range parts {
				rows = append(rows, string(p))
			}
		}
		start := int(off) % len(rows)
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		offs32, offs64 := []int32{0}, []int64{0}
		var text []byte
		for _, r := range rows {
			text = append(text, r...)
			offs32 = append(offs32, int32(len(text)))
			offs64 = append(offs64, int64(len(text)))
		}
		ins := []arrow.Array{
			auditArray(arrow.BinaryTypes.String, len(rows), mask, arrow.Int32Traits.CastToBytes(offs32), text),
			auditArray(arrow.BinaryTypes.LargeString, len(rows), mask, arrow.Int64Traits.CastToBytes(offs64), text),
		}
		for _, in := range ins {
			for _, to := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64} {
				for _, d := range auditDialects {
					out := auditCast(t, mem, in, start, to, d)
					for i := range out.Len() {
						row := start + i
						want, ok := ParseInt([]byte(rows[row]), intWidth(to), d)
						if auditNull(mask, row) {
							want, ok = 0, false
						}
						if out.IsValid(i) != ok || intAt(out, i) != want {
							t.Fatalf("%s -> %s %v row %d %q: got %d (valid %v), want %d, %v",
								in.DataType(), to, d, row, rows[row], intAt(out, i), out.IsValid(i), want, ok)
						}
					}
					out.Release()
				}
			}
			in.Release()
		}
	})
}

// FuzzAuditFixedKernels reads data as 8-byte words and casts them as
// integers of every width to string and large_string and to narrower
// integers, as doubles and reals to every integer width, and in pairs as
// decimals of the given scale to double, holding each row to the scalar.
func FuzzAuditFixedKernels(f *testing.F) {
	seed := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, v)
		}
		return b
	}
	f.Add(seed(0, 1, math.MaxUint64, 1<<63, math.Float64bits(2.5), math.Float64bits(-2.5), math.Float64bits(2147483646.5), 99999999, 100000000), uint64(0), uint8(0), uint8(2))
	f.Add(seed(math.Float64bits(0.49999999999999994), math.Float64bits(-127.5), 1<<53, 1<<63|1<<53, 10000000000000000), uint64(0x5555), uint8(3), uint8(22))
	f.Fuzz(func(t *testing.T, data []byte, mask uint64, off uint8, scale uint8) {
		nw := len(data) / 8
		if nw == 0 || nw > 512 {
			return
		}
		words := make([]uint64, nw)
		for i := range words {
			words[i] = binary.LittleEndian.Uint64(data[8*i:])
		}
		start := int(off) % nw
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		null := func(i int) bool { return auditNull(mask, i) }

		// Integers of every width, to text and to every integer width.
		for _, w := range []int{8, 16, 32, 64} {
			vals := make([]int64, nw)
			raw := make([]byte, 0, nw*w/8)
			for i, x := range words {
				v := int64(x<<(64-w)) >> (64 - w)
				vals[i] = v
				raw = binary.LittleEndian.AppendUint64(raw, uint64(v))[:len(raw)+w/8]
			}
			var dt arrow.DataType
			switch w {
			case 8:
				dt = arrow.PrimitiveTypes.Int8
			case 16:
				dt = arrow.PrimitiveTypes.Int16
			case 32:
				dt = arrow.PrimitiveTypes.Int32
			default:
				dt = arrow.PrimitiveTypes.Int64
			}
			in := auditArray(dt, nw, mask, raw)
			for _, d := range auditDialects {
				for _, to := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString} {
					out := auditCast(t, mem, in, start, to, d)
					for i := range out.Len() {
						row := start + i
						var got string
						switch o := out.(type) {
						case *array.String:
							got = o.Value(i)
						case *array.LargeString:
							got = o.Value(i)
						}
						if null(row) {
							if out.IsValid(i) || got != "" {
								t.Fatalf("%s -> %s %v row %d: null gives %q (valid %v)", dt, to, d, row, got, out.IsValid(i))
							}
							continue
						}
						if want := string(AppendInt(nil, vals[row], d)); !out.IsValid(i) || got != want || want != strconv.FormatInt(vals[row], 10) {
							t.Fatalf("%s -> %s %v row %d: got %q, want %q", dt, to, d, row, got, want)
						}
					}
					out.Release()
				}
				for _, to := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32} {
					out := auditCast(t, mem, in, start, to, d)
					for i := range out.Len() {
						row := start + i
						want, ok := IntToInt(vals[row], intWidth(to), d)
						if null(row) {
							want, ok = 0, false
						}
						if out.IsValid(i) != ok || (ok && intAt(out, i) != want) {
							t.Fatalf("%s -> %s %v row %d %d: got %d (valid %v), want %d, %v", dt, to, d, row, vals[row], intAt(out, i), out.IsValid(i), want, ok)
						}
					}
					out.Release()
				}
			}
			in.Release()
		}

		// Doubles and reals to every integer width.
		f64 := make([]byte, 0, 8*nw)
		f32 := make([]byte, 0, 4*nw)
		for _, x := range words {
			f64 = binary.LittleEndian.AppendUint64(f64, x)
			f32 = binary.LittleEndian.AppendUint32(f32, uint32(x))
		}
		for _, real := range []bool{false, true} {
			in := auditArray(arrow.PrimitiveTypes.Float64, nw, mask, f64)
			if real {
				in.Release()
				in = auditArray(arrow.PrimitiveTypes.Float32, nw, mask, f32)
			}
			for _, d := range auditDialects {
				for _, to := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64} {
					out := auditCast(t, mem, in, start, to, d)
					for i := range out.Len() {
						row := start + i
						var want int64
						var ok bool
						if real {
							want, ok = Float32ToInt(math.Float32frombits(uint32(words[row])), intWidth(to), d)
						} else {
							want, ok = FloatToInt(math.Float64frombits(words[row]), intWidth(to), d)
						}
						if null(row) {
							want, ok = 0, false
						}
						if out.IsValid(i) != ok || (ok && intAt(out, i) != want) {
							t.Fatalf("%s -> %s %v row %d %#x: got %d (valid %v), want %d, %v", in.DataType(), to, d, row, words[row], intAt(out, i), out.IsValid(i), want, ok)
						}
					}
					out.Release()
				}
			}
			in.Release()
		}

		// Decimals (word pairs: low, high) to double.
		if nd := nw / 2; nd > 0 {
			sc := int32(scale%40) - 2
			dt := &arrow.Decimal128Type{Precision: 38, Scale: sc}
			decs := make([]decimal128.Num, nd)
			for i := range decs {
				decs[i] = decimal128.New(int64(words[2*i+1]), words[2*i])
			}
			in := auditArray(dt, nd, mask, data[:16*nd])
			dstart := start % nd
			for _, d := range auditDialects {
				out := auditCast(t, mem, in, dstart, arrow.PrimitiveTypes.Float64, d)
				o := out.(*array.Float64)
				for i := range out.Len() {
					row := dstart + i
					if null(row) {
						if out.IsValid(i) {
							t.Fatalf("decimal row %d: null is valid", row)
						}
						continue
					}
					if want := DecimalToFloat(decs[row], sc); !out.IsValid(i) || math.Float64bits(o.Value(i)) != math.Float64bits(want) {
						t.Fatalf("%s -> double %v row %d %v: got %v, want %v", dt, d, row, decs[row], o.Value(i), want)
					}
				}
				out.Release()
			}
			in.Release()
		}
	})
}
