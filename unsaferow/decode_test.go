package unsaferow

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

func checkedMem(t testing.TB) *memory.CheckedAllocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

func mustDecoder(t testing.TB, schema *arrow.Schema, mem memory.Allocator) *Decoder {
	t.Helper()
	dec, err := NewDecoder(schema, WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	return dec
}

// validateBatch runs array.ValidateFull on every column.
func validateBatch(t testing.TB, rec arrow.RecordBatch) {
	t.Helper()
	for i, col := range rec.Columns() {
		if err := array.ValidateFull(col); err != nil {
			t.Fatalf("column %d (%s): %v", i, rec.Schema().Field(i).Name, err)
		}
	}
}

// decodeValid decodes rows, which must succeed, and validates the batch.
func decodeValid(t testing.TB, dec *Decoder, rows [][]byte) arrow.RecordBatch {
	t.Helper()
	rec, err := dec.Decode(rows)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	validateBatch(t, rec)
	return rec
}

// jsonRecord builds the expected batch from a JSON array of row objects.
func jsonRecord(t testing.TB, mem memory.Allocator, schema *arrow.Schema, js string) arrow.RecordBatch {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(js))
	if err != nil {
		t.Fatalf("bad expected JSON: %v", err)
	}
	return rec
}

func assertBatch(t testing.TB, got, want arrow.RecordBatch) {
	t.Helper()
	if !array.RecordEqual(got, want) {
		t.Fatalf("decoded batch differs\n got: %v\nwant: %v", got, want)
	}
}

// assertDecodeError checks the exact cause, field path and byte offset.
func assertDecodeError(t testing.TB, err error, sentinel error, field string, offset int) {
	t.Helper()
	var de *rowbridge.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("want *rowbridge.DecodeError, got %T %v", err, err)
	}
	if !errors.Is(err, sentinel) || de.Field != field || de.Offset != offset {
		t.Fatalf("got %v (field %q, offset %d); want %v at field %q, offset %d", err, de.Field, de.Offset, sentinel, field, offset)
	}
}

// repeatJSON turns a one-row JSON array into n copies of that row.
func repeatJSON(js string, n int) string {
	obj := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(js), "["), "]")
	return "[" + strings.Repeat(obj+",", n-1) + obj + "]"
}

func TestDecodeGoldenRows(t *testing.T) {
	for _, g := range goldenRows {
		t.Run(g.name, func(t *testing.T) {
			skipArrowDecimals(t, g.schema) // the JSON of the expected batch
			mem := checkedMem(t)
			dec := mustDecoder(t, g.schema, mem)
			for _, flavor := range []struct{ name, hex string }{{"spark", g.spark}, {"velox", g.velox}} {
				rec := decodeValid(t, dec, [][]byte{goldenBytes(flavor.hex)})
				want := jsonRecord(t, mem, g.schema, g.json)
				assertBatch(t, rec, want)
				rec.Release()
				want.Release()
			}
			// Both flavours mixed in one batch.
			rows := [][]byte{goldenBytes(g.spark), goldenBytes(g.velox), goldenBytes(g.spark)}
			rec := decodeValid(t, dec, rows)
			want := jsonRecord(t, mem, g.schema, repeatJSON(g.json, 3))
			assertBatch(t, rec, want)
			rec.Release()
			want.Release()
		})
	}
}

func TestDecodeZeroRows(t *testing.T) {
	mem := checkedMem(t)
	for _, g := range goldenRows {
		dec := mustDecoder(t, g.schema, mem)
		rec := decodeValid(t, dec, nil)
		if rec.NumRows() != 0 || int(rec.NumCols()) != g.schema.NumFields() {
			t.Fatalf("%s: %d rows, %d columns", g.name, rec.NumRows(), rec.NumCols())
		}
		rec.Release()
	}
}

var shape12841 = goldenRows[8].schema // E5: ROW(m MAP(INT, ROW(a ARRAY(INT), b INT)))

func putGarbage(b []byte, at int) { binary.LittleEndian.PutUint64(b[at:], 0xdeadbeefdeadbeef) }

