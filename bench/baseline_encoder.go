package bench

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/rowbridge/rowbridge"
)

// RowAtATimeEncoder is the baseline the columnar encoders are measured
// against: an UnsafeRow writer that walks the batch row by row and reads
// every value through arrow-go's typed accessors (Value(i), IsNull(i),
// ValueOffsets), dispatching on the type of each value as it goes — the way
// a straightforward port of Spark's UnsafeRowWriter over Arrow input works.
// It writes the same bytes as unsaferow.Encoder in the flavour it is given
// (TestRowAtATimeEncoderMatches holds it to that) and exists for benchmarks
// only: it trusts its input and supports the types the benchmark shapes and
// that test use.
type RowAtATimeEncoder struct {
	schema *arrow.Schema
	velox  bool // Velox's bytes: unpadded fixed-width arrays, no room for null long decimals
}

// NewRowAtATimeEncoder prepares the baseline for schema; velox selects
// Velox's UnsafeRow flavour instead of Spark's.
func NewRowAtATimeEncoder(schema *arrow.Schema, velox bool) (*RowAtATimeEncoder, error) {
	for _, f := range schema.Fields() {
		if err := baselineSupports(f.Type); err != nil {
			return nil, fmt.Errorf("bench: baseline encoder: field %s: %w", f.Name, err)
		}
	}
	return &RowAtATimeEncoder{schema: schema, velox: velox}, nil
}

