package unsaferow

import (
	"encoding/binary"
	"math"
)

// A minimal hand-written UnsafeRow writer (Spark layout) so the decoder
// tests and benchmarks do not depend on the Encoder. hv is one value: null,
// inline (the slot or element bytes) or out of line (a payload behind an
// offset/size word).
type hv struct {
	null   bool
	inline []byte
	data   []byte // out-of-line payload (string, struct, array, map, decimal)
	isVar  bool
}

var hNull = hv{null: true}

func hI8(v int8) hv   { return hv{inline: []byte{byte(v)}} }
func hI16(v int16) hv { return hv{inline: binary.LittleEndian.AppendUint16(nil, uint16(v))} }
func hI32(v int32) hv { return hv{inline: binary.LittleEndian.AppendUint32(nil, uint32(v))} }
func hI64(v int64) hv { return hv{inline: binary.LittleEndian.AppendUint64(nil, uint64(v))} }
func hF32(v float32) hv {
	return hv{inline: binary.LittleEndian.AppendUint32(nil, math.Float32bits(v))}
}
func hF64(v float64) hv {
	return hv{inline: binary.LittleEndian.AppendUint64(nil, math.Float64bits(v))}
}
func hBool(v bool) hv {
	if v {
		return hv{inline: []byte{1}}
	}
	return hv{inline: []byte{0}}
}
func hStr(s string) hv    { return hv{data: []byte(s), isVar: true} }
func hVar(b []byte) hv    { return hv{data: b, isVar: true} }
func pad8(n int) int      { return (n + 7) &^ 7 }
func nwordsInt(n int) int { return (n + 63) / 64 }

// handRow writes a struct region: null bitset, slots, padded payloads.
func handRow(fields ...hv) []byte {
	n := len(fields)
	hdr := 8*nwordsInt(n) + 8*n
	b := make([]byte, hdr)
	for i, f := range fields {
		slot := 8*nwordsInt(n) + 8*i
		switch {
		case f.null:
			b[i/8] |= 1 << (i % 8)
		case f.isVar:
			binary.LittleEndian.PutUint64(b[slot:], uint64(len(b))<<32|uint64(len(f.data)))
			b = append(b, f.data...)
			b = append(b, make([]byte, pad8(len(f.data))-len(f.data))...)
		default:
			copy(b[slot:], f.inline)
		}
	}
	return b
}

// handArray writes an array of elements of the given width (8 for
// out-of-line elements), padding the element region as Spark does.
func handArray(width int, elems ...hv) []byte {
	n := len(elems)
	hdr := 8 + 8*nwordsInt(n)
	b := make([]byte, hdr+pad8(n*width))
	binary.LittleEndian.PutUint64(b, uint64(n))
	for j, e := range elems {
		at := hdr + j*width
		switch {
		case e.null:
			b[8+j/8] |= 1 << (j % 8)
		case e.isVar:
			binary.LittleEndian.PutUint64(b[at:], uint64(len(b))<<32|uint64(len(e.data)))
			b = append(b, e.data...)
			b = append(b, make([]byte, pad8(len(e.data))-len(e.data))...)
		default:
			copy(b[at:], e.inline)
		}
	}
	return b
}

// handMap writes keyArrayBytes, the key array and the value array.
func handMap(keys, values []byte) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(keys)))
	return append(append(b, keys...), values...)
}
