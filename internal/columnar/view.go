package columnar

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Cast views an Arrow buffer's bytes as values of T (Arrow buffers are
// 64-byte aligned); nil when b holds less than one value.
func Cast[T any](b []byte) []T {
	var z T
	w := int(unsafe.Sizeof(z))
	if len(b) < w {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/w)
}

// Word is the Go type of a fixed-width value of 1, 2, 4 or 8 bytes.
type Word interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Load reads the little-endian T at b[p:] (the machine is little-endian,
// as Arrow buffers and both row formats are; package rowbridge refuses
// to build elsewhere).
func Load[T Word](b []byte, p int) T {
	var z T
	b = b[p : p+int(unsafe.Sizeof(z))]
	return *(*T)(unsafe.Pointer(unsafe.SliceData(b)))
}

// Store writes v as the little-endian T at b[p:] (see Load).
func Store[T Word](b []byte, p int, v T) {
	var z T
	b = b[p : p+int(unsafe.Sizeof(z))]
	*(*T)(unsafe.Pointer(unsafe.SliceData(b))) = v
}

// FixedValues views the n values of fixed-width array d as T, from d's
// offset: entry i of the result is the array's entry i.
func FixedValues[T any](d arrow.ArrayData) []T {
	n, off := d.Len(), d.Offset()
	if n == 0 {
		return nil
	}
	return Cast[T](d.Buffers()[1].Bytes())[off : off+n]
}

// Offsets views the n+1 offsets of a string, binary, list or map array d
// (int32 offsets, or int64 for the large layouts), from d's offset: nil
// when d is empty.
func Offsets[O int32 | int64](d arrow.ArrayData) []O {
	n, off := d.Len(), d.Offset()
	if n == 0 {
		return nil
	}
	return Cast[O](d.Buffers()[1].Bytes())[off : off+n+1]
}

// Bitmap is d's validity bitmap, in which entry i of d is bit d.Offset()+i;
// nil when d is known to have no nulls. It never counts the nulls of a
// slice whose count is unknown, so it writes nothing into d: goroutines may
// read one shared batch at once (arrow.Array.NullN stores the count it
// computes).
func Bitmap(d arrow.ArrayData) []byte {
	bufs := d.Buffers()
	if len(bufs) == 0 || bufs[0] == nil || d.NullN() == 0 {
		return nil
	}
	return bufs[0].Bytes()
}

// View is an offset-aware, read-only view of one Arrow array of a Kind:
// entry i is the array's logical entry i, whatever the offsets of the
// array and of its parent struct. Making one writes nothing into the array
// (see Bitmap). Children are viewed on their own: a list's or map's
// offsets index its child's entries; see NewView for a struct's fields.
type View struct {
	Len  int
	Off  int  // the parent struct's offset plus the array's: bit Off+i of Valid (and of a boolean Values) is entry i
	Null bool // the null type: every entry is null
	// Valid is the validity bitmap; nil when no entry is null.
	Valid []byte
	// Values holds the Len values of a fixed-width kind from entry 0
	// (ValueWidth bytes each), and the value bitmap of a boolean.
	Values []byte
	// Offsets holds the Len+1 offsets of a string, binary, list or map
	// from entry 0 (read-only); Data the bytes of a string or binary that
	// they index.
	Offsets []int32
	Data    []byte
}

// NewView views d, an array of kind k. Arrow applies a struct's offset
// and length to its fields: a field of a struct of offset off and length n
// (for a struct View p, p.Off and p.Len) is viewed with NewView(k, d, off,
// n); any other array with NewView(k, d, 0, d.Len()).
func NewView(k Kind, d arrow.ArrayData, parentOff, n int) View {
	off := parentOff + d.Offset()
	v := View{Len: n, Off: off}
	if k == KindNull {
		v.Null = true
		return v
	}
	v.Valid = Bitmap(d)
	bufs := d.Buffers()
	switch k {
	case KindBool:
		v.Values = bufferBytes(bufs, 1)
	case KindString, KindBinary, KindList, KindMap:
		if offs := Cast[int32](bufferBytes(bufs, 1)); len(offs) > off {
			v.Offsets = offs[off : off+n+1]
		} else { // an empty array may have no offsets
			v.Offsets = noOffsets
		}
		if k == KindString || k == KindBinary {
			v.Data = bufferBytes(bufs, 2)
		}
	default:
		if w := k.ValueWidth(); w > 0 && n > 0 {
			v.Values = bufferBytes(bufs, 1)[off*w : (off+n)*w]
		}
	}
	return v
}

// noOffsets are the offsets of an empty array that has no offsets buffer.
var noOffsets = []int32{0}

func bufferBytes(bufs []*memory.Buffer, i int) []byte {
	if i < len(bufs) && bufs[i] != nil {
		return bufs[i].Bytes()
	}
	return nil
}

// IsValid reports whether entry i is not null.
func (v *View) IsValid(i int) bool {
	if v.Valid == nil {
		return !v.Null
	}
	k := v.Off + i
	return v.Valid[k>>3]&(1<<(k&7)) != 0
}

// AllValid reports whether no entry is null: loops test it once and run
// without a per-entry IsValid.
func (v *View) AllValid() bool { return v.Valid == nil && !v.Null }

// HasNulls reports whether any of entries [start, start+n) is null.
func (v *View) HasNulls(start, n int) bool {
	if v.Null {
		return n > 0
	}
	if v.Valid == nil {
		return false
	}
	for j := start; j < start+n; j++ {
		if !v.IsValid(j) {
			return true
		}
	}
	return false
}

// Bool is boolean entry i's value.
func (v *View) Bool(i int) bool {
	k := v.Off + i
	return v.Values[k>>3]&(1<<(k&7)) != 0
}
