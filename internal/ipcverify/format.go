package ipcverify

// The Arrow IPC metadata tables (format/Schema.fbs, Message.fbs and
// File.fbs of the Arrow repository), field by field in vtable slot order.
// The slot constants name the fields the semantic checks read.

// Type union tags (Schema.fbs enum Type).
const (
	typeNull            = 1
	typeInt             = 2
	typeFloatingPoint   = 3
	typeBinary          = 4
	typeUtf8            = 5
	typeBool            = 6
	typeDecimal         = 7
	typeDate            = 8
	typeTime            = 9
	typeTimestamp       = 10
	typeInterval        = 11
	typeList            = 12
	typeStruct          = 13
	typeUnion           = 14
	typeFixedSizeBinary = 15
	typeFixedSizeList   = 16
	typeMap             = 17
	typeDuration        = 18
	typeLargeBinary     = 19
	typeLargeUtf8       = 20
	typeLargeList       = 21
	typeRunEndEncoded   = 22
	typeBinaryView      = 23
	typeUtf8View        = 24
	typeListView        = 25
	typeLargeListView   = 26
)

// MessageHeader union tags (Message.fbs); Tensor (4) and SparseTensor (5)
// are not accepted: arrow-go does not read them.
const (
	headerSchema          = 1
	headerDictionaryBatch = 2
	headerRecordBatch     = 3
)

// Slots of the fields the checks read.
const (
	footerSchema        = 1
	footerDictionaries  = 2
	footerRecordBatches = 3

	schemaFields = 1

	fieldTypeType   = 2
	fieldType       = 3
	fieldDictionary = 4
	fieldChildren   = 5

	dictEncodingID        = 0
	dictEncodingIndexType = 1

	unitSlot = 0 // Time and Timestamp

	decimalPrecision = 0
	decimalScale     = 1
	decimalBitWidth  = 2

	fixedSizeBinaryByteWidth = 0
	fixedSizeListListSize    = 0

	unionMode    = 0
	unionTypeIDs = 1

	messageVersion    = 0
	messageHeaderType = 1
	messageHeader     = 2
	messageBodyLength = 3

	recordBatchLength               = 0
	recordBatchNodes                = 1
	recordBatchBuffers              = 2
	recordBatchCompression          = 3
	recordBatchVariadicBufferCounts = 4

	bodyCompressionCodec  = 0
	bodyCompressionMethod = 1

	dictionaryBatchID      = 0
	dictionaryBatchData    = 1
	dictionaryBatchIsDelta = 2
)

// Struct sizes: Block {offset: long, metaDataLength: int, bodyLength: long},
// FieldNode {length: long, null_count: long}, Buffer {offset: long, length: long}.
const (
	blockSize     = 24
	fieldNodeSize = 16
	bufferSize    = 16
)

// metadataV5 is MetadataVersion V5, the first without validity bitmaps for
// unions.
const metadataV5 = 4

func emptyTable(name string) *tableType { return &tableType{name: name} }

