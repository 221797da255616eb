package testgen

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/compactrow"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// codec is one row format's encoder and decoder constructors.
type codec struct {
	name   string
	encode func(schema *arrow.Schema, mem memory.Allocator, truncate bool) (rowEncoder, error)
	decode func(schema *arrow.Schema, mem memory.Allocator) (func([][]byte) (arrow.RecordBatch, error), error)
}

type rowEncoder interface {
	Encode(arrow.RecordBatch) (rowbridge.Rows, error)
	RowSchema() *arrow.Schema
}

func codecs() []codec {
	var out []codec
	for _, fl := range []unsaferow.Flavor{unsaferow.Spark, unsaferow.Velox} {
		out = append(out, codec{"unsaferow-" + fl.String(),
			func(s *arrow.Schema, mem memory.Allocator, truncate bool) (rowEncoder, error) {
				opts := []unsaferow.Option{unsaferow.WithFlavor(fl), unsaferow.WithAllocator(mem)}
				if truncate {
					opts = append(opts, unsaferow.WithTruncate())
				}
				return unsaferow.NewEncoder(s, opts...)
			},
			func(s *arrow.Schema, mem memory.Allocator) (func([][]byte) (arrow.RecordBatch, error), error) {
				d, err := unsaferow.NewDecoder(s, unsaferow.WithAllocator(mem))
				if err != nil {
					return nil, err
				}
				return d.Decode, nil
			}})
	}
	out = append(out, codec{"compactrow",
		func(s *arrow.Schema, mem memory.Allocator, truncate bool) (rowEncoder, error) {
			opts := []compactrow.Option{compactrow.WithAllocator(mem)}
			if truncate {
				opts = append(opts, compactrow.WithTruncate())
			}
			return compactrow.NewEncoder(s, opts...)
		},
		func(s *arrow.Schema, mem memory.Allocator) (func([][]byte) (arrow.RecordBatch, error), error) {
			d, err := compactrow.NewDecoder(s, compactrow.WithAllocator(mem))
			if err != nil {
				return nil, err
			}
			return d.Decode, nil
		}})
	return out
}

// viaIPC writes rec as an arrow-go IPC stream and reads it back, as the
// CLI's input would arrive.
func viaIPC(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	r, err := ipc.NewReader(&buf, ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer r.Release()
	require.True(t, r.Next(), "%v", r.Err())
	out := r.RecordBatch()
	out.Retain()
	return out
}

// checkEncodes encodes in with c and checks that the rows are exactly
// those of want (the converted values, encoded directly) and decode to want.
func checkEncodes(t *testing.T, c codec, mem memory.Allocator, in, want arrow.RecordBatch, truncate bool) {
	t.Helper()
	enc, err := c.encode(in.Schema(), mem, truncate)
	require.NoError(t, err)
	require.True(t, enc.RowSchema().Equal(want.Schema()), "row schema\n%s\nwant\n%s", enc.RowSchema(), want.Schema())
	got, err := enc.Encode(in)
	require.NoError(t, err)
	direct, err := c.encode(want.Schema(), mem, false)
	require.NoError(t, err)
	wantRows, err := direct.Encode(want)
	require.NoError(t, err)
	require.Equal(t, wantRows.Offsets, got.Offsets)
	for i := range wantRows.Len() {
		require.Equal(t, wantRows.Row(i), got.Row(i), "row %d", i)
	}
	decode, err := c.decode(enc.RowSchema(), mem)
	require.NoError(t, err)
	dec, err := decode(got.Slices())
	require.NoError(t, err)
	defer dec.Release()
	ValidateBatch(t, dec)
	EqualBatches(t, want, dec)
}

func TestProducerTypesEncodeToTheirConvertedRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	in, want := ProducerBatch(mem)
	defer in.Release()
	defer want.Release()
	ValidateBatch(t, in)
	ValidateBatch(t, want)
	// Every type of the list is there, at the top level.
	ids := map[arrow.Type]bool{}
	for _, f := range in.Schema().Fields() {
		ids[f.Type.ID()] = true
	}
	for _, id := range []arrow.Type{arrow.TIMESTAMP, arrow.DATE64, arrow.LARGE_STRING, arrow.LARGE_BINARY, arrow.STRING_VIEW,
		arrow.BINARY_VIEW, arrow.FIXED_SIZE_BINARY, arrow.DICTIONARY, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT16, arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL256, arrow.LARGE_LIST, arrow.LIST_VIEW,
		arrow.LARGE_LIST_VIEW, arrow.FIXED_SIZE_LIST, arrow.MAP, arrow.STRUCT} {
		assert.True(t, ids[id], "no %s column", id)
	}
	ipcIn := viaIPC(t, mem, in)
	defer ipcIn.Release()
	for _, c := range codecs() {
		t.Run(c.name, func(t *testing.T) {
			checkEncodes(t, c, mem, in, want, false)
			t.Run("ipc", func(t *testing.T) { checkEncodes(t, c, mem, ipcIn, want, false) })
			t.Run("slice", func(t *testing.T) {
				s, ws := in.NewSlice(1, 4), want.NewSlice(1, 4)
				defer s.Release()
				defer ws.Release()
				checkEncodes(t, c, mem, s, ws, false)
			})
			t.Run("column by column", func(t *testing.T) {
				// Each column alone: a conversion bug in one column
				// cannot hide behind another's.
				for i := range int(in.NumCols()) {
					s := arrow.NewSchema([]arrow.Field{in.Schema().Field(i)}, nil)
					ws := arrow.NewSchema([]arrow.Field{want.Schema().Field(i)}, nil)
					one := arrowRecord(s, in.Column(i))
					wone := arrowRecord(ws, want.Column(i))
					checkEncodes(t, c, mem, one, wone, false)
					one.Release()
					wone.Release()
				}
			})
		})
	}
}