func TestDecode12841Shape(t *testing.T) {
	if !strings.HasPrefix(goldenRows[8].name, "E5") {
		t.Fatal("goldenRows[8] is not E5")
	}
	mem := checkedMem(t)
	dec := mustDecoder(t, shape12841, mem)

	// {10: NULL, 20: (NULL, 3), 30: ([1, NULL, 2], NULL)}: every null slot
	// (the null map value, the null array field, the null int field) holds
	// garbage that must not be read.
	structA := handRow(hNull, hI32(3))
	putGarbage(structA, 8)
	structB := handRow(hVar(handArray(4, hI32(1), hNull, hI32(2))), hNull)
	putGarbage(structB, 16)
	values := handArray(8, hNull, hVar(structA), hVar(structB))
	putGarbage(values, 16)
	keys := handArray(4, hI32(10), hI32(20), hI32(30))
	row2 := handRow(hVar(handMap(keys, values)))

	rows := [][]byte{
		goldenBytes(goldenRows[8].spark),
		handRow(hNull), // null map
		row2,
		handRow(hVar(handMap(handArray(4), handArray(8)))), // empty map
		handRow(hVar(handMap(handArray(4, hI32(5)), handArray(8, hNull)))),
		goldenBytes(goldenRows[8].velox),
	}
	rec := decodeValid(t, dec, rows)
	defer rec.Release()
	want := jsonRecord(t, mem, shape12841, `[
		{"m": [{"key": 1, "value": null}, {"key": 2, "value": {"a": [7], "b": 5}}]},
		{"m": null},
		{"m": [{"key": 10, "value": null}, {"key": 20, "value": {"a": null, "b": 3}},
		       {"key": 30, "value": {"a": [1, null, 2], "b": null}}]},
		{"m": []},
		{"m": [{"key": 5, "value": null}]},
		{"m": [{"key": 1, "value": null}, {"key": 2, "value": {"a": [7], "b": 5}}]}
	]`)
	defer want.Release()
	assertBatch(t, rec, want)

	// A null struct value: the struct, its list field (with a zero-length
	// range) and its int field are all null.
	m := rec.Column(0).(*array.Map)
	vals := m.Items().(*array.Struct)
	list := vals.Field(0).(*array.List)
	for _, i := range []int{0, 2, 5} { // entries whose value is a null struct
		if !vals.IsNull(i) || !list.IsNull(i) || !vals.Field(1).IsNull(i) {
			t.Fatalf("entry %d: struct/field nulls not propagated", i)
		}
		if s, e := list.ValueOffsets(i); s != e {
			t.Fatalf("entry %d: null list has range %d..%d", i, s, e)
		}
	}
	if !m.IsNull(1) {
		t.Fatal("row 1: map should be null")
	}
}

func TestDecodeNullStructWithGarbageSlots(t *testing.T) {
	mem := checkedMem(t)
	inner := arrow.StructOf(nullable("s", arrow.BinaryTypes.String), nullable("l", listOfElem(arrow.PrimitiveTypes.Int64)),
		nullable("x", arrow.PrimitiveTypes.Int64), nullable("d", &arrow.Decimal128Type{Precision: 30, Scale: 0}))
	schema := goldenSchema(nullable("st", inner), nullable("y", arrow.PrimitiveTypes.Int32))
	dec := mustDecoder(t, schema, mem)

	nullStruct := handRow(hNull, hI32(7))
	putGarbage(nullStruct, 8) // the null struct field's slot
	allNullFields := handRow(hNull, hNull, hNull, hNull)
	for at := 8; at < 40; at += 8 {
		putGarbage(allNullFields, at)
	}
	rows := [][]byte{nullStruct, handRow(hVar(allNullFields), hNull),
		handRow(hVar(handRow(hStr("hi"), hVar(handArray(8, hI64(-5))), hI64(9), hVar([]byte{0x01, 0x00}))), hI32(1))}
	rec := decodeValid(t, dec, rows)
	defer rec.Release()
	want := jsonRecord(t, mem, schema, `[{"st": null, "y": 7},
		{"st": {"s": null, "l": null, "x": null, "d": null}, "y": null},
		{"st": {"s": "hi", "l": [-5], "x": 9, "d": "256"}, "y": 1}]`)
	defer want.Release()
	assertBatch(t, rec, want)
}

