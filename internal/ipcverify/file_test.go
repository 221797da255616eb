package ipcverify

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

func TestFileAcceptsValidFiles(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want := nestedBatches(t, mem)
	defer release(want)
	for name, opts := range map[string][]ipc.Option{"uncompressed": nil, "lz4": {ipc.WithLZ4()}, "zstd": {ipc.WithZstd()}} {
		t.Run(name, func(t *testing.T) {
			data := writeIPC(t, true, want, append(opts, ipc.WithAllocator(mem))...)
			require.NoError(t, File(bytes.NewReader(data), int64(len(data))))
			fr, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(mem))
			require.NoError(t, err)
			defer fr.Close()
			require.Equal(t, len(want), fr.NumRecords())
			for i := range want {
				rec, err := fr.RecordBatch(i)
				require.NoError(t, err)
				require.True(t, array.RecordEqual(want[i], rec), "batch %d", i)
			}
		})
	}
}

func TestFileRejects(t *testing.T) {
	data := nestedIPC(t, true)
	footer, base := footerOf(t, data)
	schema, _ := footer.child(footerSchema)
	list := fieldAt(schema, 2) // l: list<string>
	id := fieldAt(schema, 0)   // id: int64
	blocks, _ := footer.vector(footerRecordBatches)
	dicts, _ := footer.vector(footerDictionaries)
	size := len(data)
	for _, tc := range []struct {
		name    string
		corrupt func(b []byte) []byte
		msg     string
	}{
		// The two crashes the audit found: arrow-go allocated a corrupt
		// vector length (fatal out of memory) and read past the footer (panic).
		{"children vector length huge", func(b []byte) []byte {
			put32(b, base+list.target(fieldChildren), 0x7fff_ffff)
			return b
		}, "Footer.schema.fields[2].children: vector of 2147483647 elements (4 bytes each) runs past the end of the"},
		{"type offset past the end", func(b []byte) []byte {
			put32(b, base+fieldPos(id, fieldType), 14360)
			return b
		}, "Footer.schema.fields[0].type: offset 14360 points past the end of the"},
		{"vtable past the end", func(b []byte) []byte {
			put32(b, base+id.pos, 0xffff_f000) // -4096
			return b
		}, "Footer.schema.fields[0]: the table's vtable offset points outside the"},
		{"odd vtable size", func(b []byte) []byte {
			b[base+id.vt] |= 1
			return b
		}, "Footer.schema.fields[0]: vtable size"},
		{"field outside its table", func(b []byte) []byte {
			put16(b, base+id.vt+4+2*fieldType, 0x7ff0)
			return b
		}, "Footer.schema.fields[0].type: field at table offset 32752 is outside the"},
		{"misaligned string", func(b []byte) []byte {
			put32(b, base+fieldPos(id, 0), le32(b[base+fieldPos(id, 0):])+1)
			return b
		}, "Footer.schema.fields[0].name: string length is not aligned to 4 bytes"},
		{"string without its NUL", func(b []byte) []byte {
			name := base + id.target(0)
			b[name+4+2] = 'x' // "id" is 2 bytes
			return b
		}, "Footer.schema.fields[0].name: string of 2 bytes lacks its NUL terminator"},
		{"unknown type", func(b []byte) []byte {
			b[base+fieldPos(id, fieldTypeType)] = 99
			return b
		}, "Footer.schema.fields[0].type: unknown or unsupported union member 99"},
		{"no type", func(b []byte) []byte {
			b[base+fieldPos(id, fieldTypeType)] = 0
			return b
		}, "Footer.schema.fields[0]: the field has no type"},
		{"no start magic", func(b []byte) []byte {
			b[0] = 'a'
			return b
		}, "malformed input at byte 0: the file does not start with the magic"},
		{"no end magic", func(b []byte) []byte {
			b[size-1] = 'a'
			return b
		}, "the file does not end with the magic"},
		{"footer length negative", func(b []byte) []byte {
			put32(b, size-fileTrailerSize, 0xffff_fff0)
			return b
		}, "footer length -16 does not fit"},
		{"footer length past the start", func(b []byte) []byte {
			put32(b, size-fileTrailerSize, uint32(size))
			return b
		}, "does not fit"},
		{"too short", func(b []byte) []byte {
			return append(b[:7:7], b[size-fileTrailerSize:]...)
		}, "17 bytes are too few for an Arrow IPC file"},
		{"record batch body past the footer", func(b []byte) []byte {
			put64(b, base+blocks+16, 1<<40)
			return b
		}, "record batch block 0: a message at"},
		{"record batch offset negative", func(b []byte) []byte {
			put64(b, base+blocks, 1<<63)
			return b
		}, "record batch block 0: a message at -9223372036854775808"},
		{"metadata length differs from the block's", func(b []byte) []byte {
			put32(b, base+blocks+8, le32(b[base+blocks+8:])+8)
			return b
		}, "record batch block 0: message length"},
		{"dictionary block holding a record batch", func(b []byte) []byte {
			copy(b[base+dicts:base+dicts+blockSize], b[base+blocks:base+blocks+blockSize])
			return b
		}, "dictionary block 0: a message with header type 3 where the footer lists a DictionaryBatch"},
		{"body length differs from the message's", func(b []byte) []byte {
			put64(b, base+blocks+16, uint64(le64(b[base+blocks+16:])-8))
			return b
		}, "record batch block 0: message bodyLength"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.corrupt(bytes.Clone(data))
			requireError(t, File(bytes.NewReader(b), int64(len(b))), tc.msg)
		})
	}
}

