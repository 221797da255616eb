package bench

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// BuilderDecoder is the baseline the columnar decoders are measured against:
// a row-at-a-time UnsafeRow reader that appends every value to arrow-go
// builders, the way Comet's shuffle reader works. It trusts its input (it is
// only ever fed rows the encoder wrote) and exists for benchmarks only.
type BuilderDecoder struct {
	schema *arrow.Schema
	plan   *columnar.Plan
	mem    memory.Allocator
}

// NewBuilderDecoder prepares the baseline decoder for schema.
func NewBuilderDecoder(schema *arrow.Schema, mem memory.Allocator) (*BuilderDecoder, error) {
	plan, err := columnar.NewPlan(schema)
	if err != nil {
		return nil, err
	}
	return &BuilderDecoder{schema: schema, plan: plan, mem: mem}, nil
}

// Decode appends every row's fields to the builders and returns the batch.
func (d *BuilderDecoder) Decode(rows [][]byte) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(d.mem, d.schema)
	defer b.Release()
	for _, row := range rows {
		for i, n := range d.plan.Fields {
			if err := appendStructField(b.Field(i), n, row, 0, len(d.plan.Fields), i); err != nil {
				return nil, err
			}
		}
	}
	return b.NewRecordBatch(), nil
}

func bitsetBytes(n int) int { return 8 * ((n + 63) / 64) }

func isNullBit(region []byte, i int) bool { return region[i>>3]&(1<<(i&7)) != 0 }

// appendStructField appends field i of the struct that starts at base in buf.
func appendStructField(b array.Builder, n *columnar.Node, buf []byte, base, nfields, i int) error {
	if isNullBit(buf[base:], i) {
		b.AppendNull()
		return nil
	}
	slot := base + bitsetBytes(nfields) + 8*i
	return appendValue(b, n, buf, base, slot)
}

// appendValue appends the non-null value whose 8-byte slot (or fixed element)
// is at slot; var-width offsets are relative to owner.
func appendValue(b array.Builder, n *columnar.Node, buf []byte, owner, slot int) error {
	le := binary.LittleEndian
	word := func() (int, int) {
		w := le.Uint64(buf[slot:])
		return owner + int(w>>32), int(uint32(w))
	}
	switch n.Kind {
	case columnar.KindNull:
		b.AppendNull()
	case columnar.KindBool:
		b.(*array.BooleanBuilder).Append(buf[slot] != 0)
	case columnar.KindInt8:
		b.(*array.Int8Builder).Append(int8(buf[slot]))
	case columnar.KindInt16:
		b.(*array.Int16Builder).Append(int16(le.Uint16(buf[slot:])))
	case columnar.KindInt32:
		b.(*array.Int32Builder).Append(int32(le.Uint32(buf[slot:])))
	case columnar.KindDate32:
		b.(*array.Date32Builder).Append(arrow.Date32(le.Uint32(buf[slot:])))
	case columnar.KindInt64:
		b.(*array.Int64Builder).Append(int64(le.Uint64(buf[slot:])))
	case columnar.KindTimestamp:
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(le.Uint64(buf[slot:])))
	case columnar.KindFloat32:
		b.(*array.Float32Builder).Append(math.Float32frombits(le.Uint32(buf[slot:])))
	case columnar.KindFloat64:
		b.(*array.Float64Builder).Append(math.Float64frombits(le.Uint64(buf[slot:])))
	case columnar.KindDecimal:
		db := b.(*array.Decimal128Builder)
		if !n.IsLongDecimal() {
			db.Append(decimal128.FromI64(int64(le.Uint64(buf[slot:]))))
			return nil
		}
		off, size := word()
		db.Append(bigEndianToDecimal(buf[off : off+size]))
	case columnar.KindString:
		off, size := word()
		b.(*array.StringBuilder).BinaryBuilder.Append(buf[off : off+size])
	case columnar.KindBinary:
		off, size := word()
		b.(*array.BinaryBuilder).Append(buf[off : off+size])
	case columnar.KindStruct:
		off, _ := word()
		sb := b.(*array.StructBuilder)
		sb.Append(true)
		for i, c := range n.Children {
			if err := appendStructField(sb.FieldBuilder(i), c, buf, off, len(n.Children), i); err != nil {
				return err
			}
		}
	case columnar.KindList:
		off, _ := word()
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		appendArray(lb.ValueBuilder(), n.Children[0], buf, off)
	case columnar.KindMap:
		off, _ := word()
		mb := b.(*array.MapBuilder)
		mb.Append(true)
		keyBytes := int(le.Uint64(buf[off:]))
		appendArray(mb.KeyBuilder(), n.Children[0], buf, off+8)
		appendArray(mb.ItemBuilder(), n.Children[1], buf, off+8+keyBytes)
	default:
		return fmt.Errorf("baseline: unsupported kind %s", n.Kind)
	}
	return nil
}

// appendArray appends every element of the UnsafeArrayData at start.
func appendArray(b array.Builder, el *columnar.Node, buf []byte, start int) {
	count := int(binary.LittleEndian.Uint64(buf[start:]))
	header := start + 8 + bitsetBytes(count)
	width := elementWidth(el)
	for j := 0; j < count; j++ {
		if isNullBit(buf[start+8:], j) {
			b.AppendNull()
			continue
		}
		_ = appendValue(b, el, buf, start, header+j*width)
	}
}

// elementWidth is an element's width in an UnsafeRow array: its RowWidth,
// or an 8-byte word for what lives out of line and for the null type.
func elementWidth(n *columnar.Node) int {
	if w := n.Kind.RowWidth(); w > 0 {
		return w
	}
	return 8
}

func bigEndianToDecimal(be []byte) decimal128.Num {
	var hi, lo uint64
	if len(be) > 0 && be[0]&0x80 != 0 {
		hi, lo = math.MaxUint64, math.MaxUint64
	}
	for _, c := range be {
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(c)
	}
	return decimal128.New(int64(hi), lo)
}
