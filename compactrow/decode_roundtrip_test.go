package compactrow

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/require"
)

// roundTrip encodes rec, decodes the rows, and checks the batch is valid
// and equal to rec, and that re-encoding it gives the same bytes. It
// returns the rows.
func roundTrip(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch) rowbridge.Rows {
	t.Helper()
	enc, err := NewEncoder(rec.Schema(), WithAllocator(mem))
	require.NoError(t, err)
	dec, err := NewDecoder(rec.Schema(), WithAllocator(mem))
	require.NoError(t, err)

	rows, err := enc.Encode(rec)
	require.NoError(t, err)
	require.Equal(t, int(rec.NumRows()), rows.Len())
	got, err := dec.Decode(rows.Slices())
	require.NoError(t, err)
	defer got.Release()
	require.True(t, testgen.ValidateBatch(t, got))
	require.True(t, testgen.EqualBatches(t, rec, got), "schema %s", rec.Schema())

	again, err := enc.Encode(got)
	require.NoError(t, err)
	require.Equal(t, rows.Offsets, again.Offsets)
	require.True(t, bytes.Equal(rows.Data, again.Data), "re-encoding the decoded batch changed the bytes")
	return rows
}

func TestRoundTripRandomSchemas(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer checked.AssertSize(t, 0)
	// Buffers come dirty, as from a recycling allocator: every byte the
	// encoder and decoder expose must be written.
	mem := testgen.DirtyAllocator(checked)
	for seed := range int64(450) {
		r := rand.New(rand.NewSource(seed))
		schema := testgen.RandomSchema(r)
		rec := testgen.RandomBatch(mem, r, schema, r.Intn(40), testgen.WithNaN())
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			skipBrokenDecimals(t, schema)
			rows := roundTrip(t, mem, rec)
			checkSlices(t, mem, rec, rows, r)
		})
		rec.Release()
		if t.Failed() {
			return
		}
	}
}

// checkSlices encodes slices of rec: each must give exactly the bytes of
// the same rows of the whole batch.
func checkSlices(t *testing.T, mem memory.Allocator, rec arrow.RecordBatch, rows rowbridge.Rows, r *rand.Rand) {
	t.Helper()
	n := int(rec.NumRows())
	if n == 0 {
		return
	}
	enc, err := NewEncoder(rec.Schema(), WithAllocator(mem))
	require.NoError(t, err)
	for range 3 {
		a := r.Intn(n)
		b := a + r.Intn(n-a+1)
		sl := rec.NewSlice(int64(a), int64(b))
		got, err := enc.Encode(sl)
		sl.Release()
		require.NoError(t, err)
		require.Equal(t, b-a, got.Len())
		for i := range b - a {
			require.Equal(t, rows.Row(a+i), got.Row(i), "slice [%d,%d) row %d", a, b, i)
		}
	}
}

func TestRoundTripShapes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for i, s := range testgen.Shapes() {
		t.Run(s.Name, func(t *testing.T) {
			skipBrokenDecimals(t, s.Schema)
			for seed := range int64(5) {
				r := rand.New(rand.NewSource(seed*100 + int64(i)))
				rec := testgen.RandomBatch(mem, r, s.Schema, 1+r.Intn(60), s.BatchOptions...)
				rows := roundTrip(t, mem, rec)
				checkSlices(t, mem, rec, rows, r)
				rec.Release()
			}
		})
	}
}

// Nulls at every level: every nullable value null, and none null.
func TestRoundTripNullExtremes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for seed := range int64(60) {
		r := rand.New(rand.NewSource(seed))
		schema := testgen.RandomSchema(r)
		if decimalsBroken(schema) {
			continue // arrowGoDecimals32
		}
		for _, p := range []float64{0, 0.5, 1} {
			rec := testgen.RandomBatch(mem, r, schema, 1+r.Intn(20), testgen.WithNullProbability(p))
			roundTrip(t, mem, rec)
			rec.Release()
		}
	}
}

// Every prefix of random rows either fails with a DecodeError or decodes
// into a valid batch; none panics.
func TestDecodeRandomPrefixes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for seed := range int64(80) {
		r := rand.New(rand.NewSource(seed))
		schema := testgen.RandomSchema(r)
		if decimalsBroken(schema) {
			continue // arrowGoDecimals32
		}
		rec := testgen.RandomBatch(mem, r, schema, 4)
		enc, err := NewEncoder(schema)
		require.NoError(t, err)
		rows, err := enc.Encode(rec)
		rec.Release()
		require.NoError(t, err)
		dec, err := NewDecoder(schema, WithAllocator(mem))
		require.NoError(t, err)
		for i := range rows.Len() {
			row := rows.Row(i)
			for n := range len(row) {
				got, err := dec.Decode([][]byte{row[:n:n]})
				if err != nil {
					var de *rowbridge.DecodeError
					require.True(t, errors.As(err, &de), "seed %d row %d prefix %d: %v", seed, i, n, err)
					require.Zero(t, de.Row)
					continue
				}
				require.True(t, testgen.ValidateBatch(t, got))
				got.Release()
			}
		}
	}
}

// One Decoder and one Encoder shared by goroutines (run with -race), which
// also share one sliced batch (offset > 0, so its arrays' null counts start
// unknown; reading them must not store them into the shared arrays). Each
// result must equal the serial encoding of an identical slice and decode to
// it.
func TestConcurrentUse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewSource(7))
	for _, sh := range testgen.Shapes() {
		if sh.Name != "velox12841" && sh.Name != "allPrimitives" && sh.Name != "deepNesting" {
			continue
		}
		t.Run(sh.Name, func(t *testing.T) {
			full := testgen.RandomBatch(mem, r, sh.Schema, 40, sh.BatchOptions...)
			defer full.Release()
			enc, err := NewEncoder(sh.Schema, WithAllocator(mem))
			require.NoError(t, err)
			dec, err := NewDecoder(sh.Schema, WithAllocator(mem))
			require.NoError(t, err)
			want := full.NewSlice(7, 33)
			defer want.Release()
			wantRows, err := enc.Encode(want)
			require.NoError(t, err)
			require.True(t, array.RecordEqual(want, want)) // settles want's null counts before the goroutines read them
			shared := full.NewSlice(7, 33)                 // fresh arrays: null counts unknown
			defer shared.Release()
			var wg sync.WaitGroup
			errs := make([]error, 4)
			for i := range errs {
				wg.Go(func() {
					for range 10 {
						rows, err := enc.Encode(shared)
						if err != nil {
							errs[i] = err
							return
						}
						if !bytes.Equal(rows.Data, wantRows.Data) {
							errs[i] = fmt.Errorf("goroutine %d: rows differ", i)
							return
						}
						got, err := dec.Decode(rows.Slices())
						if err != nil {
							errs[i] = err
							return
						}
						ok := array.RecordEqual(want, got)
						got.Release()
						if !ok {
							errs[i] = fmt.Errorf("goroutine %d: batch differs", i)
							return
						}
					}
				})
			}
			wg.Wait()
			for _, err := range errs {
				require.NoError(t, err)
			}
		})
	}
}