func TestDecodeVeloxGarbageInNullElements(t *testing.T) {
	mem := checkedMem(t)
	schema := goldenSchema(nullable("arr", listOfElem(arrow.PrimitiveTypes.Int32)),
		nullable("b", listOfElem(arrow.FixedWidthTypes.Boolean)),
		nullable("d", listOfElem(&arrow.Decimal128Type{Precision: 10, Scale: 2})),
		nullable("s", listOfElem(arrow.BinaryTypes.String)))
	dec := mustDecoder(t, schema, mem)
	// Velox HEAD layout (unpadded element region) with garbage in the null
	// elements' bytes.
	arr := goldenBytes(`03000000 00000000  02000000 00000000  01000000 efbeadde  03000000`)
	bools := handArray(1, hBool(true), hNull, hBool(false))
	bools[17] = 0x5a
	decs := handArray(8, hNull, hI64(-12345))
	putGarbage(decs, 16)
	strs := handArray(8, hStr("a"), hNull)
	putGarbage(strs, 24)
	row := handRow(hVar(arr), hVar(bools), hVar(decs), hVar(strs))
	rec := decodeValid(t, dec, [][]byte{row})
	defer rec.Release()
	want := jsonRecord(t, mem, schema, `[{"arr": [1, null, 3], "b": [true, null, false], "d": [null, "-123.45"], "s": ["a", null]}]`)
	defer want.Release()
	assertBatch(t, rec, want)
	// Null elements come out as zero, not as the garbage.
	if v := rec.Column(0).(*array.List).ListValues().(*array.Int32).Int32Values()[1]; v != 0 {
		t.Fatalf("null element value %#x, want 0", v)
	}
}

// wideRows builds rows of nf int64 fields (every 7th value null) and checks
// them after decoding; it covers null bitsets of two and three words.
func TestDecodeWideRows(t *testing.T) {
	for _, nf := range []int{64, 65, 130} {
		t.Run(fmt.Sprint(nf), func(t *testing.T) {
			mem := checkedMem(t)
			fields := make([]arrow.Field, nf)
			for i := range fields {
				if i%2 == 0 {
					fields[i] = nullable(fmt.Sprintf("f%d", i), arrow.PrimitiveTypes.Int64)
				} else {
					fields[i] = nullable(fmt.Sprintf("f%d", i), arrow.BinaryTypes.String)
				}
			}
			dec := mustDecoder(t, arrow.NewSchema(fields, nil), mem)
			const nrows = 5
			isNull := func(i, j int) bool { return (i+j)%7 == 0 }
			rows := make([][]byte, nrows)
			for j := range rows {
				vals := make([]hv, nf)
				for i := range vals {
					switch {
					case isNull(i, j):
						vals[i] = hNull
					case i%2 == 0:
						vals[i] = hI64(int64(i*1000 + j))
					default:
						vals[i] = hStr(fmt.Sprint(i, "/", j))
					}
				}
				rows[j] = handRow(vals...)
			}
			rec := decodeValid(t, dec, rows)
			defer rec.Release()
			for i := 0; i < nf; i++ {
				col := rec.Column(i)
				for j := 0; j < nrows; j++ {
					if col.IsNull(j) != isNull(i, j) {
						t.Fatalf("field %d row %d: null = %v", i, j, col.IsNull(j))
					}
					if isNull(i, j) {
						continue
					}
					if i%2 == 0 {
						if got := col.(*array.Int64).Value(j); got != int64(i*1000+j) {
							t.Fatalf("field %d row %d: %d", i, j, got)
						}
					} else if got := col.(*array.String).Value(j); got != fmt.Sprint(i, "/", j) {
						t.Fatalf("field %d row %d: %q", i, j, got)
					}
				}
			}
		})
	}
}

// hostileCase is a row that must fail with exactly this cause and place.
type hostileCase struct {
	name   string
	schema *arrow.Schema
	row    []byte
	err    error
	field  string
	offset int
}

func patched(hexRow string, at int, word uint64) []byte {
	b := goldenBytes(hexRow)
	binary.LittleEndian.PutUint64(b[at:], word)
	return b
}

