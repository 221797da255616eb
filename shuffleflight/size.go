package shuffleflight

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// Sizes of the parts of a FlightData message besides a batch's body: the
// IPC message flatbuffer (a fixed part, then a field node per array and a
// buffer entry per buffer) and protobuf's framing of the message.
const (
	fixedOverhead  = 1024
	perNodeBytes   = 16
	perBufferBytes = 16
)

// batchBudget is the most body bytes of one record batch of schema such
// that its whole FlightData message stays within maxMessage bytes.
func batchBudget(schema *arrow.Schema, maxMessage int) (int64, error) {
	var nodes, buffers int
	for _, f := range schema.Fields() {
		countLayout(f.Type, &nodes, &buffers)
	}
	overhead := fixedOverhead + perNodeBytes*nodes + perBufferBytes*buffers
	if budget := maxMessage - overhead; budget >= maxMessage/2 {
		return int64(budget), nil
	}
	return 0, fmt.Errorf("max message size %d leaves too little room for a batch of %d arrays (metadata alone may take %d bytes): %w", maxMessage, nodes, overhead, arrow.ErrInvalid)
}

// countLayout adds the field nodes and buffers of a column of type t.
func countLayout(t arrow.DataType, nodes, buffers *int) {
	*nodes++
	*buffers += len(t.Layout().Buffers)
	if n, ok := t.(arrow.NestedType); ok {
		for _, f := range n.Fields() {
			countLayout(f.Type, nodes, buffers)
		}
	}
}

// rowsBytes is the size of rows off..off+n of a batch's columns in an IPC
// body: each buffer the IPC writer sends for that range, padded to 8 bytes.
func rowsBytes(cols []arrow.Array, off, n int64) int64 {
	var total int64
	for _, c := range cols {
		total += dataBytes(c.Data(), off, n)
	}
	return total
}

func pad8(n int64) int64 { return bitutil.CeilByte64(n) } // CeilByte64 rounds up to a multiple of 8

// pad64 rounds up to a multiple of 64: the IPC writer pads the bitmaps it
// copies, and may send a fixed-width buffer whole, to 64 bytes.
func pad64(n int64) int64 { return (n + 63) &^ 63 }

// dataBytes is the IPC body size of elements off..off+n of d (relative to
// d's own offset), children included.
func dataBytes(d arrow.ArrayData, off, n int64) int64 {
	if n <= 0 || d.DataType().ID() == arrow.NULL {
		return 0
	}
	abs := int64(d.Offset()) + off
	bufs := d.Buffers()
	var total int64
	if d.NullN() != 0 {
		total += pad64(bitutil.BytesForBits(n))
	}
	switch t := d.DataType().(type) {
	case *arrow.BooleanType:
		total += pad64(bitutil.BytesForBits(n))
	case *arrow.StringType, *arrow.BinaryType:
		offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())
		total += pad8(4*(n+1)) + pad8(int64(offs[abs+n]-offs[abs]))
	case *arrow.LargeStringType, *arrow.LargeBinaryType:
		offs := arrow.Int64Traits.CastFromBytes(bufs[1].Bytes())
		total += pad8(8*(n+1)) + pad8(offs[abs+n]-offs[abs])
	case *arrow.ListType, *arrow.MapType:
		offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())
		start, end := int64(offs[abs]), int64(offs[abs+n])
		total += pad8(4*(n+1)) + dataBytes(d.Children()[0], start, end-start)
	case *arrow.LargeListType:
		offs := arrow.Int64Traits.CastFromBytes(bufs[1].Bytes())
		start, end := offs[abs], offs[abs+n]
		total += pad8(8*(n+1)) + dataBytes(d.Children()[0], start, end-start)
	case *arrow.FixedSizeListType:
		size := int64(t.Len())
		total += dataBytes(d.Children()[0], abs*size, n*size)
	case *arrow.StructType:
		for _, c := range d.Children() {
			total += dataBytes(c, abs, n)
		}
	case arrow.FixedWidthDataType:
		total += pad64(n * int64(t.BitWidth()) / 8)
	default:
		// A type a shuffle Reader does not make: its buffers and children
		// in proportion to the elements asked for, rounded up.
		length := int64(max(d.Len(), 1))
		for _, b := range bufs[1:] {
			if b != nil {
				total += pad8((int64(b.Len())*n + length - 1) / length)
			}
		}
		for _, c := range d.Children() {
			total += dataBytes(c, 0, (int64(c.Len())*n+length-1)/length)
		}
	}
	return total
}
