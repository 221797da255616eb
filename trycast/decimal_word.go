package trycast

import (
	"encoding/binary"
	mathbits "math/bits"
)

// Decimal text is most often written with exactly the column's scale
// ("-12345678.90" for decimal(18,2)): its point is then at a fixed place
// from the row's end, so the 16 bytes ending at the row's last byte can be
// read as two words with the point squeezed out by masks fixed for the
// column, and checked and converted 8 digits at a time (digitWord's
// steps) instead of a byte loop. Any other row goes to plainNumber.

// scaledWord reads the last k bytes of w (len(w) == 16, 1 <= k <= 16) as
// [-]digits.digits with exactly scale (0 < scale < 15) digits after the
// point and at least one before it: the digits' value and the count of
// digits before the point, ok false when the row has another form. fails
// reports a row of that shape holding, where a digit should be, a byte
// that no dialect reads or trims in a decimal (decimalEnd, like the 'x'
// of "1234.5x"), so that invalid rows cost no more than valid ones.
func scaledWord(w []byte, k, scale int) (mag uint64, intDigits int, neg, ok, fails bool) {
	dotAt := 15 - scale
	first := 16 - k // the row's first byte in w
	n := 1          // the point
	if w[first] == '-' {
		neg, n = true, 2
	}
	digits := k - n
	if w[dotAt] != '.' || digits <= scale || uint(16-digits) > 16 {
		return 0, 0, false, false, false
	}
	w0, w1 := binary.LittleEndian.Uint64(w[:8]), binary.LittleEndian.Uint64(w[8:])
	below, upTo := bytesBelow[dotAt], bytesBelow[dotAt+1]
	l0, l1 := w0&below[0], w1&below[1]
	w0, w1 = w0&^upTo[0]|l0<<8, w1&^upTo[1]|l1<<8|l0>>56 // the bytes before the point move up one
	pad := bytesBelow[16-digits]                         // and '0' fills the bytes below the digits
	w0 = w0&^pad[0] | 0x3030303030303030&pad[0]
	w1 = w1&^pad[1] | 0x3030303030303030&pad[1]
	if m0, m1 := notDigits(w0), notDigits(w1); m0|m1 != 0 {
		// The lowest byte that is not a digit is exact (see digitWord).
		x, m := w0, m0
		if m0 == 0 {
			x, m = w1, m1
		}
		return 0, 0, false, false, decimalEnd(byte(x >> (uint(mathbits.TrailingZeros64(m)) &^ 7)))
	}
	return wordValue(w0)*100_000_000 + wordValue(w1), digits - scale, neg, true, false
}

// notDigits is nonzero when a byte of x is not an ASCII digit (see
// digitWord: the lowest such byte sets its top bit).
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
