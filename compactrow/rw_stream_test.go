package compactrow

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/stretchr/testify/require"
)

var allCodecs = []framing.Codec{framing.None, framing.LZ4, framing.Zstd, framing.Snappy, framing.Zlib, framing.Gzip}

// streamSchema covers flat, nested and variable-width columns.
var streamSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int32},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "big", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "tags", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
	{Name: "attrs", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32), Nullable: true},
	{Name: "point", Type: arrow.StructOf(
		arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Float64, Nullable: true}), Nullable: true},
	{Name: "amount", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
	{Name: "flag", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
}, nil)

// streamRecord builds n rows of streamSchema with nulls sprinkled in.
func streamRecord(t testing.TB, mem memory.Allocator, n int) arrow.RecordBatch {
	t.Helper()
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		name := fmt.Sprintf("%q", strings.Repeat("ab", i%7))
		if i%5 == 3 {
			name = "null"
		}
		fmt.Fprintf(&b, `{"id":%d,"name":%s,"big":%d,"tags":["t%d",null,"%s"],"attrs":[{"key":"k%d","value":%d}],"point":{"x":%d.5,"y":null},"amount":"%d.25","flag":%v}`,
			i, name, int64(i)<<40, i, strings.Repeat("x", i), i, -i, i, i*3, i%2 == 0)
	}
	b.WriteString("]")
	rec, _, err := array.RecordFromJSON(mem, streamSchema, strings.NewReader(b.String()))
	require.NoError(t, err)
	return rec
}

// readBatches reads every batch, checks it, and returns copies (sliced
// from a retained batch) for comparison.
func readBatches(t *testing.T, r io.Reader, batchRows int, opts ...Option) ([]arrow.RecordBatch, error) {
	t.Helper()
	rd, err := NewReader(r, streamSchema, append(opts, WithBatchRows(batchRows))...)
	require.NoError(t, err)
	defer rd.Release()
	var out []arrow.RecordBatch
	for rd.Next() {
		rec := rd.RecordBatch()
		require.LessOrEqual(t, rec.NumRows(), int64(batchRows))
		require.True(t, rec.Schema().Equal(streamSchema))
		for _, col := range rec.Columns() {
			require.NoError(t, array.ValidateFull(col))
		}
		rec.Retain()
		out = append(out, rec)
	}
	return out, rd.Err()
}

func releaseBatches(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// requireSameRows checks that batches hold want's rows in order.
func requireSameRows(t *testing.T, want arrow.RecordBatch, got []arrow.RecordBatch) {
	t.Helper()
	var start int64
	for i, rec := range got {
		slice := want.NewSlice(start, start+rec.NumRows())
		eq := array.RecordEqual(slice, rec)
		slice.Release()
		require.True(t, eq, "batch %d (rows %d..) differs", i, start)
		start += rec.NumRows()
	}
	require.Equal(t, want.NumRows(), start)
}

func writeStream(t *testing.T, recs []arrow.RecordBatch, opts ...Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, streamSchema, opts...)
	require.NoError(t, err)
	for _, rec := range recs {
		require.NoError(t, w.Write(rec))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func TestStreamFramingsAndCodecs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	all := streamRecord(t, mem, 23)
	defer all.Release()
	// Three writes: three Velox row groups, one of them empty.
	parts := []arrow.RecordBatch{all.NewSlice(0, 10), all.NewSlice(10, 10), all.NewSlice(10, 23)}
	defer releaseBatches(parts)
	for _, f := range []framing.Framing{framing.Spark, framing.Velox} {
		for _, c := range allCodecs {
			if f == framing.Spark && c != framing.None {
				continue
			}
			t.Run(fmt.Sprintf("%v/%v", f, c), func(t *testing.T) {
				opts := []Option{WithAllocator(mem), WithFraming(f), WithCodec(c)}
				stream := writeStream(t, parts, opts...)
				for _, batchRows := range []int{1, 4, 100} {
					got, err := readBatches(t, bytes.NewReader(stream), batchRows, opts...)
					defer releaseBatches(got)
					require.NoError(t, err)
					requireSameRows(t, all, got)
				}
				got, err := readBatches(t, iotest.OneByteReader(bytes.NewReader(stream)), 7, opts...)
				defer releaseBatches(got)
				require.NoError(t, err)
				requireSameRows(t, all, got)
			})
		}
	}
}

func TestStreamTruncated(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	all := streamRecord(t, mem, 6)
	defer all.Release()
	stream := writeStream(t, []arrow.RecordBatch{all}, WithAllocator(mem))
	got, err := readBatches(t, bytes.NewReader(stream[:len(stream)-5]), 2, WithAllocator(mem))
	defer releaseBatches(got)
	require.ErrorIs(t, err, rowbridge.ErrTruncated)
	require.Contains(t, err.Error(), "after 5 rows read")
	var fe *framing.Error
	require.ErrorAs(t, err, &fe)
	require.Equal(t, int64(5), fe.RowsRead)
	require.Len(t, got, 3, "the complete rows still arrive")
	require.Equal(t, int64(1), got[2].NumRows())
}

func TestStreamHostileHeader(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, stream := range [][]byte{
		{0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f, 1}, // 2 GiB compressed group, 1 byte present
		{0xf6, 0xff, 0xff, 0xff, 0xf6, 0xff, 0xff, 0xff, 0}, // negative sizes
		{0, 0, 0, 0x40, 0, 0, 0, 0x40, 0, 0, 0, 0, 8},       // 1 GiB group, 4 bytes present
	} {
		got, err := readBatches(t, bytes.NewReader(stream), 10, WithAllocator(mem), WithFraming(framing.Velox), WithCodec(framing.Zstd))
		require.Empty(t, got)
		var fe *framing.Error
		require.ErrorAs(t, err, &fe)
		require.Zero(t, fe.RowsRead)
	}
}

func TestStreamDecodeErrorNamesStreamRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	all := streamRecord(t, mem, 9)
	defer all.Release()
	stream := writeStream(t, []arrow.RecordBatch{all}, WithAllocator(mem))
	// Append a well-framed row of garbage as stream row 9.
	stream = binary.BigEndian.AppendUint32(stream, 8)
	stream = append(stream, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	got, err := readBatches(t, bytes.NewReader(stream), 4, WithAllocator(mem))
	defer releaseBatches(got)
	var de *rowbridge.DecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, 9, de.Row, "the row index counts from the start of the stream: %v", err)
	require.True(t, strings.HasPrefix(err.Error(), "row 9"), err.Error())
	require.Len(t, got, 2)
}

