package compactrow

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/arrowvec"
)

// source is the encoder's direct view of one Arrow array: its buffers as
// raw bytes, read with the array's offset applied. Index i is a logical
// index of the array (0 <= i < Len()).
type source struct {
	node    *arrowvec.Node
	width   int    // fixedWidth(node)
	notNull bool   // declared NOT NULL (map keys always are); UNKNOWN is exempt
	off     int    // logical index 0 sits at buffer index off
	valid   []byte // Arrow validity bitmap, nil when every value is valid
	values  []byte // fixed-width values or the boolean bitmap
	offsets []int32
	data    []byte       // string/binary bytes
	decimal decimalLimit // KindDecimal
	// children: list element; map key and value; struct fields.
	children []*source
}

// newSource views d as node. parentOff is the enclosing struct's offset,
// which Arrow applies to a struct's fields as well as to the struct.
func newSource(node *arrowvec.Node, d arrow.ArrayData, parentOff int) *source {
	s := &source{node: node, width: fixedWidth(node), off: parentOff + d.Offset(),
		notNull: !node.Nullable && node.Kind != arrowvec.KindNull}
	bufs := d.Buffers()
	// A slice's null count may be unknown (-1): only a known 0 skips the bitmap.
	if len(bufs) > 0 && bufs[0] != nil && d.NullN() != 0 {
		s.valid = bufs[0].Bytes()
	}
	switch node.Kind {
	case arrowvec.KindNull:
	case arrowvec.KindString, arrowvec.KindBinary:
		s.offsets = arrowvec.Int32s(bytesOf(bufs, 1))
		s.data = bytesOf(bufs, 2)
	case arrowvec.KindList:
		s.offsets = arrowvec.Int32s(bytesOf(bufs, 1))
		s.children = []*source{newSource(node.Children[0], d.Children()[0], 0)}
	case arrowvec.KindMap:
		s.offsets = arrowvec.Int32s(bytesOf(bufs, 1))
		entries := d.Children()[0]
		kv := entries.Children()
		s.children = []*source{
			newSource(node.Children[0], kv[0], entries.Offset()),
			newSource(node.Children[1], kv[1], entries.Offset()),
		}
	case arrowvec.KindStruct:
		s.children = make([]*source, len(node.Children))
		for i, ch := range node.Children {
			s.children[i] = newSource(ch, d.Children()[i], s.off)
		}
	case arrowvec.KindDecimal:
		s.values = bytesOf(bufs, 1)
		s.decimal = newDecimalLimit(node)
	default:
		s.values = bytesOf(bufs, 1)
	}
	return s
}

func bytesOf(bufs []*memory.Buffer, i int) []byte {
	if i < len(bufs) && bufs[i] != nil {
		return bufs[i].Bytes()
	}
	return nil
}

// isValid reports whether value i is non-null. UNKNOWN values always are null.
func (s *source) isValid(i int) bool {
	if s.node.Kind == arrowvec.KindNull {
		return false
	}
	if s.valid == nil {
		return true
	}
	j := s.off + i
	return s.valid[j>>3]&(1<<(j&7)) != 0
}

// span is the child range [start, start+n) of list or map value i.
func (s *source) span(i int) (start, n int) {
	a, b := s.offsets[s.off+i], s.offsets[s.off+i+1]
	return int(a), int(b - a)
}

// nullError reports a null where the schema declares NOT NULL.
func (s *source) nullError() error {
	return &rowbridge.EncodeError{Field: s.node.Path, Err: fmt.Errorf("%w: null in a NOT NULL field", rowbridge.ErrValue)}
}
