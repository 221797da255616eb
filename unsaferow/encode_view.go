package unsaferow

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/arrowvec"
)

// encField is what the encoder knows about one schema node before it sees any
// data, with the flavour's choices already made.
type encField struct {
	kind     arrowvec.Kind
	path     string
	width    int   // bytes per value in the Arrow value buffer (fixed kinds)
	elem     int   // bytes per element inside an UnsafeRow array
	variable bool  // lives in the variable region (offset/size word in its slot)
	longDec  bool  // decimal with precision > 18
	prec     int32 // decimal precision
	notNull  bool  // declared NOT NULL (map keys always are); the null type is exempt
	dt       arrow.DataType
	bulk     bool // array elements are a plain copy of the Arrow value bytes
	kids     []*encField
	// Struct kinds: the size of the struct with no variable data, and the
	// children that do use the variable region.
	fixed   int
	varKids []int
}

func newEncField(n *arrowvec.Node, fl Flavor) *encField {
	f := &encField{kind: n.Kind, path: n.Path, width: n.Kind.ValueWidth(), longDec: n.IsLongDecimal(), prec: n.Precision, dt: n.Type,
		notNull: notNull(n)}
	switch {
	case n.Kind == arrowvec.KindNull:
		f.elem = 8
		if fl == Velox {
			f.elem = 0
		}
	case n.Kind == arrowvec.KindBool:
		f.elem = 1
	case n.Kind == arrowvec.KindDecimal && !f.longDec:
		f.elem = 8
	case n.Kind.IsPrimitive() && !f.longDec:
		f.elem = f.width
		// Spark rewrites NaNs, so floats are copied one by one there.
		isFloat := n.Kind == arrowvec.KindFloat32 || n.Kind == arrowvec.KindFloat64
		f.bulk = !isFloat || fl == Velox
	default: // string, binary, long decimal, nested: an offset/size word
		f.elem = 8
		f.variable = true
	}
	for _, c := range n.Children {
		f.kids = append(f.kids, newEncField(c, fl))
	}
	if n.Kind == arrowvec.KindStruct {
		f.fixed = nullBitsetBytes(len(f.kids)) + 8*len(f.kids)
		for i, c := range f.kids {
			if c.variable {
				f.varKids = append(f.varKids, i)
			}
		}
	}
	return f
}

// accepts reports whether arrays of type dt can be encoded as f: the same
// kinds all the way down and the same decimal precision and scale. Unlike
// arrow.TypeEqual it does not allocate.
func (f *encField) accepts(dt arrow.DataType) bool {
	if dt == f.dt {
		return true
	}
	k, err := arrowvec.KindOf(dt)
	if err != nil || k != f.kind {
		return false
	}
	switch t := dt.(type) {
	case *arrow.Decimal128Type:
		want := f.dt.(*arrow.Decimal128Type)
		return t.Precision == want.Precision && t.Scale == want.Scale
	case *arrow.MapType:
		return f.kids[0].accepts(t.KeyType()) && f.kids[1].accepts(t.ItemType())
	case *arrow.ListType:
		return f.kids[0].accepts(t.Elem())
	case *arrow.StructType:
		if t.NumFields() != len(f.kids) {
			return false
		}
		for i, c := range f.kids {
			if !c.accepts(t.Field(i).Type) {
				return false
			}
		}
	}
	return true
}

// encView is one Arrow array bound to its encField for the duration of a call:
// the raw buffers the passes read, already positioned at the array's offset.
type encView struct {
	f       *encField
	n       int
	valid   []byte    // Arrow validity bitmap; nil when the array has no nulls
	voff    int       // bit offset of entry 0 in valid
	allNull bool      // the null type: every entry is null
	raw     []byte    // fixed kinds: value bytes from entry 0; bool: the bitmap
	boff    int       // bool: bit offset of entry 0 in raw
	offs    []int32   // string, binary, list, map: n+1 offsets from entry 0
	data    []byte    // string, binary: the value bytes offs index into
	kids    []encView // list: element; map: key, value; struct: fields
	check   bool      // see markNotNullCheck
}

func newEncView(f *encField) encView {
	v := encView{f: f}
	if len(f.kids) > 0 {
		v.kids = make([]encView, len(f.kids))
		for i, c := range f.kids {
			v.kids[i] = newEncView(c)
		}
	}
	return v
}

// bind points v at arr, whose type matches v.f (the encoder checked it).
func (v *encView) bind(arr arrow.Array) {
	d := arr.Data()
	n, off, bufs := d.Len(), d.Offset(), d.Buffers()
	*v = encView{f: v.f, kids: v.kids, n: n}
	if v.f.kind == arrowvec.KindNull {
		v.allNull = true
		return
	}
	// A slice's null count may be unknown (-1): only a known 0 skips the
	// bitmap. arr.NullN() would compute the count and store it into the
	// array, which goroutines encoding one shared batch would race on.
	if bufs[0] != nil && d.NullN() != 0 {
		v.valid, v.voff = bufs[0].Bytes(), off
	}
	switch v.f.kind {
	case arrowvec.KindBool:
		if n > 0 {
			v.raw, v.boff = bufs[1].Bytes(), off
		}
	case arrowvec.KindString, arrowvec.KindBinary:
		if n > 0 {
			v.offs = arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())[off : off+n+1]
			if bufs[2] != nil {
				v.data = bufs[2].Bytes()
			}
		}
	case arrowvec.KindList:
		v.bindOffsets(bufs, off, n)
		v.kids[0].bind(arr.(*array.List).ListValues())
	case arrowvec.KindMap:
		v.bindOffsets(bufs, off, n)
		// Struct fields are sliced to the entries' own offset, so list
		// offsets index them directly (Map.Keys would not be).
		entries := arr.(*array.Map).ListValues().(*array.Struct)
		v.kids[0].bind(entries.Field(0))
		v.kids[1].bind(entries.Field(1))
	case arrowvec.KindStruct:
		s := arr.(*array.Struct)
		for i := range v.kids {
			v.kids[i].bind(s.Field(i))
		}
	default: // fixed width
		if n > 0 {
			v.raw = bufs[1].Bytes()[off*v.f.width : (off+n)*v.f.width]
		}
	}
	v.markNotNullCheck()
}

func (v *encView) bindOffsets(bufs []*memory.Buffer, off, n int) {
	if n > 0 {
		v.offs = arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())[off : off+n+1]
	}
}

// unbind drops every reference to the batch so pooled scratch does not
// keep its buffers alive.
func (v *encView) unbind() {
	*v = encView{f: v.f, kids: v.kids}
	for i := range v.kids {
		v.kids[i].unbind()
	}
}

func (v *encView) isValid(j int) bool {
	if v.valid == nil {
		return !v.allNull
	}
	k := v.voff + j
	return v.valid[k>>3]&(1<<(k&7)) != 0
}

// hasNulls reports whether any of entries [start, start+n) is null.
func (v *encView) hasNulls(start, n int) bool {
	if v.allNull {
		return n > 0
	}
	if v.valid == nil {
		return false
	}
	for j := start; j < start+n; j++ {
		if !v.isValid(j) {
			return true
		}
	}
	return false
}

func (v *encView) boolAt(j int) bool {
	k := v.boff + j
	return v.raw[k>>3]&(1<<(k&7)) != 0
}
