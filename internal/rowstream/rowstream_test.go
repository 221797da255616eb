package rowstream

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"testing/iotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/stretchr/testify/require"
)

var schema = arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)

// fakeCodec stores an int64 column as 8-byte little-endian rows.
type fakeCodec struct{ mem memory.Allocator }

func (f fakeCodec) Decode(rows [][]byte) (arrow.RecordBatch, error) {
	b := array.NewInt64Builder(f.mem)
	defer b.Release()
	for i, row := range rows {
		if len(row) != 8 {
			return nil, &rowbridge.DecodeError{Row: i, Offset: len(row), Err: rowbridge.ErrLayout}
		}
		b.Append(int64(binary.LittleEndian.Uint64(row)))
	}
	col := b.NewArray()
	defer col.Release()
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(len(rows))), nil
}

func (f fakeCodec) AppendRows(dst rowbridge.Rows, rec arrow.RecordBatch) (rowbridge.Rows, error) {
	col := rec.Column(0).(*array.Int64)
	if len(dst.Offsets) == 0 {
		dst.Offsets = append(dst.Offsets, len(dst.Data))
	}
	for i := range col.Len() {
		if col.Value(i) < 0 {
			return dst, &rowbridge.EncodeError{Row: i, Field: "x", Err: rowbridge.ErrValue}
		}
		dst.Data = binary.LittleEndian.AppendUint64(dst.Data, uint64(col.Value(i)))
		dst.Offsets = append(dst.Offsets, len(dst.Data))
	}
	return dst, nil
}

func batch(mem memory.Allocator, from, n int) arrow.RecordBatch {
	b := array.NewInt64Builder(mem)
	defer b.Release()
	for i := range n {
		b.Append(int64(from + i))
	}
	col := b.NewArray()
	defer col.Release()
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(n))
}

func writeStream(t *testing.T, mem memory.Allocator, f framing.Framing, c framing.Codec, sizes ...int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, schema, fakeCodec{mem}, f, c)
	require.NoError(t, err)
	next := 0
	for _, n := range sizes {
		rec := batch(mem, next, n)
		require.NoError(t, w.Write(rec))
		rec.Release()
		next += n
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func TestReaderBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tc := range []struct {
		f framing.Framing
		c framing.Codec
	}{{framing.Spark, framing.None}, {framing.Velox, framing.None}, {framing.Velox, framing.Zstd}} {
		stream := writeStream(t, mem, tc.f, tc.c, 5, 0, 7)
		r, err := NewReader(iotest.OneByteReader(bytes.NewReader(stream)), schema, fakeCodec{mem}, tc.f, tc.c, 4)
		require.NoError(t, err)
		var sizes []int64
		var values []int64
		for r.Next() {
			rec := r.RecordBatch()
			require.Same(t, rec, r.Record())
			require.NoError(t, array.ValidateFull(rec.Column(0)))
			sizes = append(sizes, rec.NumRows())
			values = append(values, rec.Column(0).(*array.Int64).Int64Values()...)
		}
		require.NoError(t, r.Err())
		require.False(t, r.Next(), "Next stays false at the end")
		r.Release()
		require.Equal(t, []int64{4, 4, 4}, sizes, "%v", tc)
		require.Equal(t, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, values)
	}
}

func TestReaderRetainOutlivesNext(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	stream := writeStream(t, mem, framing.Spark, framing.None, 3)
	r, err := NewReader(bytes.NewReader(stream), schema, fakeCodec{mem}, framing.Spark, framing.None, 2)
	require.NoError(t, err)
	r.Retain()
	require.True(t, r.Next())
	kept := r.RecordBatch()
	kept.Retain()
	require.True(t, r.Next())
	require.Equal(t, int64(1), r.RecordBatch().NumRows())
	require.Equal(t, []int64{0, 1}, kept.Column(0).(*array.Int64).Int64Values())
	kept.Release()
	r.Release()
	r.Release() // the last reference frees the current batch
}

func TestReaderDecodeErrorHasStreamRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	stream := writeStream(t, mem, framing.Spark, framing.None, 6)
	// A 4-byte row at stream row 6.
	stream = append(stream, 0, 0, 0, 4, 1, 2, 3, 4)
	r, err := NewReader(bytes.NewReader(stream), schema, fakeCodec{mem}, framing.Spark, framing.None, 4)
	require.NoError(t, err)
	defer r.Release()
	require.True(t, r.Next())
	require.False(t, r.Next())
	var de *rowbridge.DecodeError
	require.ErrorAs(t, r.Err(), &de)
	require.Equal(t, 6, de.Row)
	require.ErrorIs(t, r.Err(), rowbridge.ErrLayout)
	require.Equal(t, "row 6, byte 4: invalid row layout", r.Err().Error())
}

