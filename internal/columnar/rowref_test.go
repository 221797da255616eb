package columnar

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// RefsOf locates each row of data at its offsets and stops at the first
// one that is not a range of data starting where the last one ended.
func TestRefsOfLocatesRowsAndStopsAtTheFirstBadOne(t *testing.T) {
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}
	refs := make([]RowRef, 4)
	require.Equal(t, -1, RefsOf(refs, data, []int{1, 3, 3, 9}))
	require.Equal(t, []byte{2, 3}, refs[0].Bytes())
	require.Empty(t, refs[1].Bytes())
	require.Equal(t, data[3:], refs[2].Bytes())
	require.Equal(t, 6, refs[2].Len())
	require.Equal(t, uint16(0x0605), LoadFixed[uint16](refs[2], 1)) // bytes 5 and 6

	for _, c := range []struct {
		offs []int
		bad  int
	}{
		{[]int{0, 4, 2}, 1}, {[]int{-1, 4}, 0}, {[]int{0, 4, 10}, 1}, {[]int{0, -4}, 0},
		{[]int{10}, 0}, {[]int{-1}, 0}, {[]int{9}, -1}, {nil, -1},
	} {
		require.Equal(t, c.bad, RefsOf(refs, data, c.offs), "%v", c.offs)
	}

	// An empty row at the very end points inside data, not past it.
	require.Equal(t, -1, RefsOf(refs, data, []int{4, 9, 9}))
	require.Empty(t, refs[1].Bytes())
	p := uintptr(unsafe.Pointer(unsafe.SliceData(refs[1].Bytes())))
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	require.True(t, p >= base && p < base+uintptr(len(data)), "empty row at %#x, data at %#x", p, base)
}

// RowRefs views the rows in place: a RowRef is its row.
func TestRowRefsAliasTheRows(t *testing.T) {
	rows := [][]byte{{1, 0, 0, 0, 0, 0, 0, 0}, {}, {2, 3}}
	refs := RowRefs(rows)
	require.Len(t, refs, 3)
	require.Equal(t, uint64(1), LoadFixed[uint64](refs[0], 0))
	require.Equal(t, 0, refs[1].Len())
	rows[2][1] = 9
	require.Equal(t, []byte{2, 9}, refs[2].Bytes())
	require.Equal(t, RefOf(rows[2]).Bytes(), refs[2].Bytes())
	require.Nil(t, RowRefs(nil))
}
