// Package streamtest is the stream Reader and Writer test suite that
// unsaferow and compactrow share: the same behaviour over every framing and
// codec, run through each format's own constructors and golden bytes. Only
// tests import it.
package streamtest

import (
	"bytes"
	"encoding/binary"
	"errors"
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
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// Writer is a format's stream Writer.
type Writer interface {
	Write(rec arrow.RecordBatch) error
	Close() error
}

// Format is what the suite needs of a row format's package: its stream
// constructors, the options they take, and its bytes for spec example E1.
type Format[O any, R array.RecordReader, W Writer] struct {
	NewReader     func(r io.Reader, schema *arrow.Schema, opts ...O) (R, error)
	NewWriter     func(w io.Writer, schema *arrow.Schema, opts ...O) (W, error)
	WithAllocator func(memory.Allocator) O
	WithFraming   func(framing.Framing) O
	WithCodec     func(framing.Codec) O
	WithBatchRows func(int) O
	WithWorkers   func(int) O
	// E1Stream is spec E1's rows (1,"abc",NULL), (2,"",NULL) of E1Schema
	// as the format's uncompressed Velox serde stream.
	E1Stream []byte
}

var allCodecs = []framing.Codec{framing.None, framing.LZ4, framing.Zstd, framing.Snappy, framing.Zlib, framing.Gzip}

// sparkCodecs are the Spark framing's codec streams.
var sparkCodecs = []framing.Codec{framing.None, framing.LZ4, framing.Zstd, framing.Snappy, framing.LZF}

// Schema covers flat, nested and variable-width columns.
var Schema = arrow.NewSchema([]arrow.Field{
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

// E1Schema is ROW(INTEGER, VARCHAR, BIGINT) of spec example E1.
var E1Schema = arrow.NewSchema([]arrow.Field{
	{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "c", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// Record builds n rows of Schema with nulls sprinkled in.
func Record(t testing.TB, mem memory.Allocator, n int) arrow.RecordBatch {
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
	rec, _, err := array.RecordFromJSON(mem, Schema, strings.NewReader(b.String()))
	require.NoError(t, err)
	return rec
}

// ReadBatches reads every batch of Schema rows, checks it, and returns
// them retained for comparison.
func (f Format[O, R, W]) ReadBatches(t *testing.T, r io.Reader, batchRows int, opts ...O) ([]arrow.RecordBatch, error) {
	t.Helper()
	rd, err := f.NewReader(r, Schema, append(opts, f.WithBatchRows(batchRows))...)
	require.NoError(t, err)
	defer rd.Release()
	var out []arrow.RecordBatch
	for rd.Next() {
		rec := rd.RecordBatch()
		require.LessOrEqual(t, rec.NumRows(), int64(batchRows))
		require.True(t, rec.Schema().Equal(Schema))
		for _, col := range rec.Columns() {
			require.NoError(t, array.ValidateFull(col))
		}
		rec.Retain()
		out = append(out, rec)
	}
	return out, rd.Err()
}

// WriteStream writes recs, one Write each, and returns the stream.
func (f Format[O, R, W]) WriteStream(t *testing.T, recs []arrow.RecordBatch, opts ...O) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := f.NewWriter(&buf, Schema, opts...)
	require.NoError(t, err)
	for _, rec := range recs {
		require.NoError(t, w.Write(rec))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// ReleaseBatches releases every batch.
func ReleaseBatches(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// RequireSameRows checks that batches hold want's rows in order, with
// zeros under their nulls (testgen.EqualBatches).
func RequireSameRows(t *testing.T, want arrow.RecordBatch, got []arrow.RecordBatch) {
	t.Helper()
	var start int64
	for i, rec := range got {
		requireSlice(t, want, start, rec, "batch %d (rows %d..) differs", i, start)
		start += rec.NumRows()
	}
	require.Equal(t, want.NumRows(), start)
}

// requireSlice checks that got holds want's rows from start on, with zeros
// under its nulls.
func requireSlice(t *testing.T, want arrow.RecordBatch, start int64, got arrow.RecordBatch, msg string, args ...any) {
	t.Helper()
	slice := want.NewSlice(start, start+got.NumRows())
	defer slice.Release()
	require.True(t, testgen.EqualBatches(t, slice, got), append([]any{msg}, args...)...)
}

// Run runs the whole suite as subtests of t.
func (f Format[O, R, W]) Run(t *testing.T) {
	t.Run("FramingsAndCodecs", f.testFramingsAndCodecs)
	t.Run("Truncated", f.testTruncated)
	t.Run("HostileHeader", f.testHostileHeader)
	t.Run("DecodeErrorNamesStreamRow", f.testDecodeErrorNamesStreamRow)
	t.Run("SpecE1", f.testSpecE1)
	t.Run("DefaultAllocator", f.testDefaultAllocator)
	t.Run("Workers", f.testWorkers)
}

// testWorkers reads one long stream in every framing with 1, 2 and 4
// decode workers: the same rows in the same batches, a decode error at
// the same stream row after the same batches, and nothing left allocated.
func (f Format[O, R, W]) testWorkers(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	all := Record(t, mem, 1000)
	defer all.Release()
	for _, fr := range []framing.Framing{framing.Spark, framing.Velox} {
		c := framing.LZ4
		opts := []O{f.WithAllocator(mem), f.WithFraming(fr), f.WithCodec(c)}
		halves := []arrow.RecordBatch{all.NewSlice(0, 500), all.NewSlice(500, 1000)}
		stream := f.WriteStream(t, halves, opts...)
		ReleaseBatches(halves)
		for _, workers := range []int{1, 2, 4} {
			got, err := f.ReadBatches(t, bytes.NewReader(stream), 37, append(opts, f.WithWorkers(workers))...)
			require.NoError(t, err)
			require.Len(t, got, 28, "%v, %d workers", fr, workers)
			RequireSameRows(t, all, got)
			ReleaseBatches(got)
		}
	}
	// A well-framed row of garbage as stream row 1000.
	stream := f.WriteStream(t, []arrow.RecordBatch{all}, f.WithAllocator(mem))
	stream = binary.BigEndian.AppendUint32(stream, 8)
	stream = append(stream, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	for _, workers := range []int{2, 4} {
		got, err := f.ReadBatches(t, bytes.NewReader(stream), 37, f.WithAllocator(mem), f.WithWorkers(workers))
		var de *rowbridge.DecodeError
		require.ErrorAs(t, err, &de)
		require.Equal(t, 1000, de.Row)
		require.Len(t, got, 27, "the batches before the one holding row 1000")
		ReleaseBatches(got)
	}
}

func (f Format[O, R, W]) testFramingsAndCodecs(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer checked.AssertSize(t, 0)
	// Buffers come dirty, as from a recycling allocator: the Writer must
	// not read and the Reader must not leave garbage.
	mem := testgen.DirtyAllocator(checked)
	all := Record(t, mem, 23)
	defer all.Release()
	// Three writes, the middle one empty (it writes no row group).
	parts := []arrow.RecordBatch{all.NewSlice(0, 10), all.NewSlice(10, 10), all.NewSlice(10, 23)}
	defer ReleaseBatches(parts)
	for _, fr := range []framing.Framing{framing.Spark, framing.Velox} {
		codecs := allCodecs
		if fr == framing.Spark {
			codecs = sparkCodecs
		}
		for _, c := range codecs {
			t.Run(fmt.Sprintf("%v/%v", fr, c), func(t *testing.T) {
				opts := []O{f.WithAllocator(mem), f.WithFraming(fr), f.WithCodec(c)}
				stream := f.WriteStream(t, parts, opts...)
				for _, batchRows := range []int{1, 4, 100} {
					got, err := f.ReadBatches(t, bytes.NewReader(stream), batchRows, opts...)
					defer ReleaseBatches(got)
					require.NoError(t, err)
					RequireSameRows(t, all, got)
				}
				got, err := f.ReadBatches(t, iotest.OneByteReader(bytes.NewReader(stream)), 7, opts...)
				defer ReleaseBatches(got)
				require.NoError(t, err)
				RequireSameRows(t, all, got)
			})
		}
	}
}

func (f Format[O, R, W]) testTruncated(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	all := Record(t, mem, 6)
	defer all.Release()
	stream := f.WriteStream(t, []arrow.RecordBatch{all}, f.WithAllocator(mem))
	got, err := f.ReadBatches(t, bytes.NewReader(stream[:len(stream)-5]), 2, f.WithAllocator(mem))
	defer ReleaseBatches(got)
	require.ErrorIs(t, err, rowbridge.ErrTruncated)
	require.Contains(t, err.Error(), "after 5 rows read")
	var fe *framing.Error
	require.ErrorAs(t, err, &fe)
	require.Equal(t, int64(5), fe.RowsRead)
	require.Len(t, got, 3, "the complete rows still arrive")
	require.Equal(t, int64(1), got[2].NumRows())
}

func (f Format[O, R, W]) testHostileHeader(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, stream := range [][]byte{
		{0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f, 1}, // 2 GiB compressed group, 1 byte present
		{0xf6, 0xff, 0xff, 0xff, 0xf6, 0xff, 0xff, 0xff, 0}, // negative sizes
		{0, 0, 0, 0x40, 0, 0, 0, 0x40, 0, 0, 0, 0, 8},       // 1 GiB group, 4 bytes present
	} {
		got, err := f.ReadBatches(t, bytes.NewReader(stream), 10, f.WithAllocator(mem), f.WithFraming(framing.Velox), f.WithCodec(framing.Zstd))
		require.Empty(t, got)
		var fe *framing.Error
		require.ErrorAs(t, err, &fe)
		require.Zero(t, fe.RowsRead)
	}
}

func (f Format[O, R, W]) testDecodeErrorNamesStreamRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	all := Record(t, mem, 9)
	defer all.Release()
	stream := f.WriteStream(t, []arrow.RecordBatch{all}, f.WithAllocator(mem))
	// Append a well-framed row of garbage as stream row 9.
	stream = binary.BigEndian.AppendUint32(stream, 8)
	stream = append(stream, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	got, err := f.ReadBatches(t, bytes.NewReader(stream), 4, f.WithAllocator(mem))
	defer ReleaseBatches(got)
	var de *rowbridge.DecodeError
	require.ErrorAs(t, err, &de)
	require.Equal(t, 9, de.Row, "the row index counts from the start of the stream: %v", err)
	require.True(t, strings.HasPrefix(err.Error(), "row 9"), err.Error())
	require.Len(t, got, 2)
}

func (f Format[O, R, W]) testSpecE1(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rd, err := f.NewReader(iotest.OneByteReader(bytes.NewReader(f.E1Stream)), E1Schema, f.WithAllocator(mem), f.WithFraming(framing.Velox))
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
	w, err := f.NewWriter(&buf, E1Schema, f.WithAllocator(mem), f.WithFraming(framing.Velox))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	require.Equal(t, f.E1Stream, buf.Bytes())

	require.False(t, rd.Next())
	require.NoError(t, rd.Err())
}

// A Reader without WithAllocator recycles the buffers of released batches:
// each batch is right when it comes out, and batches the caller retains
// stay right while later ones reuse other buffers.
func (f Format[O, R, W]) testDefaultAllocator(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	all := Record(t, mem, 40)
	defer all.Release()
	stream := f.WriteStream(t, []arrow.RecordBatch{all}, f.WithAllocator(mem))

	type keptBatch struct {
		rec   arrow.RecordBatch
		start int64
	}
	var kept []keptBatch
	rd, err := f.NewReader(bytes.NewReader(stream), Schema, f.WithBatchRows(3))
	require.NoError(t, err)
	var start int64
	for n := 0; rd.Next(); n++ {
		rec := rd.RecordBatch()
		requireSlice(t, all, start, rec, "batch at row %d", start)
		if n%3 == 0 {
			rec.Retain()
			kept = append(kept, keptBatch{rec, start})
		}
		start += rec.NumRows()
	}
	require.NoError(t, rd.Err())
	require.Equal(t, all.NumRows(), start)
	rd.Release()
	require.Greater(t, len(kept), 3)
	for _, k := range kept {
		requireSlice(t, all, k.start, k.rec, "kept batch at row %d changed after later reads", k.start)
		k.rec.Release()
	}
}

// AddFuzzSeeds adds the seeds of a FuzzReader target whose function is
// FuzzRead: E1 in both framings, a few near-empty streams, and rows of the
// nested Schema in the Spark framing and in Velox row groups of every codec.
func (f Format[O, R, W]) AddFuzzSeeds(fz *testing.F) {
	fz.Add(fuzzMode(false, framing.None, false), f.E1Stream)
	fz.Add(fuzzMode(true, framing.None, false), f.E1Stream)
	fz.Add(fuzzMode(false, framing.None, false), f.E1Stream[framing.HeaderSize:])
	fz.Add(fuzzMode(true, framing.None, false), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0})
	fz.Add(fuzzMode(false, framing.None, false), []byte{0, 0, 0, 8, 1, 0, 0, 0, 0, 0, 0, 0})
	rec := Record(fz, memory.DefaultAllocator, 6)
	defer rec.Release()
	var buf bytes.Buffer
	write := func(opts ...O) []byte {
		buf.Reset()
		w, err := f.NewWriter(&buf, Schema, opts...)
		if err == nil {
			err = w.Write(rec)
		}
		if err == nil {
			err = w.Close()
		}
		if err != nil {
			fz.Fatal(err)
		}
		return bytes.Clone(buf.Bytes())
	}
	fz.Add(fuzzMode(false, framing.None, true), write())
	for _, c := range allCodecs {
		fz.Add(fuzzMode(true, c, true), write(f.WithFraming(framing.Velox), f.WithCodec(c)))
	}
}

// fuzzMode packs FuzzRead's choices into one byte: bit 0 the Velox
// framing, bit 1 the nested Schema (else E1Schema), bits 2-4 the codec.
func fuzzMode(velox bool, c framing.Codec, nested bool) byte {
	m := byte(0)
	if velox {
		m |= 1
	}
	if nested {
		m |= 2
	}
	for i, k := range allCodecs {
		if k == c {
			m |= byte(i) << 2
		}
	}
	return m
}

// FuzzRead decodes data as rows of E1Schema or the nested Schema, in the
// framing and codec that mode picks (see fuzzMode): never a panic, every
// batch that comes out is valid Arrow, a failure is a *framing.Error or a
// *rowbridge.DecodeError, and no buffer is left allocated.
func (f Format[O, R, W]) FuzzRead(t *testing.T, mode byte, data []byte) {
	schema, opts := E1Schema, []O{f.WithBatchRows(3)}
	if mode&2 != 0 {
		schema = Schema
	}
	if mode&1 != 0 {
		codec := allCodecs[int(mode>>2)%len(allCodecs)]
		opts = append(opts, f.WithFraming(framing.Velox), f.WithCodec(codec))
	}
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rd, err := f.NewReader(bytes.NewReader(data), schema, append(opts, f.WithAllocator(mem))...)
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
	if err := rd.Err(); err != nil {
		var fe *framing.Error
		var de *rowbridge.DecodeError
		if !errors.As(err, &fe) && !errors.As(err, &de) {
			t.Fatalf("error %v (%T) is neither a *framing.Error nor a *rowbridge.DecodeError", err, err)
		}
	}
}
