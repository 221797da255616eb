package sparkshuffle

import (
	"encoding/binary"
	"fmt"
)

// ParseIndex reads the content of an index file: partitions+1 big-endian
// int64 offsets into the data file, the first 0, never decreasing, the
// last the data file's size. It checks what Spark checks (a size of
// (n+1)*8 bytes, at least one entry, a first offset of 0) and also rejects
// decreasing and negative offsets. The result has one entry per 8 bytes of b.
func ParseIndex(b []byte) ([]int64, error) {
	if len(b) < 8 || len(b)%8 != 0 {
		return nil, fmt.Errorf("%w: %d bytes is not (partitions+1) x 8", ErrIndex, len(b))
	}
	offsets := make([]int64, len(b)/8)
	var prev int64
	for i := range offsets {
		v := int64(binary.BigEndian.Uint64(b[8*i:]))
		switch {
		case i == 0 && v != 0:
			return nil, fmt.Errorf("%w: first offset is %d, want 0", ErrIndex, v)
		case v < prev:
			return nil, fmt.Errorf("%w: offset %d (start of partition %d, index byte %d) is %d, below the previous %d", ErrIndex, i, i, 8*i, v, prev)
		}
		offsets[i], prev = v, v
	}
	return offsets, nil
}

// AppendIndex appends the content of the index file of a map output whose
// partitions have the given segment lengths to dst: 0, then the running
// sums of lengths.
func AppendIndex(dst []byte, lengths []int64) []byte {
	var off int64
	dst = binary.BigEndian.AppendUint64(dst, 0)
	for _, n := range lengths {
		off += n
		dst = binary.BigEndian.AppendUint64(dst, uint64(off))
	}
	return dst
}
