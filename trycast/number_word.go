package trycast

import mathbits "math/bits"

// A plain number of at most 16 bytes ([-]digits[.digits], the common form
// of float and decimal text) is read from the 16 bytes ending at its last
// byte, held as two little-endian words w0 (bytes 0..7) and w1 (bytes
// 8..15), so that its last digit is always byte 15: the point, if any, is
// squeezed out by moving the bytes below it up one byte, the bytes below
// the digits (a sign, and the ends of earlier rows) become '0's, and the
// 16 digits are then checked and converted 8 at a time (notDigits,
// wordValue) with no loop and no branch on the row's sign or length. The
// settle loops look for the point first where an earlier row had it, a
// branch that is predictable in a column written with one number of
// fraction digits, and search the window only when it is not there.

// windowMasks are word masks over the 16-byte window, by byte index i
// (0 <= i < 16): from[i] keeps bytes i..15, and zeros[i] puts a '0' in
// each byte below i (from[i]'s complement). Tables, because a computed
// 128-bit shift costs the settle loops more than these loads.
type windowMasks struct{ from0, from1, zeros0, zeros1 uint64 }

var windowFrom = func() (t [16]windowMasks) {
	for i := range t {
		b := bytesBelow[i]
		t[i] = windowMasks{^b[0], ^b[1], 0x3030303030303030 & b[0], 0x3030303030303030 & b[1]}
	}
	return t
}()

// squeezeMasks move the bytes below a point at byte p up one byte, over
// it: below* are the bytes 0..p-1 and keep* the bytes p+1..15. Entry 0
// moves nothing: it serves no point (p = 16 masked by 15) and a point at
// byte 0, which is then below the row's digits and becomes a '0'.
type squeezeMasks struct{ below0, below1, keep0, keep1 uint64 }

var squeezeAt = func() (t [16]squeezeMasks) {
	for p := 1; p < 16; p++ {
		b, u := bytesBelow[p], bytesBelow[p+1]
		t[p] = squeezeMasks{b[0], b[1], ^u[0], ^u[1]}
	}
	t[0] = squeezeMasks{0, 0, ^uint64(0), ^uint64(0)}
	return t
}()

// squeezePoint removes the byte at p (0 < p < 16; 0 or 16 leave the
// window as it is) by moving the bytes below it up one byte.
func squeezePoint(w0, w1 uint64, p uint) (uint64, uint64) {
	m := &squeezeAt[p&15]
	l0 := w0 & m.below0
	return w0&m.keep0 | l0<<8, w1&m.keep1 | (w1&m.below1)<<8 | l0>>56
}

// padDigits replaces the bytes of the window below its last nd bytes
// (1 <= nd <= 16; 0 leaves the window as it is) with '0's.
func padDigits(w0, w1 uint64, nd uint) (uint64, uint64) {
	m := &windowFrom[(16-nd)&15]
	return w0&m.from0 | m.zeros0, w1&m.from1 | m.zeros1
}

// windowValue is the value of a window of 16 ASCII digits.
func windowValue(w0, w1 uint64) uint64 { return wordValue(w0)*100_000_000 + wordValue(w1) }

// pointAt is the index of the lowest '.' among the window's bytes that
// row keeps (windowFrom[first], first being the row's first byte), or 16
// when there is none. Unlike notDigits, the test is exact in every byte:
// no carry crosses a byte.
func pointAt(w0, w1 uint64, row *windowMasks) uint {
	return lowestByte(isPoint(w0)&row.from0, isPoint(w1)&row.from1)
}

// lowestByte is the index of the lowest byte of the window (z0, z1)
// whose top bit is set, or 16 when there is none.
func lowestByte(z0, z1 uint64) uint {
	p, p1 := uint(mathbits.TrailingZeros64(z0)), uint(mathbits.TrailingZeros64(z1))+64
	if z0 == 0 { // a conditional move, not a branch
		p = p1
	}
	return p >> 3 // 128 >> 3 when both are 0
}

// isPoint sets the top bit of each byte of x that is '.'.
func isPoint(x uint64) uint64 {
	y := x ^ 0x2E2E2E2E2E2E2E2E
	return ^((y&0x7F7F7F7F7F7F7F7F + 0x7F7F7F7F7F7F7F7F) | y) & 0x8080808080808080
}

// firstBad is the index in the window, and the byte, of the lowest byte
// of (x0, x1) that is not a digit (m0, m1 = notDigits of each, not both
// 0): notDigits is exact in that byte.
func firstBad(x0, x1, m0, m1 uint64) (uint, byte) {
	q := lowestByte(m0, m1)
	x := x0
	if q >= 8 {
		x = x1
	}
	return q, byte(x >> (8 * (q & 7)))
}

// notDigits is nonzero when a byte of x is not an ASCII digit. The lowest
// such byte sees no carry or borrow from the bytes below it, so its top
// bit is set exactly (by x+0x46 for bytes 0x3A..0xB9, by x-0x30 for the
// rest); the bytes above it may be flagged wrongly.
func notDigits(x uint64) uint64 {
	return ((x + 0x4646464646464646) | (x - 0x3030303030303030)) & 0x8080808080808080
}

// wordValue is the value of the 8 ASCII digits of x, its first digit in
// the lowest byte (x holds only digits).
func wordValue(x uint64) uint64 {
	t := x - 0x3030303030303030
	t = t*10 + t>>8 // the low byte of each 16-bit lane: its two digits' value
	// The top half of the sum is lane0*10^6 + lane1*10^4 + lane2*10^2 + lane3.
	return ((t&0x000000FF000000FF)*(100+1000000<<32) + (t>>16&0x000000FF000000FF)*(1+10000<<32)) >> 32
}

// bytesBelow[i] masks bytes 0..i-1 of a 16-byte window held as two
// little-endian words.
var bytesBelow = func() (m [17][2]uint64) {
	for i := range m {
		for b := range i {
			m[i][b/8] |= 0xff << (8 * uint(b%8))
		}
	}
	return m
}()
