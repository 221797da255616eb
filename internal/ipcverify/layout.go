package ipcverify

import (
	"errors"
	"fmt"
)

// checkLayout checks that the message's record batch (or dictionary batch)
// has the field nodes, buffers and variadic buffer counts its schema needs,
// taken in the order arrow-go's array loader takes them. The loader panics
// on a missing node or buffer, and it reads a variadic buffer count past the
// end of its vector without a bounds check, then allocates by it.
func checkLayout(m *message, s *schemaLayout) *Error {
	w := layoutWalk{rb: m.batch, version: m.version}
	var fields []*fieldLayout
	where := "Message.header(RecordBatch)"
	if m.header == headerDictionaryBatch {
		value, ok := s.dicts[m.dictID]
		if !ok {
			return errorAt(m.base+int64(m.batch.t.pos), "dictionary id %d is not in the schema", m.dictID).within("Message.header(DictionaryBatch)")
		}
		undict := *value
		undict.dict = false
		fields = []*fieldLayout{&undict}
		// arrow-go loads dictionaries as metadata version V1.
		w.version = 0
		where = "Message.header(DictionaryBatch).data"
	} else {
		fields = s.fields
	}
	for _, f := range fields {
		if err := w.field(f); err != nil {
			var ne *nodeError
			if errors.As(err, &ne) {
				return errorAt(m.base+int64(m.batch.nodes+fieldNodeSize*ne.node), "%s", ne.msg).within(fmt.Sprintf("%s.nodes[%d]", where, ne.node))
			}
			return errorAt(m.base+int64(m.batch.t.pos), "%s", err).within(where)
		}
	}
	return nil
}

// nodeError is a field node's null count that its field's type does not
// allow.
type nodeError struct {
	node int
	msg  string
}

func (e *nodeError) Error() string { return e.msg }

// layoutWalk counts what a batch's fields take from its vectors.
type layoutWalk struct {
	rb                       *recordBatch
	version                  int16
	nodes, buffers, variadic int // taken so far
}

// node takes the next field node, for a field of type typ, and checks its
// null count.
//
// null_count -1 is "unknown": apache-arrow JS writes it for Null-typed
// arrays nested in lists, maps and structs (its sliced child Data has no
// computed count). Both readers it must work with take it as such. Arrow
// C++ (ArrayLoader::LoadCommon, cpp/src/arrow/ipc/reader.cc) copies it into
// ArrayData::null_count, where -1 is kUnknownNullCount, and reads the
// validity buffer because the count is not 0; arrow-go
// (arrayLoaderContext.loadCommon, arrow/ipc/file_reader.go) does the same
// with array.UnknownNullCount. The count is then taken from the bitmap when
// asked for, so the bitmap must cover the node's length: Arrow C++'s
// validation requires it, and arrow-go would count past a shorter one (and
// panic). A Null-typed array has no bitmap and its count is its length
// whatever the node says: arrow-go's loadNull passes the node's count on
// and array.Null replaces it with the length, as Arrow C++'s NullArray
// does; so any count is accepted there. Types without a validity buffer
// (unions and run-end encoding in V5) must give a count from 0 to the
// length, as before.
func (w *layoutWalk) node(typ uint8) (nulls int64, err error) {
	if w.nodes >= w.rb.nNodes {
		return 0, fmt.Errorf("%d field nodes are fewer than the schema's fields need", w.rb.nNodes)
	}
	i := w.nodes
	w.nodes++
	length, nulls := w.rb.node(i)
	switch {
	case typ == typeNull:
	case nulls >= 0 && nulls <= length:
	case nulls == -1 && w.validity(typ):
		need := (length + 7) / 8 // the validity buffer is the next one the field takes
		if w.buffers >= w.rb.nBuffers {
			return nulls, nil // takeBuffers reports the missing buffer
		}
		if w.rb.codec != codecNone {
			if w.rb.bitmapNeeds == nil {
				w.rb.bitmapNeeds = map[int]int64{}
			}
			w.rb.bitmapNeeds[w.buffers] = need
		} else if _, size := w.rb.buffer(w.buffers); size < need {
			return 0, &nodeError{i, fmt.Sprintf("field node with length %d and null_count -1 (unknown) has a %d-byte validity buffer, short of the %d bytes its bits need", length, size, need)}
		}
	default:
		return 0, &nodeError{i, fmt.Sprintf("field node with length %d and null_count %d", length, nulls)}
	}
	return nulls, nil
}

func (w *layoutWalk) takeBuffers(n int64) error {
	if n > int64(w.rb.nBuffers-w.buffers) {
		return fmt.Errorf("%d buffers are fewer than the schema's fields need", w.rb.nBuffers)
	}
	w.buffers += int(n)
	return nil
}

// validity reports whether arrow-go takes a validity buffer for a field of
// type typ.
func (w *layoutWalk) validity(typ uint8) bool {
	switch typ {
	case typeNull:
		return false
	case typeUnion, typeRunEndEncoded:
		return w.version < metadataV5
	}
	return true
}

// field takes what field f needs: a node, then its buffers, then its
// children's.
func (w *layoutWalk) field(f *fieldLayout) error {
	if f.dict { // the indices, an integer array
		if _, err := w.node(typeInt); err != nil {
			return err
		}
		return w.takeBuffers(2)
	}
	var variadic int64
	if f.typ == typeBinaryView || f.typ == typeUtf8View {
		if w.rb.hasVariadic {
			if w.variadic >= w.rb.nVariadic {
				return fmt.Errorf("%d variadic buffer counts are fewer than the schema's view fields need", w.rb.nVariadic)
			}
			variadic = w.rb.t.int64At(w.rb.variadic + 8*w.variadic)
		}
		w.variadic++
	}
	nulls, err := w.node(f.typ)
	if err != nil {
		return err
	}
	var bufs int64
	if w.validity(f.typ) {
		bufs = 1
	}
	children := false
	switch f.typ {
	case typeNull:
	case typeBinary, typeUtf8, typeLargeBinary, typeLargeUtf8:
		bufs += 2
	case typeBinaryView, typeUtf8View:
		bufs += 1 + variadic
	case typeList, typeLargeList, typeMap:
		bufs++
		children = true
	case typeListView, typeLargeListView:
		bufs += 2
		children = true
	case typeFixedSizeList, typeStruct, typeRunEndEncoded:
		children = true
	case typeUnion:
		if nulls != 0 && w.validity(f.typ) {
			return fmt.Errorf("a union with %d nulls in pre-V5 metadata (arrow-go cannot read its validity bitmap)", nulls)
		}
		bufs++
		if f.dense {
			bufs++
		}
		children = true
	default: // fixed-width: Int, FloatingPoint, Bool, Decimal, dates and times, FixedSizeBinary
		bufs++
	}
	if err := w.takeBuffers(bufs); err != nil {
		return err
	}
	if children {
		for _, c := range f.children {
			if err := w.field(c); err != nil {
				return err
			}
		}
	}
	return nil
}
