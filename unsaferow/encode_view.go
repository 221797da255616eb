package unsaferow

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// encField is what the encoder knows about one schema node before it sees any
// data, with the flavour's choices already made.
type encField struct {
	kind     columnar.Kind
	path     string
	width    int                    // bytes per value in the Arrow value buffer (fixed kinds)
	elem     int                    // bytes per element inside an UnsafeRow array
	variable bool                   // lives in the variable region (offset/size word in its slot)
	longDec  bool                   // decimal with precision > 18
	prec     int32                  // decimal precision
	limit    *columnar.DecimalLimit // decimal: its node's
	notNull  bool                   // declared NOT NULL (map keys always are); the null type is exempt
	bulk     bool                   // array elements are a plain copy of the Arrow value bytes
	kids     []*encField
	// Struct kinds: the size of the struct with no variable data, and the
	// children that do use the variable region.
	fixed   int
	varKids []int
}

func newEncField(n *columnar.Node, fl Flavor) *encField {
	f := &encField{kind: n.Kind, path: n.Path, width: n.Kind.ValueWidth(), longDec: n.IsLongDecimal(), prec: n.Precision, limit: &n.Limit,
		notNull: notNull(n)}
	switch w := n.RowWidth(); {
	case n.Kind == columnar.KindNull && fl == Spark:
		f.elem = 8 // Spark reserves a word per NullType element
	case w >= 0 && w <= 8:
		f.elem = w
		// Elements are a copy of the Arrow value bytes when those are the
		// element bytes (not booleans, which Arrow packs into bits, nor
		// short decimals, which it widens to 16 bytes); Spark rewrites
		// NaNs, so floats are copied one by one there.
		isFloat := n.Kind == columnar.KindFloat32 || n.Kind == columnar.KindFloat64
		f.bulk = w > 0 && w == f.width && (!isFloat || fl == Velox)
	default: // string, binary, long decimal, nested: an offset/size word
		f.elem = 8
		f.variable = true
	}
	for _, c := range n.Children {
		f.kids = append(f.kids, newEncField(c, fl))
	}
	if n.Kind == columnar.KindStruct {
		f.fixed = nullBitsetBytes(len(f.kids)) + 8*len(f.kids)
		for i, c := range f.kids {
			if c.variable {
				f.varKids = append(f.varKids, i)
			}
		}
	}
	return f
}

// encView is one Arrow array bound to its encField for the duration of a
// call: the shared offset-aware view of its buffers (entry j is the
// array's entry j), plus the encoder's per-call state.
type encView struct {
	columnar.View
	f     *encField
	kids  []encView // list: element; map: key, value; struct: fields
	check bool      // see markNotNullCheck
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

// bind points v at d, whose type matches v.f (the encoder checked it).
// Binding writes nothing into d.
func (v *encView) bind(d arrow.ArrayData) { v.bindAt(d, 0, d.Len()) }

// bindAt is bind of a field of a struct of offset off and length n (see
// columnar.NewView).
func (v *encView) bindAt(d arrow.ArrayData, off, n int) {
	*v = encView{View: columnar.NewView(v.f.kind, d, off, n), f: v.f, kids: v.kids}
	switch v.f.kind {
	case columnar.KindList:
		el := d.Children()[0]
		v.kids[0].bind(el)
	case columnar.KindMap:
		// The entries' own offset applies to the keys and values, which
		// the list offsets index.
		entries := d.Children()[0]
		kv := entries.Children()
		v.kids[0].bindAt(kv[0], entries.Offset(), entries.Len())
		v.kids[1].bindAt(kv[1], entries.Offset(), entries.Len())
	case columnar.KindStruct:
		for i := range v.kids {
			v.kids[i].bindAt(d.Children()[i], v.Off, v.Len)
		}
	}
	v.markNotNullCheck()
}

// unbind drops every reference to the batch so pooled scratch does not
// keep its buffers alive.
func (v *encView) unbind() {
	*v = encView{f: v.f, kids: v.kids}
	for i := range v.kids {
		v.kids[i].unbind()
	}
}
