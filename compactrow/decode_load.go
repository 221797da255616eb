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