// e1Schema is ROW(INTEGER, VARCHAR, BIGINT) of spec example E1.
var e1Schema = arrow.NewSchema([]arrow.Field{
	{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "c", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

func TestSpecE1Stream(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rd, err := NewReader(iotest.OneByteReader(bytes.NewReader(e1Stream)), e1Schema, WithAllocator(mem), WithFraming(framing.Velox))
	require.NoError(t, err)
	defer rd.Release()
	require.True(t, rd.Next(), "%v", rd.Err())
	rec := rd.RecordBatch()
	require.Equal(t, int64(2), rec.NumRows())
	for _, col := range rec.Columns() {
		require.NoError(t, array.ValidateFull(col))
	}
	a, b, c := rec.Column(0).(*array.Int32), rec.Column(1).(*array.String), rec.Column(2).(*array.Int64)
	require.Equal(t, []int32{1, 2}, a.Int32Values())
	require.Zero(t, a.NullN())
	require.Equal(t, "abc", b.Value(0))
	require.Equal(t, "", b.Value(1))
	require.Zero(t, b.NullN())
	require.Equal(t, 2, c.NullN())

	// Writing the batch back gives the same bytes.
	var buf bytes.Buffer
	w, err := NewWriter(&buf, e1Schema, WithAllocator(mem), WithFraming(framing.Velox))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.Equal(t, e1Stream, buf.Bytes())

	require.False(t, rd.Next())
	require.NoError(t, rd.Err())
}

// FuzzReader decodes arbitrary streams in both framings: never a panic,
// and every batch that comes out is valid Arrow.
func FuzzReader(f *testing.F) {
	f.Add(false, e1Stream)
	f.Add(true, e1Stream)
	f.Add(false, e1Stream[framing.HeaderSize:])
	f.Add(true, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add(false, []byte{0, 0, 0, 8, 1, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, velox bool, data []byte) {
		fr := framing.Spark
		if velox {
			fr = framing.Velox
		}
		rd, err := NewReader(bytes.NewReader(data), e1Schema, WithFraming(fr), WithBatchRows(3))
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Release()
		for rd.Next() {
			for _, col := range rd.RecordBatch().Columns() {
				if err := array.ValidateFull(col); err != nil {
					t.Fatalf("invalid batch: %v", err)
				}
			}
		}
	})
}

// e1Stream is spec E1's Velox CompactRow serde stream: (1,"abc",NULL), (2,"",NULL).
var e1Stream = func() []byte {
	row1 := []byte{0x04, 1, 0, 0, 0, 3, 0, 0, 0, 0x61, 0x62, 0x63, 0, 0, 0, 0, 0, 0, 0, 0}
	row2 := []byte{0x04, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	out := []byte{0x2d, 0, 0, 0, 0x2d, 0, 0, 0, 0}
	for _, r := range [][]byte{row1, row2} {
		out = binary.BigEndian.AppendUint32(out, uint32(len(r)))
		out = append(out, r...)
	}
	return out
}()
