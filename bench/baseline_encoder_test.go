package bench

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/require"
)

// The baseline is only a fair reference if it writes what the columnar
// encoder writes: byte for byte, in both flavours, on the benchmark shapes
// and on random nested batches with nulls at every level.
func TestRowAtATimeEncoderMatches(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	type input struct {
		name string
		rec  arrow.RecordBatch
	}
	var inputs []input
	for _, bc := range testgen.BenchCases() {
		inputs = append(inputs, input{bc.Name, testgen.BenchBatch(mem, bc.Name, 200, 1)})
	}
	r := rand.New(rand.NewSource(7))
	for i := range 60 {
		schema := testgen.RandomSchema(r, testgen.ExcludeTypes(arrow.NULL))
		if _, err := NewRowAtATimeEncoder(schema, false); err != nil {
			continue // a type the baseline does not take
		}
		inputs = append(inputs, input{fmt.Sprintf("random%d %s", i, schema), testgen.RandomBatch(mem, r, schema, 50, testgen.WithNullProbability(0.2))})
	}
	defer func() {
		for _, in := range inputs {
			in.rec.Release()
		}
	}()
	require.Greater(t, len(inputs), len(testgen.BenchCases())+20, "enough random schemas the baseline takes")
	for _, in := range inputs {
		for _, fl := range []unsaferow.Flavor{unsaferow.Spark, unsaferow.Velox} {
			enc, err := unsaferow.NewEncoder(in.rec.Schema(), unsaferow.WithFlavor(fl))
			require.NoError(t, err)
			want, err := enc.Encode(in.rec)
			require.NoError(t, err, in.name)
			base, err := NewRowAtATimeEncoder(in.rec.Schema(), fl == unsaferow.Velox)
			require.NoError(t, err)
			got, err := base.AppendRows(rowbridge.Rows{}, in.rec)
			require.NoError(t, err)
			require.Equal(t, want.Len(), got.Len(), "%s %s", in.name, fl)
			for i := range want.Len() {
				require.Equal(t, want.Row(i), got.Row(i), "%s %s row %d", in.name, fl, i)
			}
		}
	}
}