func baselineSupports(t arrow.DataType) error {
	switch t := t.(type) {
	case *arrow.BooleanType, *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type,
		*arrow.Float32Type, *arrow.Float64Type, *arrow.Date32Type, *arrow.TimestampType,
		*arrow.StringType, *arrow.BinaryType, *arrow.Decimal128Type:
		return nil
	case *arrow.ListType:
		return baselineSupports(t.Elem())
	case *arrow.MapType:
		if err := baselineSupports(t.KeyType()); err != nil {
			return err
		}
		return baselineSupports(t.ItemType())
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if err := baselineSupports(f.Type); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("type %s not supported", t)
}

// Encode returns rec's rows in a new buffer.
func (e *RowAtATimeEncoder) Encode(rec arrow.RecordBatch) (rowbridge.Rows, error) {
	return e.AppendRows(rowbridge.Rows{}, rec)
}

// AppendRows appends rec's rows to dst, one row at a time.
func (e *RowAtATimeEncoder) AppendRows(dst rowbridge.Rows, rec arrow.RecordBatch) (rowbridge.Rows, error) {
	cols := rec.Columns()
	if len(dst.Offsets) == 0 {
		dst.Offsets = append(dst.Offsets, len(dst.Data))
	}
	for i := 0; i < int(rec.NumRows()); i++ {
		dst.Data = e.appendStruct(dst.Data, cols, i)
		dst.Offsets = append(dst.Offsets, len(dst.Data))
	}
	return dst, nil
}

// appendStruct writes the struct made of field i of each column: null
// bitset, slots, then the variable-width payloads.
func (e *RowAtATimeEncoder) appendStruct(buf []byte, fields []arrow.Array, i int) []byte {
	base := len(buf)
	bits := bitsetBytes(len(fields))
	buf = appendZeros(buf, bits+8*len(fields))
	for f, col := range fields {
		slot := base + bits + 8*f
		if col.IsNull(i) {
			buf[base+f>>3] |= 1 << (f & 7)
			if d, ok := col.DataType().(*arrow.Decimal128Type); ok && d.Precision > 18 && !e.velox {
				// Spark keeps 16 bytes for a null long decimal, and its offset.
				binary.LittleEndian.PutUint64(buf[slot:], uint64(len(buf)-base)<<32)
				buf = appendZeros(buf, 16)
			}
			continue
		}
		if putFixed(buf[slot:], col, i) {
			continue
		}
		start := len(buf)
		var size int
		buf, size = e.appendVar(buf, col, i, true)
		buf = pad8(buf, len(buf)-start)
		binary.LittleEndian.PutUint64(buf[slot:], uint64(start-base)<<32|uint64(size))
	}
	return buf
}

// putFixed writes a fixed-width value into its slot and reports whether the
// value was one.
func putFixed(slot []byte, col arrow.Array, i int) bool {
	switch a := col.(type) {
	case *array.Boolean:
		if a.Value(i) {
			slot[0] = 1
		}
	case *array.Int8:
		slot[0] = byte(a.Value(i))
	case *array.Int16:
		binary.LittleEndian.PutUint16(slot, uint16(a.Value(i)))
	case *array.Int32:
		binary.LittleEndian.PutUint32(slot, uint32(a.Value(i)))
	case *array.Date32:
		binary.LittleEndian.PutUint32(slot, uint32(a.Value(i)))
	case *array.Int64:
		binary.LittleEndian.PutUint64(slot, uint64(a.Value(i)))
	case *array.Timestamp:
		binary.LittleEndian.PutUint64(slot, uint64(a.Value(i)))
	case *array.Float32:
		binary.LittleEndian.PutUint32(slot, math.Float32bits(a.Value(i)))
	case *array.Float64:
		binary.LittleEndian.PutUint64(slot, math.Float64bits(a.Value(i)))
	case *array.Decimal128:
		if a.DataType().(*arrow.Decimal128Type).Precision > 18 {
			return false
		}
		binary.LittleEndian.PutUint64(slot, a.Value(i).LowBits())
	default:
		return false
	}
	return true
}

// appendVar writes the payload of a variable-width value and returns the
// size its slot records; the caller, which owns the cursor, pads it to 8.
// inStruct says whether the value is a struct field (where Spark reserves
// 16 bytes for a long decimal) rather than an array element.
func (e *RowAtATimeEncoder) appendVar(buf []byte, col arrow.Array, i int, inStruct bool) ([]byte, int) {
	switch a := col.(type) {
	case *array.String:
		s := a.Value(i)
		return append(buf, s...), len(s)
	case *array.Binary:
		b := a.Value(i)
		return append(buf, b...), len(b)
	case *array.Decimal128:
		b := bigIntegerBytes(a.Value(i))
		buf = append(buf, b...)
		if inStruct && !e.velox {
			buf = appendZeros(buf, 16-len(b))
		}
		return buf, len(b)
	case *array.List:
		from, to := a.ValueOffsets(i)
		return e.appendArray(buf, a.ListValues(), int(from), int(to))
	case *array.Map:
		from, to := a.ValueOffsets(i)
		base := len(buf)
		buf = appendZeros(buf, 8)
		buf, keySize := e.appendArray(buf, a.Keys(), int(from), int(to))
		binary.LittleEndian.PutUint64(buf[base:], uint64(keySize))
		buf, _ = e.appendArray(buf, a.Items(), int(from), int(to))
		return buf, len(buf) - base
	case *array.Struct:
		fields := make([]arrow.Array, a.NumField())
		for f := range fields {
			fields[f] = a.Field(f)
		}
		start := len(buf)
		buf = e.appendStruct(buf, fields, i)
		return buf, len(buf) - start
	}
	panic(fmt.Sprintf("bench: baseline encoder: unexpected %s", col.DataType()))
}

// appendArray writes elements [from, to) of values as an UnsafeRow array
// and returns the size its owner records.
func (e *RowAtATimeEncoder) appendArray(buf []byte, values arrow.Array, from, to int) ([]byte, int) {
	n := to - from
	base := len(buf)
	w := elementWidthOf(values.DataType())
	buf = appendZeros(buf, 8+bitsetBytes(n))
	binary.LittleEndian.PutUint64(buf[base:], uint64(n))
	elems := len(buf)
	buf = appendZeros(buf, n*w)
	if !e.velox {
		buf = pad8(buf, len(buf)-base) // Spark pads a fixed-width element region
	}
	var scratch [8]byte
	for k := range n {
		j := from + k
		if values.IsNull(j) {
			buf[base+8+k>>3] |= 1 << (k & 7)
			continue
		}
		if putFixed(scratch[:], values, j) {
			copy(buf[elems+k*w:elems+k*w+w], scratch[:w])
			scratch = [8]byte{}
			continue
		}
		start := len(buf)
		var vsize int
		buf, vsize = e.appendVar(buf, values, j, false)
		buf = pad8(buf, len(buf)-start)
		binary.LittleEndian.PutUint64(buf[elems+k*8:], uint64(start-base)<<32|uint64(vsize))
	}
	return buf, len(buf) - base
}

// elementWidthOf is the bytes an array element of type t takes.
func elementWidthOf(t arrow.DataType) int {
	switch t.ID() {
	case arrow.BOOL, arrow.INT8:
		return 1
	case arrow.INT16:
		return 2
	case arrow.INT32, arrow.DATE32, arrow.FLOAT32:
		return 4
	}
	return 8
}

// bigIntegerBytes returns v as Java's BigInteger.toByteArray writes it:
// big-endian, minimal two's complement (computed from the two words, not
// through big.Int, whose conversion arrow-go gets wrong on 386).
func bigIntegerBytes(v decimal128.Num) []byte {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(v.HighBits()))
	binary.BigEndian.PutUint64(b[8:], v.LowBits())
	i := 0
	for i < 15 && (b[i] == 0 && b[i+1]&0x80 == 0 || b[i] == 0xff && b[i+1]&0x80 != 0) {
		i++
	}
	return b[i:]
}

func appendZeros(buf []byte, n int) []byte {
	for range n {
		buf = append(buf, 0)
	}
	return buf
}

// pad8 appends the zeros that bring a payload of size bytes to a multiple
// of 8.
func pad8(buf []byte, size int) []byte {
	if r := size % 8; r != 0 {
		buf = appendZeros(buf, 8-r)
	}
	return buf
}
