package compactrow

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/stretchr/testify/require"
)

// A fill pass that marks a value bad when the precise pass finds no bad
// value is a decoder bug: Decode returns an internal error and no batch,
// and releases what it built.
func TestDecodeInconsistentValueCheckIsInternalError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dec, err := NewDecoder(schemaE1, WithAllocator(mem))
	require.NoError(t, err)
	rows := [][]byte{unhex(t, "00 01000000 03000000 616263 0200000000000000")}

	testHookFilled = func(f *filler) { f.bad = true }
	defer func() { testHookFilled = nil }()
	rec, err := dec.Decode(rows)
	require.Nil(t, rec)
	require.ErrorIs(t, err, rowbridge.ErrInternal)
	var de *rowbridge.DecodeError
	require.False(t, errors.As(err, &de), "not a fault of the input: %v", err)

	testHookFilled = nil
	rec, err = dec.Decode(rows)
	require.NoError(t, err)
	validateBatch(t, rec)
	rec.Release()
}
