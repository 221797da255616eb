package testgen

import (
	"runtime/debug"
	"testing"
	"unsafe"
)

// guardSink keeps the overread from being optimized away.
var guardSink byte

// TestGuardedOverreadFaults checks the copies are exact and that reading
// one byte past a copy faults where guard pages are available.
func TestGuardedOverreadFaults(t *testing.T) {
	g, err := NewGuarded(2, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	a := g.Put(0, []byte("hello"))
	b := g.Put(1, []byte{})
	if string(a) != "hello" || cap(a) != 5 || len(b) != 0 || cap(b) != 0 {
		t.Fatalf("copies %q (cap %d), %q (cap %d)", a, cap(a), b, cap(b))
	}
	if !g.Faults {
		t.Skip("no guard pages on this platform")
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	faulted := func() (f bool) {
		defer func() { f = recover() != nil }()
		p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(a)), len(a))
		guardSink = *(*byte)(p)
		return false
	}()
	if !faulted {
		t.Fatal("reading the byte after a guarded copy did not fault")
	}
}