func TestProducerLossyValuesFailNamingTheRow(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, lc := range ProducerLossy(mem) {
		t.Run(lc.Name, func(t *testing.T) {
			for _, c := range codecs() {
				enc, err := c.encode(lc.Batch.Schema(), mem, false)
				require.NoError(t, err)
				_, err = enc.Encode(lc.Batch)
				var ee *rowbridge.EncodeError
				require.True(t, errors.As(err, &ee), "%s: %v", c.name, err)
				assert.Equal(t, lc.Row, ee.Row, "%s: %v", c.name, err)
				assert.Equal(t, lc.Field, ee.Field, "%s: %v", c.name, err)
				assert.ErrorIs(t, err, rowbridge.ErrValue)

				if lc.Truncated == nil {
					tenc, err := c.encode(lc.Batch.Schema(), mem, true)
					require.NoError(t, err)
					_, err = tenc.Encode(lc.Batch)
					require.ErrorAs(t, err, &ee, "%s: truncation does not bring a value into range", c.name)
					assert.Equal(t, lc.Row, ee.Row)
					continue
				}
				checkEncodes(t, c, mem, lc.Batch, lc.Truncated, true)
			}
		})
		lc.Release()
	}
}

func TestProducerUnsupportedTypesNameTheField(t *testing.T) {
	for _, dt := range UnsupportedTypes() {
		schema := arrow.NewSchema([]arrow.Field{
			{Name: "ok", Type: arrow.PrimitiveTypes.Int32},
			{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "bad", Type: dt, Nullable: true}), Nullable: true}}, nil)
		for _, c := range codecs() {
			_, err := c.encode(schema, memory.DefaultAllocator, false)
			require.ErrorIs(t, err, rowbridge.ErrUnsupportedType, "%s %s", c.name, dt)
			assert.ErrorContains(t, err, "field s.bad")
			assert.ErrorContains(t, err, dt.String())
		}
	}
}

func arrowRecord(s *arrow.Schema, col arrow.Array) arrow.RecordBatch {
	return array.NewRecordBatch(s, []arrow.Array{col}, int64(col.Len()))
}
