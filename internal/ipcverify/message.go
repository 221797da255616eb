package ipcverify

import "fmt"

// message is a verified Message's metadata.
type message struct {
	header  uint8 // headerSchema, headerDictionaryBatch or headerRecordBatch
	version int16
	bodyLen int64
	schema  *schemaLayout // a Schema message's
	batch   *recordBatch  // a RecordBatch message's, or a DictionaryBatch's data
	dictID  int64         // a DictionaryBatch's id
	isDelta bool          // a DictionaryBatch that adds to its dictionary
	base    int64         // input offset of the metadata flatbuffer
}

// recordBatch is a verified RecordBatch table.
type recordBatch struct {
	t                 table
	nodes, nNodes     int // first FieldNode and count
	buffers, nBuffers int // first Buffer and count
	variadic          int // first variadic buffer count
	nVariadic         int
	hasVariadic       bool // the variadicBufferCounts vector is present
	codec             int  // the BodyCompression codec, or -1 when uncompressed

	// bitmapNeeds maps a validity buffer whose field node's null count is
	// -1 (unknown) to the bytes it must hold, for a compressed batch, whose
	// buffer lengths only its body tells; checkCompressed checks them.
	bitmapNeeds map[int]int64
}

// Body compression codecs arrow-go reads (CompressionType); any other value
// makes it panic.
const (
	codecNone     = -1
	codecLZ4Frame = 0
	codecZSTD     = 1
)

// verifyMessage verifies the Message flatbuffer meta, which starts at input
// offset base: its structure, then what arrow-go needs beyond it.
func verifyMessage(meta []byte, base int64) (*message, *Error) {
	v := newVerifier(meta, base)
	t, err := v.root(messageTable)
	if err != nil {
		return nil, err
	}
	m := &message{
		header:  t.uint8(messageHeaderType, 0),
		version: t.int16(messageVersion, 0),
		bodyLen: t.int64(messageBodyLength, 0),
		base:    base,
	}
	if m.version < 0 || m.version > metadataV5 {
		return nil, errorAt(base+int64(t.pos), "unknown metadata version %d", m.version).within("Message")
	}
	if m.bodyLen < 0 {
		return nil, errorAt(base+int64(t.pos), "negative bodyLength %d", m.bodyLen).within("Message")
	}
	if m.header == 0 || !t.has(messageHeader) { // the verifier skips the value of a NONE header
		return nil, errorAt(base+int64(t.pos), "the message has no header").within("Message")
	}
	h, _ := t.child(messageHeader)
	switch m.header {
	case headerSchema:
		m.schema, err = checkSchema(h, base)
		if err != nil {
			return nil, err.within("Message.header(Schema)")
		}
	case headerDictionaryBatch:
		m.dictID = h.int64(dictionaryBatchID, 0)
		m.isDelta = h.uint8(dictionaryBatchIsDelta, 0) != 0
		data, ok := h.child(dictionaryBatchData)
		if !ok {
			return nil, errorAt(base+int64(h.pos), "the dictionary batch has no data").within("Message.header(DictionaryBatch)")
		}
		if m.batch, err = checkRecordBatch(data, m.bodyLen, base); err != nil {
			return nil, err.within("Message.header(DictionaryBatch).data")
		}
	case headerRecordBatch:
		if m.batch, err = checkRecordBatch(h, m.bodyLen, base); err != nil {
			return nil, err.within("Message.header(RecordBatch)")
		}
	}
	return m, nil
}

// checkRecordBatch checks the verified RecordBatch table t of a message
// with a bodyLen-byte body: counts and lengths are not negative, buffers
// lie inside the body, the compression is one arrow-go reads.
func checkRecordBatch(t table, bodyLen, base int64) (*recordBatch, *Error) {
	rb := &recordBatch{t: t, codec: codecNone}
	if n := t.int64(recordBatchLength, 0); n < 0 {
		return nil, errorAt(base+int64(t.pos), "negative length %d", n)
	}
	rb.nodes, rb.nNodes = t.vector(recordBatchNodes)
	for i := range rb.nNodes {
		p := rb.nodes + fieldNodeSize*i
		// The null count depends on the field's type; checkLayout checks it.
		if length, nulls := t.int64At(p), t.int64At(p+8); length < 0 {
			return nil, errorAt(base+int64(p), "field node with length %d and null_count %d", length, nulls).within(fmt.Sprintf(".nodes[%d]", i))
		}
	}
	rb.buffers, rb.nBuffers = t.vector(recordBatchBuffers)
	for i := range rb.nBuffers {
		p := rb.buffers + bufferSize*i
		off, length := t.int64At(p), t.int64At(p+8)
		if off < 0 || length < 0 || off > bodyLen || length > bodyLen-off {
			return nil, errorAt(base+int64(p), "buffer at body offset %d of %d bytes is outside the %d-byte body", off, length, bodyLen).within(fmt.Sprintf(".buffers[%d]", i))
		}
	}
	if c, ok := t.child(recordBatchCompression); ok {
		codec, method := int8(c.uint8(bodyCompressionCodec, 0)), int8(c.uint8(bodyCompressionMethod, 0))
		if codec != codecLZ4Frame && codec != codecZSTD || method != 0 {
			return nil, errorAt(base+int64(c.pos), "unknown compression codec %d or method %d", codec, method).within(".compression")
		}
		rb.codec = int(codec)
	}
	rb.hasVariadic = t.has(recordBatchVariadicBufferCounts)
	rb.variadic, rb.nVariadic = t.vector(recordBatchVariadicBufferCounts)
	for i := range rb.nVariadic {
		p := rb.variadic + 8*i
		if n := t.int64At(p); n < 0 || n > int64(rb.nBuffers) {
			return nil, errorAt(base+int64(p), "variadic buffer count %d is negative or more than the batch's %d buffers", n, rb.nBuffers).within(fmt.Sprintf(".variadicBufferCounts[%d]", i))
		}
	}
	return rb, nil
}

// buffer returns the body offset and length of buffer i.
func (rb *recordBatch) buffer(i int) (off, length int64) {
	p := rb.buffers + bufferSize*i
	return rb.t.int64At(p), rb.t.int64At(p + 8)
}

// node returns the length and null count of field node i.
func (rb *recordBatch) node(i int) (length, nullCount int64) {
	p := rb.nodes + fieldNodeSize*i
	return rb.t.int64At(p), rb.t.int64At(p + 8)
}

// checkDelta checks that a delta dictionary batch adds to a dictionary an
// earlier batch sent, which sent records (arrow-go panics otherwise).
func checkDelta(m *message, sent map[int64]bool) *Error {
	if m.header != headerDictionaryBatch {
		return nil
	}
	if m.isDelta && !sent[m.dictID] {
		return errorAt(m.base+int64(m.batch.t.pos), "a delta for dictionary id %d before its first batch", m.dictID).within("Message.header(DictionaryBatch)")
	}
	sent[m.dictID] = true
	return nil
}
