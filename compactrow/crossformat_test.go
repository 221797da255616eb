package compactrow

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/require"
)

// Random Arrow data (NaN included) -> UnsafeRow in either flavour -> Arrow
// -> CompactRow -> Arrow is exact, and both codecs' decoders produce valid
// batches.
func TestCrossFormat(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for seed := range int64(150) {
		r := rand.New(rand.NewSource(1000 + seed))
		schema := testgen.RandomSchema(r)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			skipBrokenDecimals(t, schema)
			rec := testgen.RandomBatch(mem, r, schema, r.Intn(30), testgen.WithNaN())
			defer rec.Release()

			flavor := unsaferow.Spark
			if seed%2 == 1 {
				flavor = unsaferow.Velox
			}
			uenc, err := unsaferow.NewEncoder(schema, unsaferow.WithAllocator(mem), unsaferow.WithFlavor(flavor))
			require.NoError(t, err)
			udec, err := unsaferow.NewDecoder(schema, unsaferow.WithAllocator(mem))
			require.NoError(t, err)
			urows, err := uenc.Encode(rec)
			require.NoError(t, err)
			viaUnsafe, err := udec.Decode(urows.Slices())
			require.NoError(t, err)
			defer viaUnsafe.Release()
			require.True(t, testgen.ValidateBatch(t, viaUnsafe))

			cenc, err := NewEncoder(schema, WithAllocator(mem))
			require.NoError(t, err)
			cdec, err := NewDecoder(schema, WithAllocator(mem))
			require.NoError(t, err)
			crows, err := cenc.Encode(viaUnsafe)
			require.NoError(t, err)
			viaCompact, err := cdec.Decode(crows.Slices())
			require.NoError(t, err)
			defer viaCompact.Release()
			require.True(t, testgen.ValidateBatch(t, viaCompact))
			require.True(t, testgen.EqualBatches(t, rec, viaCompact), "schema %s", schema)

			// CompactRow bytes do not depend on which path the data took,
			// except that Spark's flavour writes every NaN as the canonical
			// one, while Velox's (and CompactRow) keep a NaN's bits.
			direct, err := cenc.Encode(rec)
			require.NoError(t, err)
			require.Equal(t, direct.Offsets, crows.Offsets)
			if flavor == unsaferow.Velox {
				require.True(t, bytes.Equal(direct.Data, crows.Data), "CompactRow bytes differ by path")
			}
		})
		if t.Failed() {
			return
		}
	}
}
