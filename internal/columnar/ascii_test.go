package columnar

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestIsASCII puts one byte of 0x80 or above at every position of inputs
// of every length up to 80, so each of the 32-byte, 8-byte and tail steps
// sees it, and checks that all-ASCII inputs of those lengths pass.
func TestIsASCII(t *testing.T) {
	assert.True(t, IsASCII(nil))
	for n := 1; n <= 80; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + i%26)
		}
		b[n-1] = 0x7f
		assert.True(t, IsASCII(b), "len %d", n)
		for i := range b {
			for _, c := range []byte{0x80, 0xc3, 0xff} {
				old := b[i]
				b[i] = c
				assert.False(t, IsASCII(b), "len %d, byte %#x at %d", n, c, i)
				b[i] = old
			}
		}
	}
}