func hostileCases() []hostileCase {
	arrSchema := goldenSchema(nullable("arr", listOfElem(arrow.PrimitiveTypes.Int32)))
	strArrSchema := goldenSchema(nullable("arr", listOfElem(arrow.BinaryTypes.String)))
	binArrSchema := goldenSchema(nullable("arr", listOfElem(arrow.BinaryTypes.Binary)))
	e1, e3, e4a, e5, e6 := goldenRows[0], goldenRows[3], goldenRows[4], goldenRows[8], goldenRows[9]
	// An array field whose 40-byte array announces count elements.
	countRow := func(count uint64) []byte {
		b := handRow(hVar(make([]byte, 40)))
		binary.LittleEndian.PutUint64(b[16:], count)
		return b
	}
	// A long decimal whose slot announces 17 bytes, all present.
	dec17 := handRow(hVar(make([]byte, 24)))
	binary.LittleEndian.PutUint64(dec17[8:], 16<<32|17)
	badUTF8 := goldenBytes(e1.spark)
	badUTF8[33] = 0xff
	strElem := handRow(hVar(handArray(8, hStr("x"))))
	binary.LittleEndian.PutUint64(strElem[32:], 0x100<<32|1)
	overlap := handRow(hVar(handArray(8, hVar(make([]byte, 64)), hNull, hNull, hNull)))
	for j := 1; j < 4; j++ { // every element points at element 0's payload
		copy(overlap[32+8*j:], overlap[32:40])
	}
	overlap[24] = 0
	nullKey := goldenBytes(e3.spark)
	nullKey[32] = 0x02
	return []hostileCase{
		{"count 2^31-1", arrSchema, countRow(math.MaxInt32), rowbridge.ErrCount, "arr", 16},
		{"count 2^40", arrSchema, countRow(1 << 40), rowbridge.ErrCount, "arr", 16},
		{"count -1", arrSchema, countRow(math.MaxUint64), rowbridge.ErrCount, "arr", 16},
		{"count 2^63", arrSchema, countRow(1 << 63), rowbridge.ErrCount, "arr", 16},
		{"offset past row", e1.schema, patched(e1.spark, 16, 0x30<<32|3), rowbridge.ErrOutOfBounds, "b", 16},
		{"size past row", e1.schema, patched(e1.spark, 16, 0x20<<32|0x100), rowbridge.ErrOutOfBounds, "b", 16},
		{"offset 2^32-1", e1.schema, patched(e1.spark, 16, 0xffffffff<<32|0xffffffff), rowbridge.ErrOutOfBounds, "b", 16},
		{"key/value count mismatch", e3.schema, patched(e3.spark, 56, 2), rowbridge.ErrCount, "m", 56},
		{"key array bytes past map", e3.schema, patched(e3.spark, 16, 200), rowbridge.ErrOutOfBounds, "m", 16},
		{"key array bytes negative", e3.schema, patched(e3.spark, 16, math.MaxUint64), rowbridge.ErrOutOfBounds, "m", 16},
		{"key count too large", e3.schema, patched(e3.spark, 24, 5), rowbridge.ErrCount, "m.key", 24},
		{"null map key", e3.schema, nullKey, rowbridge.ErrLayout, "m.key", 32},
		{"long decimal size 0", e4a.schema, patched(e4a.spark, 8, 16<<32), rowbridge.ErrDecimal, "d", 16},
		{"long decimal size 17", e4a.schema, dec17, rowbridge.ErrDecimal, "d", 16},
		{"long decimal past row", e4a.schema, patched(e4a.velox, 8, 16<<32|16), rowbridge.ErrOutOfBounds, "d", 8},
		{"short decimal over precision", goldenSchema(nullable("d", &arrow.Decimal128Type{Precision: 5, Scale: 2})),
			handRow(hI64(100000)), rowbridge.ErrDecimal, "d", 8},
		{"invalid utf8", e1.schema, badUTF8, rowbridge.ErrUTF8, "b", 32},
		{"row shorter than fixed region", e1.schema, goldenBytes(e1.spark)[:16], rowbridge.ErrTruncated, "", 16},
		{"empty row", e1.schema, []byte{}, rowbridge.ErrTruncated, "", 0},
		{"row not a multiple of 8", e1.schema, append(goldenBytes(e1.spark), 0, 0, 0, 0), rowbridge.ErrLayout, "", 44},
		{"nested count 2^31-1", e5.schema, patched(e5.spark, 104, math.MaxInt32), rowbridge.ErrCount, "m.value.a", 104},
		{"nested struct too short", e6.schema, patched(e6.spark, 8, 16<<32|8), rowbridge.ErrTruncated, "s", 16},
		{"map value struct too short", e5.schema, patched(e5.spark, 72, 0x20<<32|8), rowbridge.ErrTruncated, "m.value", 80},
		{"array element past array", strArrSchema, strElem, rowbridge.ErrOutOfBounds, "arr.element", 32},
		{"array without count", arrSchema, patched(goldenRows[2].spark, 8, 16<<32|4), rowbridge.ErrTruncated, "arr", 16},
		{"overlapping values", binArrSchema, overlap, rowbridge.ErrLayout, "arr.element", 48},
	}
}

