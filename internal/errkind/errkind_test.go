package errkind

import (
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"
)

func TestNew(t *testing.T) {
	bad := New("invalid index file", arrow.ErrInvalid)
	require.Equal(t, "invalid index file", bad.Error())
	require.ErrorIs(t, bad, arrow.ErrInvalid)
	require.NotErrorIs(t, bad, arrow.ErrNotImplemented)
	wrapped := fmt.Errorf("%w: first offset is 8", bad)
	require.ErrorIs(t, wrapped, bad)
	require.ErrorIs(t, wrapped, arrow.ErrInvalid)
	odd := New("unsupported type", arrow.ErrNotImplemented)
	require.ErrorIs(t, odd, arrow.ErrNotImplemented)
	require.NotErrorIs(t, odd, arrow.ErrInvalid)
	require.False(t, errors.Is(bad, odd), "sentinels are distinct")
}