var (
	keyValueTable = &tableType{name: "KeyValue", slots: []slot{
		stringSlot("key"),
		stringSlot("value"),
	}}
	intTable = &tableType{name: "Int", slots: []slot{
		scalarSlot("bitWidth", 4),
		scalarSlot("is_signed", 1),
	}}
	dictionaryEncodingTable = &tableType{name: "DictionaryEncoding", slots: []slot{
		scalarSlot("id", 8),
		tableSlot("indexType", intTable),
		scalarSlot("isOrdered", 1),
		scalarSlot("dictionaryKind", 2),
	}}

	// typeTables are the Type union's members by tag.
	typeTables = []*tableType{
		typeNull:          emptyTable("Null"),
		typeInt:           intTable,
		typeFloatingPoint: {name: "FloatingPoint", slots: []slot{scalarSlot("precision", 2)}},
		typeBinary:        emptyTable("Binary"),
		typeUtf8:          emptyTable("Utf8"),
		typeBool:          emptyTable("Bool"),
		typeDecimal: {name: "Decimal", slots: []slot{
			scalarSlot("precision", 4),
			scalarSlot("scale", 4),
			scalarSlot("bitWidth", 4),
		}},
		typeDate: {name: "Date", slots: []slot{scalarSlot("unit", 2)}},
		typeTime: {name: "Time", slots: []slot{
			scalarSlot("unit", 2),
			scalarSlot("bitWidth", 4),
		}},
		typeTimestamp: {name: "Timestamp", slots: []slot{
			scalarSlot("unit", 2),
			stringSlot("timezone"),
		}},
		typeInterval: {name: "Interval", slots: []slot{scalarSlot("unit", 2)}},
		typeList:     emptyTable("List"),
		typeStruct:   emptyTable("Struct_"),
		typeUnion: {name: "Union", slots: []slot{
			scalarSlot("mode", 2),
			structsSlot("typeIds", 4),
		}},
		typeFixedSizeBinary: {name: "FixedSizeBinary", slots: []slot{scalarSlot("byteWidth", 4)}},
		typeFixedSizeList:   {name: "FixedSizeList", slots: []slot{scalarSlot("listSize", 4)}},
		typeMap:             {name: "Map", slots: []slot{scalarSlot("keysSorted", 1)}},
		typeDuration:        {name: "Duration", slots: []slot{scalarSlot("unit", 2)}},
		typeLargeBinary:     emptyTable("LargeBinary"),
		typeLargeUtf8:       emptyTable("LargeUtf8"),
		typeLargeList:       emptyTable("LargeList"),
		typeRunEndEncoded:   emptyTable("RunEndEncoded"),
		typeBinaryView:      emptyTable("BinaryView"),
		typeUtf8View:        emptyTable("Utf8View"),
		typeListView:        emptyTable("ListView"),
		typeLargeListView:   emptyTable("LargeListView"),
	}

	// fieldTable's children slot refers to fieldTable itself; init sets it.
	fieldTable = &tableType{name: "Field", slots: []slot{
		stringSlot("name"),
		scalarSlot("nullable", 1),
		scalarSlot("type_type", 1),
		unionSlot("type", fieldTypeType, typeTables),
		tableSlot("dictionary", dictionaryEncodingTable),
		{name: "children"},
		tablesSlot("custom_metadata", keyValueTable),
	}}
	schemaTable = &tableType{name: "Schema", slots: []slot{
		scalarSlot("endianness", 2),
		tablesSlot("fields", fieldTable),
		tablesSlot("custom_metadata", keyValueTable),
		structsSlot("features", 8),
	}}

	bodyCompressionTable = &tableType{name: "BodyCompression", slots: []slot{
		scalarSlot("codec", 1),
		scalarSlot("method", 1),
	}}
	recordBatchTable = &tableType{name: "RecordBatch", slots: []slot{
		scalarSlot("length", 8),
		structsSlot("nodes", fieldNodeSize),
		structsSlot("buffers", bufferSize),
		tableSlot("compression", bodyCompressionTable),
		structsSlot("variadicBufferCounts", 8),
	}}
	dictionaryBatchTable = &tableType{name: "DictionaryBatch", slots: []slot{
		scalarSlot("id", 8),
		tableSlot("data", recordBatchTable),
		scalarSlot("isDelta", 1),
	}}
	messageTable = &tableType{name: "Message", slots: []slot{
		scalarSlot("version", 2),
		scalarSlot("header_type", 1),
		unionSlot("header", messageHeaderType, []*tableType{
			headerSchema:          schemaTable,
			headerDictionaryBatch: dictionaryBatchTable,
			headerRecordBatch:     recordBatchTable,
		}),
		scalarSlot("bodyLength", 8),
		tablesSlot("custom_metadata", keyValueTable),
	}}

	footerTable = &tableType{name: "Footer", slots: []slot{
		scalarSlot("version", 2),
		tableSlot("schema", schemaTable),
		structsSlot("dictionaries", blockSize),
		structsSlot("recordBatches", blockSize),
		tablesSlot("custom_metadata", keyValueTable),
	}}
)

func init() {
	fieldTable.slots[fieldChildren] = tablesSlot("children", fieldTable)
}