// runHostileCase decodes the case's row after a good one and requires its
// exact error at row 1.
func runHostileCase(t *testing.T, c hostileCase) {
	t.Helper()
	mem := checkedMem(t)
	dec := mustDecoder(t, c.schema, mem)
	// The bad row is row 1, after a good one, so the row index is checked too.
	good := handRow(make([]hv, c.schema.NumFields())...)
	for i := range c.schema.NumFields() {
		good[i/8] |= 1 << (i % 8)
	}
	rec, err := dec.Decode([][]byte{good, c.row})
	if err == nil {
		rec.Release()
		t.Fatal("decoded a hostile row")
	}
	assertDecodeError(t, err, c.err, c.field, c.offset)
	var de *rowbridge.DecodeError
	errors.As(err, &de)
	if de.Row != 1 {
		t.Fatalf("row %d, want 1", de.Row)
	}
}

func TestDecodeHostileInputs(t *testing.T) {
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) { runHostileCase(t, c) })
	}
}

// checkDecodesOrFails decodes rows: success must give a valid batch,
// failure a *DecodeError; a panic fails the test.
func checkDecodesOrFails(t testing.TB, dec *Decoder, rows [][]byte) {
	t.Helper()
	rec, err := dec.Decode(rows)
	if err != nil {
		var de *rowbridge.DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("error %v is not a *DecodeError", err)
		}
		return
	}
	if int(rec.NumRows()) != len(rows) {
		t.Fatalf("%d rows decoded from %d", rec.NumRows(), len(rows))
	}
	validateBatch(t, rec)
	rec.Release()
}

func TestDecodePrefixesAndCorruptions(t *testing.T) {
	mem := checkedMem(t)
	for _, g := range goldenRows {
		dec := mustDecoder(t, g.schema, mem)
		for _, h := range []string{g.spark, g.velox} {
			row := goldenBytes(h)
			for n := 0; n < len(row); n++ {
				checkDecodesOrFails(t, dec, [][]byte{row[:n:n]})
			}
			for i := range row {
				for _, x := range []byte{0x01, 0x80, 0xff, 0x7f, 0x10} {
					bad := append([]byte(nil), row...)
					bad[i] ^= x
					checkDecodesOrFails(t, dec, [][]byte{row, bad})
				}
			}
		}
	}
}

