package columnar

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Node is one field of a resolved schema: its type, physical kind, the path
// used in error messages, and its children (list: element; map: key, value;
// struct: fields).
type Node struct {
	Type     arrow.DataType
	Kind     Kind
	Name     string
	Path     string // e.g. "m.value.a", "arr.element"
	Nullable bool
	Children []*Node

	// Precision and Scale are set for KindDecimal, and Limit, the range
	// of its unscaled values.
	Precision, Scale int32
	Limit            DecimalLimit
}

// IsLongDecimal reports whether a decimal needs more than 64 bits
// (precision > 18), which both row formats store differently.
func (n *Node) IsLongDecimal() bool {
	return n.Kind == KindDecimal && n.Precision > MaxShortDecimalPrecision
}

// RowWidth is Kind.RowWidth, 16 for a long decimal: the bytes a value of
// n takes in a fixed-width CompactRow field or array element.
func (n *Node) RowWidth() int {
	if n.IsLongDecimal() {
		return 16
	}
	return n.Kind.RowWidth()
}

// Plan is a schema resolved into Nodes, one per top-level field.
type Plan struct {
	Schema *arrow.Schema
	Fields []*Node
}

// NewPlan resolves every field of the schema, failing on the first type the
// row formats do not carry (the error names the field path).
func NewPlan(schema *arrow.Schema) (*Plan, error) {
	if schema == nil {
		return nil, fmt.Errorf("rowbridge: a nil schema: %w", arrow.ErrInvalid)
	}
	p := &Plan{Schema: schema, Fields: make([]*Node, schema.NumFields())}
	for i, f := range schema.Fields() {
		n, err := newNode(f.Type, f.Name, f.Name, f.Nullable)
		if err != nil {
			return nil, err
		}
		p.Fields[i] = n
	}
	return p, nil
}

// NewNode resolves a single type (path names it in errors).
func NewNode(dt arrow.DataType, path string) (*Node, error) {
	return newNode(dt, path, path, true)
}

func newNode(dt arrow.DataType, name, path string, nullable bool) (*Node, error) {
	k, err := KindOf(dt)
	if err != nil {
		return nil, fmt.Errorf("field %s: %w", path, err)
	}
	n := &Node{Type: dt, Kind: k, Name: name, Path: path, Nullable: nullable}
	switch t := dt.(type) {
	case *arrow.Decimal128Type:
		n.Precision, n.Scale = t.Precision, t.Scale
		n.Limit = NewDecimalLimit(t.Precision)
	case *arrow.MapType:
		kf, vf := t.KeyField(), t.ItemField()
		key, err := newNode(kf.Type, kf.Name, path+"."+kf.Name, kf.Nullable)
		if err != nil {
			return nil, err
		}
		val, err := newNode(vf.Type, vf.Name, path+"."+vf.Name, vf.Nullable)
		if err != nil {
			return nil, err
		}
		n.Children = []*Node{key, val}
	case *arrow.ListType:
		ef := t.ElemField()
		el, err := newNode(ef.Type, ef.Name, path+"."+ef.Name, ef.Nullable)
		if err != nil {
			return nil, err
		}
		n.Children = []*Node{el}
	case *arrow.StructType:
		n.Children = make([]*Node, t.NumFields())
		for i, f := range t.Fields() {
			c, err := newNode(f.Type, f.Name, path+"."+f.Name, f.Nullable)
			if err != nil {
				return nil, err
			}
			n.Children[i] = c
		}
	}
	return n, nil
}

// Accepts reports whether arrays of type dt can be encoded as n: the same
// kinds all the way down and the same decimal precision and scale; field
// names and nullability, which do not change the bytes, may differ. Unlike
// arrow.TypeEqual it does not allocate.
func (n *Node) Accepts(dt arrow.DataType) bool {
	if dt == n.Type {
		return true
	}
	k, err := KindOf(dt)
	if err != nil || k != n.Kind {
		return false
	}
	switch t := dt.(type) {
	case *arrow.Decimal128Type:
		return t.Precision == n.Precision && t.Scale == n.Scale
	case *arrow.MapType:
		return n.Children[0].Accepts(t.KeyType()) && n.Children[1].Accepts(t.ItemType())
	case *arrow.ListType:
		return n.Children[0].Accepts(t.Elem())
	case *arrow.StructType:
		if t.NumFields() != len(n.Children) {
			return false
		}
		for i, c := range n.Children {
			if !c.Accepts(t.Field(i).Type) {
				return false
			}
		}
	}
	return true
}
