package compactrow

import "unsafe"

// The loads of the hot loops, each one explicit check against len(b) and
// one load. b[p:] would cost a masked pointer besides (the compiler guards
// against a pointer past the end of an empty slice) and b[p:p+4] a check
// against cap(b), one more value for the loops to keep in a register.
// Every caller has checked p against the row's length already; the checks
// here only keep a bug from reading outside b.

// load32 is the little-endian int32 at b[p:], as an int.
func load32(b []byte, p int) int {
	if uint(p) > uint(len(b)) || len(b)-p < 4 {
		panic(errLoad)
	}
	return int(*(*int32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), p)))
}

// load64 is the little-endian uint64 at b[p:].
func load64(b []byte, p int) uint64 {
	if uint(p) > uint(len(b)) || len(b)-p < 8 {
		panic(errLoad)
	}
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), p))
}

var errLoad = "compactrow: load outside its row"

// move copies src into dst[:len(src)] in 16-byte moves, the last one
// overlapping the one before, and copies shorter values with copy. It is
// small enough to inline, so a loop copying values of 16 bytes or more
// makes no call per value: a memmove call costs more than the copy of a
// short value, and makes the loop keep its values on the stack.
func move(dst, src []byte) {
	n := len(src)
	sp, dp := unsafe.Pointer(unsafe.SliceData(src)), unsafe.Pointer(unsafe.SliceData(dst[:n]))
	if n >= 16 { // both are n bytes long: every move is within them
		for k := 0; k < n-16; k += 16 {
			*(*[16]byte)(unsafe.Add(dp, k)) = *(*[16]byte)(unsafe.Add(sp, k))
		}
		*(*[16]byte)(unsafe.Add(dp, n-16)) = *(*[16]byte)(unsafe.Add(sp, n-16))
	} else if n > 0 {
		copy(dst, src)
	}
}