func TestDecodeConcurrent(t *testing.T) {
	mem := checkedMem(t)
	g := goldenRows[8]
	dec := mustDecoder(t, g.schema, mem)
	rows := [][]byte{goldenBytes(g.spark), goldenBytes(g.velox)}
	want := jsonRecord(t, mem, g.schema, repeatJSON(g.json, 2))
	defer want.Release()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				rec, err := dec.Decode(rows)
				if err != nil {
					errs <- err
					return
				}
				if !array.RecordEqual(rec, want) {
					errs <- errors.New("concurrent decode differs")
				}
				rec.Release()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestDecodeAllocsDoNotGrowWithRows(t *testing.T) {
	if testgen.RaceEnabled {
		t.Skip("the race detector adds allocations of its own")
	}
	g := goldenRows[8] // E5 plus a string and a decimal column
	schema := goldenSchema(append(g.schema.Fields(), nullable("s", arrow.BinaryTypes.String),
		nullable("d", &arrow.Decimal128Type{Precision: 38, Scale: 10}))...)
	makeRows := func(n int) [][]byte {
		rows := make([][]byte, n)
		for i := range rows {
			m := goldenBytes(g.spark)
			m = m[16:] // the map payload
			rows[i] = handRow(hVar(m), hStr("some text"), hVar([]byte{0x12, 0x34}))
			if i%3 == 0 {
				rows[i] = handRow(hNull, hNull, hNull)
			}
		}
		return rows
	}
	// One checked decode for leaks; the counting runs use the default
	// allocator, whose counts the checked one's bookkeeping would perturb.
	checked := mustDecoder(t, schema, checkedMem(t))
	rec, err := checked.Decode(makeRows(10))
	if err != nil {
		t.Fatal(err)
	}
	rec.Release()
	dec := mustDecoder(t, schema, memory.DefaultAllocator)
	allocs := func(rows [][]byte) float64 {
		return testing.AllocsPerRun(20, func() {
			rec, err := dec.Decode(rows)
			if err != nil {
				t.Fatal(err)
			}
			rec.Release()
		})
	}
	few, many := allocs(makeRows(10)), allocs(makeRows(1000))
	if many > few {
		t.Fatalf("%v allocations per Decode for 1000 rows, %v for 10", many, few)
	}
	t.Logf("%v allocations per Decode", few)
}

func TestNewDecoderRejectsUnsupported(t *testing.T) {
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Uint32, &arrow.TimestampType{Unit: arrow.Nanosecond},
		arrow.MapOf(arrow.Null, arrow.PrimitiveTypes.Int32)} {
		_, err := NewDecoder(goldenSchema(nullable("x", dt)))
		if !errors.Is(err, rowbridge.ErrUnsupportedType) {
			t.Errorf("%s: got %v", dt, err)
		}
	}
}

// Arrays of every element width, Spark-padded and Velox-unpadded (the slot
// size of a 3-element int8 array is 8+8+3 = 19 in Velox).
func TestDecodeArraysOfEveryWidth(t *testing.T) {
	mem := checkedMem(t)
	schema := goldenSchema(nullable("i8", listOfElem(arrow.PrimitiveTypes.Int8)),
		nullable("i16", listOfElem(arrow.PrimitiveTypes.Int16)),
		nullable("f32", listOfElem(arrow.PrimitiveTypes.Float32)),
		nullable("f64", listOfElem(arrow.PrimitiveTypes.Float64)),
		nullable("ts", listOfElem(&arrow.TimestampType{Unit: arrow.Microsecond})))
	dec := mustDecoder(t, schema, mem)
	arrays := [][]byte{
		handArray(1, hI8(-1), hNull, hI8(127)),
		handArray(2, hI16(-300), hI16(2), hNull),
		handArray(4, hNull, hF32(1.5), hF32(-2.25)),
		handArray(8, hF64(math.Pi), hNull, hF64(-0.5)),
		handArray(8, hI64(-1), hI64(1700000000123456), hNull),
	}
	spark := handRow(hVar(arrays[0]), hVar(arrays[1]), hVar(arrays[2]), hVar(arrays[3]), hVar(arrays[4]))
	velox := append([]byte(nil), spark...)
	for i, width := range []int{1, 2, 4} { // unpadded sizes in the slots
		binary.LittleEndian.PutUint32(velox[8+8*i:], uint32(16+3*width))
	}
	rec := decodeValid(t, dec, [][]byte{spark, velox})
	defer rec.Release()
	row := `{"i8": [-1, null, 127], "i16": [-300, 2, null], "f32": [null, 1.5, -2.25],
		"f64": [3.141592653589793, null, -0.5], "ts": [-1, 1700000000123456, null]}`
	want := jsonRecord(t, mem, schema, "["+row+","+row+"]")
	defer want.Release()
	assertBatch(t, rec, want)
}
