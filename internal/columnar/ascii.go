package columnar

import "encoding/binary"

// IsASCII reports whether every byte of b is below 0x80. It ORs b into one
// word, 32 bytes a step, so a whole column's data is checked at a fraction
// of the cost of utf8.Valid: a codec or cast checks the column once and
// checks values one by one (utf8.Valid) only when this is false.
func IsASCII(b []byte) bool {
	var acc uint64
	for len(b) >= 32 {
		acc |= binary.LittleEndian.Uint64(b[0:8]) | binary.LittleEndian.Uint64(b[8:16]) |
			binary.LittleEndian.Uint64(b[16:24]) | binary.LittleEndian.Uint64(b[24:32])
		b = b[32:]
	}
	for len(b) >= 8 {
		acc |= binary.LittleEndian.Uint64(b[:8])
		b = b[8:]
	}
	for _, c := range b {
		acc |= uint64(c)
	}
	return acc&0x8080808080808080 == 0
}
