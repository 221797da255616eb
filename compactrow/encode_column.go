package compactrow

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// source is the encoder's direct view of one Arrow array: the shared
// offset-aware view of its buffers (index i is a logical index of the
// array, 0 <= i < Len) and what the encoder knows of its node.
type source struct {
	columnar.View
	node    *columnar.Node
	width   int                    // fixedWidth(node)
	notNull bool                   // declared NOT NULL (map keys always are); UNKNOWN is exempt
	decimal *columnar.DecimalLimit // KindDecimal: its node's
	// children: list element; map key and value; struct fields.
	children []*source
}

// newSource views column d as node.
func newSource(node *columnar.Node, d arrow.ArrayData) *source {
	return newSourceAt(node, d, 0, d.Len())
}

// newSourceAt views d as node, a field of a struct of offset off and
// length n (see columnar.NewView).
func newSourceAt(node *columnar.Node, d arrow.ArrayData, off, n int) *source {
	s := &source{View: columnar.NewView(node.Kind, d, off, n), node: node, width: fixedWidth(node),
		notNull: !node.Nullable && node.Kind != columnar.KindNull}
	switch node.Kind {
	case columnar.KindList:
		s.children = []*source{newSource(node.Children[0], d.Children()[0])}
	case columnar.KindMap:
		entries := d.Children()[0]
		kv := entries.Children()
		s.children = []*source{
			newSourceAt(node.Children[0], kv[0], entries.Offset(), entries.Len()),
			newSourceAt(node.Children[1], kv[1], entries.Offset(), entries.Len()),
		}
	case columnar.KindStruct:
		s.children = make([]*source, len(node.Children))
		for i, ch := range node.Children {
			s.children[i] = newSourceAt(ch, d.Children()[i], s.Off, s.Len)
		}
	case columnar.KindDecimal:
		s.decimal = &node.Limit
	}
	return s
}

// span is the child range [start, start+n) of list or map value i.
func (s *source) span(i int) (start, n int) {
	a, b := s.Offsets[i], s.Offsets[i+1]
	return int(a), int(b - a)
}

// nullError reports a null where the schema declares NOT NULL.
func (s *source) nullError() error {
	return &rowbridge.EncodeError{Field: s.node.Path, Err: fmt.Errorf("%w: null in a NOT NULL field", rowbridge.ErrValue)}
}
