package ipcverify

import "fmt"

// maxUnionTypeCode is the largest union type code (and so the most union
// children) Arrow allows.
const maxUnionTypeCode = 127

// fieldLayout is what a schema field's type says about how record batches
// carry it: which field nodes, buffers and variadic buffer counts.
type fieldLayout struct {
	typ      uint8 // Type union tag
	dense    bool  // a dense union
	dict     bool  // dictionary-encoded: record batches carry the indices
	children []*fieldLayout
}

// schemaLayout is a verified schema's fields and its dictionaries' value
// types by id.
type schemaLayout struct {
	fields []*fieldLayout
	dicts  map[int64]*fieldLayout
}

// checkSchema checks the verified Schema table t beyond its flatbuffer
// structure, where arrow-go would panic instead of failing (type tags it
// does not know, time units, union type codes, dictionaries without an
// index type), and returns its layout.
func checkSchema(t table, base int64) (*schemaLayout, *Error) {
	s := &schemaLayout{dicts: map[int64]*fieldLayout{}}
	elems, n := t.vector(schemaFields)
	for i := range n {
		f, err := s.field(t.element(elems, i), base)
		if err != nil {
			return nil, err.within(fmt.Sprintf(".fields[%d]", i))
		}
		s.fields = append(s.fields, f)
	}
	return s, nil
}

func (s *schemaLayout) field(t table, base int64) (*fieldLayout, *Error) {
	f := &fieldLayout{typ: t.uint8(fieldTypeType, 0)}
	if f.typ == 0 || !t.has(fieldType) { // the verifier skips the value of a NONE type
		return nil, errorAt(base+int64(t.pos), "the field has no type")
	}
	ty, _ := t.child(fieldType)
	elems, n := t.vector(fieldChildren)
	for i := range n {
		c, err := s.field(t.element(elems, i), base)
		if err != nil {
			return nil, err.within(fmt.Sprintf(".children[%d]", i))
		}
		f.children = append(f.children, c)
	}
	switch f.typ {
	case typeTime, typeTimestamp:
		if u := ty.int16(unitSlot, 0); u < 0 || u > 3 {
			return nil, errorAt(base+int64(ty.pos), "unknown time unit %d", u).within(".type")
		}
	case typeDecimal:
		if err := checkDecimal(ty, base); err != nil {
			return nil, err.within(".type")
		}
	case typeFixedSizeBinary:
		if w := ty.int32(fixedSizeBinaryByteWidth, 0); w < 0 {
			return nil, errorAt(base+int64(ty.pos), "negative byteWidth %d", w).within(".type")
		}
	case typeFixedSizeList:
		if w := ty.int32(fixedSizeListListSize, 0); w <= 0 {
			return nil, errorAt(base+int64(ty.pos), "listSize %d is not positive", w).within(".type")
		}
	case typeUnion:
		if err := checkUnion(ty, n, base); err != nil {
			return nil, err.within(".type")
		}
		f.dense = ty.int16(unionMode, 0) == 1
	}
	if enc, ok := t.child(fieldDictionary); ok {
		if !enc.has(dictEncodingIndexType) {
			// The format lets it default to int32; arrow-go reads it anyway.
			return nil, errorAt(base+int64(enc.pos), "the dictionary encoding has no indexType").within(".dictionary")
		}
		id := enc.int64(dictEncodingID, 0)
		if _, dup := s.dicts[id]; !dup {
			s.dicts[id] = &fieldLayout{typ: f.typ, dense: f.dense, children: f.children}
		}
		f.dict = true
	}
	return f, nil
}

// checkUnion checks a Union type table with n children: its mode and type
// codes, which arrow-go hands to arrow.UnionOf (that panics on bad ones).
func checkUnion(t table, n int, base int64) *Error {
	if m := t.int16(unionMode, 0); m != 0 && m != 1 {
		return errorAt(base+int64(t.pos), "unknown union mode %d", m)
	}
	if n > maxUnionTypeCode+1 {
		return errorAt(base+int64(t.pos), "a union of %d children (at most %d)", n, maxUnionTypeCode+1)
	}
	elems, ids := t.vector(unionTypeIDs)
	if ids == 0 {
		return nil
	}
	if ids != n {
		return errorAt(base+int64(elems-4), "%d typeIds for %d children", ids, n)
	}
	var seen [maxUnionTypeCode + 1]bool
	for i := range ids {
		id := t.int32At(elems + 4*i)
		if id < 0 || id > maxUnionTypeCode || seen[id] {
			return errorAt(base+int64(elems+4*i), "union type id %d is out of range or repeated", id)
		}
		seen[id] = true
	}
	return nil
}

// maxDecimalPrecision is the most digits a decimal of each bit width holds.
var maxDecimalPrecision = map[int32]int32{32: 9, 64: 18, 128: 38, 256: 76}

// checkDecimal checks a Decimal type table: a known bit width, a precision
// the width holds and a scale no larger in magnitude, which arrow-go needs
// to format the values (it panics beyond, or allocates a string of scale
// digits).
func checkDecimal(t table, base int64) *Error {
	width := t.int32(decimalBitWidth, 128)
	maxPrec, ok := maxDecimalPrecision[width]
	if !ok {
		return errorAt(base+int64(t.pos), "decimal bitWidth %d (want 32, 64, 128 or 256)", width)
	}
	prec, scale := t.int32(decimalPrecision, 0), t.int32(decimalScale, 0)
	if prec < 1 || prec > maxPrec || scale < -maxPrec || scale > maxPrec {
		return errorAt(base+int64(t.pos), "decimal precision %d and scale %d are outside what a %d-bit decimal holds (precision 1 to %d)", prec, scale, width, maxPrec)
	}
	return nil
}