func TestReaderFramingError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	stream := writeStream(t, mem, framing.Spark, framing.None, 5)
	r, err := NewReader(bytes.NewReader(stream[:len(stream)-3]), schema, fakeCodec{mem}, framing.Spark, framing.None, 3)
	require.NoError(t, err)
	defer r.Release()
	n := int64(0)
	for r.Next() {
		n += r.RecordBatch().NumRows()
	}
	require.Equal(t, int64(4), n, "complete rows come before the error")
	require.ErrorIs(t, r.Err(), rowbridge.ErrTruncated)
	require.Contains(t, r.Err().Error(), "after 4 rows read")
}

func TestWriterErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, schema, fakeCodec{mem}, framing.Velox, framing.None)
	require.NoError(t, err)
	good := batch(mem, 0, 3)
	defer good.Release()
	require.NoError(t, w.Write(good))
	bad := batch(mem, -2, 3)
	defer bad.Release()
	err = w.Write(bad)
	var ee *rowbridge.EncodeError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 3, ee.Row, "encode errors count rows across the stream")

	other := arrow.NewSchema([]arrow.Field{{Name: "y", Type: arrow.PrimitiveTypes.Int64}}, nil)
	col := good.Column(0)
	mismatched := array.NewRecordBatch(other, []arrow.Array{col}, 3)
	defer mismatched.Release()
	require.ErrorContains(t, w.Write(mismatched), "differs")

	require.NoError(t, w.Close())
	require.ErrorContains(t, w.Write(good), "after Close")

	_, err = NewWriter(&buf, schema, fakeCodec{mem}, framing.Spark, framing.Gzip)
	require.Error(t, err)
	_, err = NewReader(&buf, schema, fakeCodec{mem}, framing.Spark, framing.None, 0)
	require.Error(t, err)
}

func TestOtherDecodeErrorsSayStreamRow(t *testing.T) {
	err := inStream(errors.New("boom"), 40)
	require.Equal(t, "batch from stream row 40: boom", err.Error())
	require.Equal(t, "row 42, field a.b, byte 3: invalid row layout",
		inStream(fmt.Errorf("wrapped: %w", &rowbridge.DecodeError{Row: 2, Field: "a.b", Offset: 3, Err: rowbridge.ErrLayout}), 40).Error())
}

// A batch longer than the slice size is encoded and written slice by
// slice: one Velox row group each, the same rows back, and an encode error
// still names the row's index in the stream.
func TestWriterSlicesLongBatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, schema, fakeCodec{mem}, framing.Velox, framing.None)
	require.NoError(t, err)
	w.sliceRows = 4
	rec := batch(mem, 0, 10)
	defer rec.Release()
	require.NoError(t, w.Write(rec))

	var groups []int
	for rest := buf.Bytes(); len(rest) > 0; {
		size := int(binary.LittleEndian.Uint32(rest))
		groups = append(groups, size/12) // 4-byte prefix + 8-byte row
		rest = rest[framing.HeaderSize+size:]
	}
	require.Equal(t, []int{4, 4, 2}, groups)

	r, err := NewReader(bytes.NewReader(buf.Bytes()), schema, fakeCodec{mem}, framing.Velox, framing.None, 100)
	require.NoError(t, err)
	require.True(t, r.Next())
	require.Equal(t, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, r.RecordBatch().Column(0).(*array.Int64).Int64Values())
	r.Release()

	// Row 6 of the next batch, in its second slice, cannot be encoded.
	b := array.NewInt64Builder(mem)
	b.AppendValues([]int64{0, 1, 2, 3, 4, 5, -1, 7, 8, 9}, nil)
	col := b.NewArray()
	b.Release()
	bad := array.NewRecordBatch(schema, []arrow.Array{col}, 10)
	col.Release()
	defer bad.Release()
	err = w.Write(bad)
	var ee *rowbridge.EncodeError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 16, ee.Row, "the 10 rows before, then row 6")
}

// The codecs' documentation states this value.
func TestDocumentedReaderIdleBytes(t *testing.T) {
	if ReaderIdleBytes != 256<<20 {
		t.Fatalf("ReaderIdleBytes is %d; the codecs' comments say 256 MiB", ReaderIdleBytes)
	}
}