// TestFileRejectsSchemas checks the schemas arrow-go panics on instead of
// failing.
func TestFileRejectsSchemas(t *testing.T) {
	for _, tc := range []struct {
		name    string
		field   arrow.Field
		corrupt func(b []byte, ty table)
		msg     string
	}{
		{"fixed-size list of size 0", arrow.Field{Name: "f", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int8)},
			func(b []byte, ty table) { put32(b, fieldPos(ty, fixedSizeListListSize), 0) }, "Footer.schema.fields[1].type: listSize 0 is not positive"},
		{"negative fixed-size binary width", arrow.Field{Name: "f", Type: &arrow.FixedSizeBinaryType{ByteWidth: 3}},
			func(b []byte, ty table) { put32(b, fieldPos(ty, fixedSizeBinaryByteWidth), 0xffff_ffff) }, "negative byteWidth -1"},
		{"decimal scale beyond its precision", arrow.Field{Name: "f", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}},
			func(b []byte, ty table) { put32(b, fieldPos(ty, decimalScale), 0x7fff_ffff) },
			"decimal precision 10 and scale 2147483647 are outside what a 128-bit decimal holds (precision 1 to 38)"},
		{"decimal precision too large", arrow.Field{Name: "f", Type: &arrow.Decimal32Type{Precision: 5, Scale: 2}},
			func(b []byte, ty table) { put32(b, fieldPos(ty, decimalPrecision), 10) },
			"decimal precision 10 and scale 2 are outside what a 32-bit decimal holds (precision 1 to 9)"},
		{"decimal bit width", arrow.Field{Name: "f", Type: &arrow.Decimal64Type{Precision: 5, Scale: 2}},
			func(b []byte, ty table) { put32(b, fieldPos(ty, decimalBitWidth), 96) }, "decimal bitWidth 96"},
		{"unknown time unit", arrow.Field{Name: "f", Type: arrow.FixedWidthTypes.Timestamp_us},
			func(b []byte, ty table) { put16(b, fieldPos(ty, unitSlot), 7) }, "unknown time unit 7"},
		{"repeated union type id", arrow.Field{Name: "f", Type: arrow.SparseUnionOf([]arrow.Field{
			{Name: "a", Type: arrow.PrimitiveTypes.Int8}, {Name: "b", Type: arrow.PrimitiveTypes.Int8}}, []arrow.UnionTypeCode{1, 2})},
			func(b []byte, ty table) {
				elems, _ := ty.vector(unionTypeIDs)
				put32(b, elems+4, 1)
			}, "union type id 1 is out of range or repeated"},
		{"union type id out of range", arrow.Field{Name: "f", Type: arrow.DenseUnionOf([]arrow.Field{
			{Name: "a", Type: arrow.PrimitiveTypes.Int8}}, []arrow.UnionTypeCode{1})},
			func(b []byte, ty table) {
				elems, _ := ty.vector(unionTypeIDs)
				put32(b, elems, 128)
			}, "union type id 128 is out of range or repeated"},
		{"unknown union mode", arrow.Field{Name: "f", Type: arrow.DenseUnionOf([]arrow.Field{
			{Name: "a", Type: arrow.PrimitiveTypes.Int8}}, []arrow.UnionTypeCode{1})},
			func(b []byte, ty table) { put16(b, fieldPos(ty, unionMode), 2) }, "unknown union mode 2"},
		{"dictionary without an index type", arrow.Field{Name: "f", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}},
			nil, "Footer.schema.fields[1].dictionary: the dictionary encoding has no indexType"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Field 1 has a dictionary id of 1, which the builder writes: the
			// vtable of field 0's encoding (id 0, left out) is the schema's too.
			data := emptyFile(t, tc.field, tc.field)
			require.NoError(t, File(bytes.NewReader(data), int64(len(data))))
			footer, base := footerOf(t, data)
			schema, _ := footer.child(footerSchema)
			f := fieldAt(schema, 1)
			footerBuf := data[base : len(data)-fileTrailerSize]
			if tc.corrupt != nil {
				ty, _ := f.child(fieldType)
				tc.corrupt(footerBuf, ty)
			} else {
				enc, _ := f.child(fieldDictionary)
				put16(footerBuf, enc.vt+4+2*dictEncodingIndexType, 0)
			}
			requireError(t, File(bytes.NewReader(data), int64(len(data))), tc.msg)
		})
	}
}

func TestFileRejectsDeepNesting(t *testing.T) {
	typ := arrow.DataType(arrow.PrimitiveTypes.Int8)
	for range 70 {
		typ = arrow.ListOf(typ)
	}
	data := emptyFile(t, arrow.Field{Name: "deep", Type: typ})
	requireError(t, File(bytes.NewReader(data), int64(len(data))), "tables nest more than 64 deep")
}

// emptyFile writes an IPC file of fields and no batches, unverified.
func emptyFile(t *testing.T, fields ...arrow.Field) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(arrow.NewSchema(fields, nil)))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// Two Arrow files end to end are not one file: the last footer's blocks
// point into the first, so reading by that footer would drop rows.
func TestFileRejectsConcatenatedFiles(t *testing.T) {
	data := nestedIPC(t, true)
	require.NoError(t, File(bytes.NewReader(data), int64(len(data))))
	twice := append(append([]byte{}, data...), data...)
	err := File(bytes.NewReader(twice), int64(len(twice)))
	require.ErrorContains(t, err, "several Arrow files concatenated are not one file")
	// Bytes slipped in before the footer are refused the same way.
	footerLen := int(int32(binary.LittleEndian.Uint32(data[len(data)-10:])))
	at := len(data) - 10 - footerLen
	junk := append(append(append([]byte{}, data[:at]...), make([]byte, 16)...), data[at:]...)
	require.ErrorContains(t, File(bytes.NewReader(junk), int64(len(junk))), "24 bytes between the last message")
}
