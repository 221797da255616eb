package ipcverify

import (
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/stretchr/testify/require"
)

// sharedChildrenSchema builds a Schema message whose one field has n
// children that are all the same field, which has n children that are all
// the same Int field: n*n fields to a reader, in a few bytes per n.
func sharedChildrenSchema(n int) []byte {
	b := flatbuffers.NewBuilder(0)
	b.StartObject(2) // Int
	b.PrependInt32Slot(0, 32, 0)
	intType := b.EndObject()
	b.StartObject(0) // Struct_
	structType := b.EndObject()
	field := func(typ byte, typeTable, children flatbuffers.UOffsetT) flatbuffers.UOffsetT {
		b.StartObject(7)
		b.PrependByteSlot(fieldTypeType, typ, 0)
		b.PrependUOffsetTSlot(fieldType, typeTable, 0)
		if children != 0 {
			b.PrependUOffsetTSlot(fieldChildren, children, 0)
		}
		return b.EndObject()
	}
	nTimes := func(f flatbuffers.UOffsetT) flatbuffers.UOffsetT {
		b.StartVector(4, n, 4)
		for range n {
			b.PrependUOffsetT(f)
		}
		return b.EndVector(n)
	}
	leaf := field(typeInt, intType, 0)
	mid := field(typeStruct, structType, nTimes(leaf))
	top := field(typeStruct, structType, nTimes(mid))
	b.StartVector(4, 1, 4)
	b.PrependUOffsetT(top)
	fields := b.EndVector(1)
	b.StartObject(4) // Schema
	b.PrependUOffsetTSlot(schemaFields, fields, 0)
	schema := b.EndObject()
	b.StartObject(5) // Message
	b.PrependInt16Slot(messageVersion, metadataV5, 0)
	b.PrependByteSlot(messageHeaderType, headerSchema, 0)
	b.PrependUOffsetTSlot(messageHeader, schema, 0)
	b.Finish(b.EndObject())
	return b.FinishedBytes()
}

func TestVerifierBoundsSharedTables(t *testing.T) {
	m, err := verifyMessage(sharedChildrenSchema(3), 0)
	require.Nil(t, err)
	require.Len(t, m.schema.fields[0].children, 3)
	require.Len(t, m.schema.fields[0].children[2].children, 3)

	meta := sharedChildrenSchema(200) // 40,000 fields in about 2 KB
	_, err = verifyMessage(meta, 0)
	requireError(t, err, "more tables, strings and vector elements than a", "byte buffer holds")
}

func TestVerifierRoot(t *testing.T) {
	for _, tc := range []struct {
		name string
		buf  []byte
		msg  string
	}{
		{"too short", []byte{4, 0, 0}, "malformed input at byte 0: 3 bytes are too few for a flatbuffer"},
		{"zero root offset", []byte{0, 0, 0, 0, 0, 0, 0, 0}, "malformed input at byte 0: Message: offset 0 is zero or negative"},
		{"negative root offset", []byte{0, 0, 0, 0x80, 0, 0, 0, 0}, "Message: offset -2147483648 is zero or negative"},
		{"root past the end", []byte{8, 0, 0, 0, 0, 0, 0, 0}, "Message: offset 8 points past the end of the 8-byte buffer"},
		{"misaligned root", []byte{5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "malformed input at byte 5: Message: table is not aligned to 4 bytes"},
		{"table size too small", []byte{8, 0, 0, 0, 4, 0, 2, 0, 4, 0, 0, 0}, "malformed input at byte 6: Message: table size 2 is less than 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := verifyMessage(tc.buf, 0)
			requireError(t, err, tc.msg)
		})
	}
}
