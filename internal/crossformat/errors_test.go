package crossformat

import (
	"bytes"
	"errors"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/compactrow"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/require"
)

// requireArrowKind fails unless err wraps arrow.ErrInvalid or
// arrow.ErrNotImplemented, as arrow-go's own errors do.
func requireArrowKind(t *testing.T, err error, msg string, args ...any) {
	t.Helper()
	require.Error(t, err, append([]any{msg}, args...)...)
	if !errors.Is(err, arrow.ErrInvalid) && !errors.Is(err, arrow.ErrNotImplemented) {
		t.Fatalf("%v wraps neither arrow.ErrInvalid nor arrow.ErrNotImplemented (%s)", err, msg)
	}
}

// Every error the codecs return wraps arrow.ErrInvalid or
// arrow.ErrNotImplemented: bad rows (truncated, grown, bits flipped), a
// batch of the wrong schema, a type without a row-format counterpart, a
// write after Close, a broken stream.
func TestCodecErrorsWrapArrowSentinels(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	failures := 0
	for seed := range int64(80) {
		r := rand.New(rand.NewSource(seed))
		schema := testgen.RandomSchema(r)
		rec := testgen.RandomBatch(mem, r, schema, 1+r.Intn(8))
		for _, f := range formats(t, schema, mem) {
			rows, err := f.encode(rec)
			require.NoError(t, err)
			for range 20 {
				bad := make([][]byte, rows.Len())
				for i := range bad {
					bad[i] = bytes.Clone(rows.Row(i))
				}
				row := bad[r.Intn(len(bad))]
				switch r.Intn(3) {
				case 0:
					bad[0] = row[:r.Intn(len(row)+1)]
				case 1:
					bad[0] = append(row, make([]byte, 1+r.Intn(16))...)
				default:
					for range 1 + r.Intn(4) {
						if len(row) > 0 {
							row[r.Intn(len(row))] ^= byte(1 << r.Intn(8))
						}
					}
				}
				got, err := f.decode(bad)
				if err == nil {
					got.Release()
					continue
				}
				failures++
				requireArrowKind(t, err, "%s decode, seed %d", f.name, seed)
			}
		}
		rec.Release()
	}
	require.Greater(t, failures, 500, "too few of the damaged rows failed to decode for the test to mean anything")

	one := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)
	other := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.BinaryTypes.String}}, nil)
	odd := arrow.NewSchema([]arrow.Field{{Name: "t", Type: arrow.FixedWidthTypes.Time32s}}, nil)
	rec := testgen.RandomBatch(mem, rand.New(rand.NewSource(1)), other, 3)
	defer rec.Release()
	for _, f := range formats(t, one, mem) {
		_, err := f.encode(rec)
		requireArrowKind(t, err, "%s encode of a batch of another schema", f.name)
	}
	_, err := unsaferow.NewEncoder(odd)
	require.ErrorIs(t, err, arrow.ErrNotImplemented)
	_, err = compactrow.NewDecoder(odd)
	require.ErrorIs(t, err, arrow.ErrNotImplemented)
	_, err = unsaferow.ParseFlavor("presto")
	requireArrowKind(t, err, "ParseFlavor")

	var buf bytes.Buffer
	uw, err := unsaferow.NewWriter(&buf, one)
	require.NoError(t, err)
	require.NoError(t, uw.Close())
	requireArrowKind(t, uw.Write(rec), "unsaferow write after Close")
	cw, err := compactrow.NewWriter(&buf, one)
	require.NoError(t, err)
	requireArrowKind(t, cw.Write(rec), "compactrow write of another schema")

	// A Spark-framed stream whose record says 12 bytes but holds 4.
	stream := []byte{0, 0, 0, 12, 1, 2, 3, 4}
	rd, err := unsaferow.NewReader(bytes.NewReader(stream), one, unsaferow.WithFraming(framing.Spark))
	require.NoError(t, err)
	defer rd.Release()
	require.False(t, rd.Next())
	requireArrowKind(t, rd.Err(), "a truncated stream")
}
