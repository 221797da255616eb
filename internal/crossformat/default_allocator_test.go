package crossformat

import (
	"fmt"
	"math/rand"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/compactrow"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/require"
)

// defaultDecoders are both codecs' Decoders made without an allocator option.
func defaultDecoders(t *testing.T, schema *arrow.Schema) []rowsCodec {
	ud, err := unsaferow.NewDecoder(schema)
	require.NoError(t, err)
	cd, err := compactrow.NewDecoder(schema)
	require.NoError(t, err)
	codecs := rowsCodecs(t, schema, memory.DefaultAllocator)
	codecs[0].decode, codecs[0].decodeRows = ud.Decode, ud.DecodeRows
	codecs[1].decode, codecs[1].decodeRows = cd.Decode, cd.DecodeRows
	return codecs
}

// bufferAddrs is the set of the first bytes of rec's buffers, children too.
func bufferAddrs(rec arrow.RecordBatch) map[unsafe.Pointer]bool {
	set := map[unsafe.Pointer]bool{}
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil && b.Len() > 0 {
				set[unsafe.Pointer(unsafe.SliceData(b.Bytes()))] = true
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
	}
	for _, col := range rec.Columns() {
		walk(col.Data())
	}
	return set
}

// A Decoder made without WithAllocator hands the buffers of a released
// batch to the next Decode (it once allocated fresh, zeroed Go memory for
// every batch), and batches the caller keeps stay right while later ones
// reuse other buffers, into memory that is not zeroed.
func TestDefaultDecoderRecyclesReleasedBatches(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range defaultDecoders(t, schema) {
		var kept []arrow.RecordBatch
		var inputs []arrow.RecordBatch
		for seed := range int64(12) {
			rec := testgen.RandomBatch(mem, rand.New(rand.NewSource(seed)), schema, 300)
			rows, err := c.encode(rec)
			require.NoError(t, err)
			first, err := c.decodeRows(rows)
			require.NoError(t, err)
			require.True(t, testgen.ValidateBatch(t, first))
			require.True(t, testgen.EqualBatches(t, rec, first), "%s seed %d", c.name, seed)
			addrs := bufferAddrs(first)
			first.Release()
			again, err := c.decode(rows.Slices())
			require.NoError(t, err)
			require.Equal(t, addrs, bufferAddrs(again), "%s: Decode after a Release did not reuse its buffers", c.name)
			require.True(t, testgen.ValidateBatch(t, again))
			require.True(t, testgen.EqualBatches(t, rec, again), "%s seed %d (recycled memory)", c.name, seed)
			if seed%3 == 0 {
				kept, inputs = append(kept, again), append(inputs, rec)
				continue
			}
			again.Release()
			rec.Release()
		}
		for i, k := range kept {
			require.True(t, testgen.EqualBatches(t, inputs[i], k), "%s: kept batch %d changed after later decodes", c.name, i)
			k.Release()
			inputs[i].Release()
		}
	}
}

// Goroutines sharing one Decoder made without WithAllocator (and so its
// recycling allocator) each get right batches while the others release
// theirs into it. Run under -race.
func TestDefaultDecoderConcurrent(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "m", Type: arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.BinaryTypes.String), Nullable: true},
	}, nil)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := testgen.RandomBatch(mem, rand.New(rand.NewSource(5)), schema, 200)
	defer rec.Release()
	for _, c := range defaultDecoders(t, schema) {
		rows, err := c.encode(rec)
		require.NoError(t, err)
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				for range 25 {
					got, err := c.decodeRows(rows)
					if err != nil {
						errs <- err
						return
					}
					ok := testgen.EqualBatches(t, rec, got)
					got.Release()
					if !ok {
						errs <- fmt.Errorf("%s: a concurrent Decode returned a wrong batch", c.name)
						return
					}
				}
				errs <- nil
			}()
		}
		for range 4 {
			require.NoError(t, <-errs)
		}
	}
}
