package sparkshuffle

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Buffers are reading buffers that Readers share, one after another or
// at once: the buffers of the segments (a segment's bytes, read whole when
// its checksum is verified, up to 4 MiB; its decompressed stream; the
// framing reader's batch buffers) and the buffers of the batches of rows
// waiting to be decoded. A Reader makes its own otherwise, which a program
// that makes a Reader per request (a server of partitions) pays for on
// every request: fresh memory that the kernel faults in and zeroes, and
// buffers grown anew by appending. It is safe for concurrent use.
type Buffers struct {
	segments bufferCache
	rows     chan *rowBuffers
}

// NewBuffers returns Buffers that keep at most n segments' buffers idle
// (each up to about 4.2 MiB: a Reader holds one per worker while it
// reads), and the batch buffers those would use.
func NewBuffers(n int) (*Buffers, error) {
	if n < 1 {
		return nil, fmt.Errorf("sparkshuffle: buffers for %d segments, want at least 1: %w", n, arrow.ErrInvalid)
	}
	return &Buffers{segments: newBufferCache(n), rows: make(chan *rowBuffers, 6*n)}, nil
}

// WithBuffers has the Reader take its buffers from b and give them back
// there, instead of making its own.
func WithBuffers(b *Buffers) Option {
	return func(c *config) error {
		if b == nil {
			return fmt.Errorf("sparkshuffle: nil Buffers: %w", arrow.ErrInvalid)
		}
		c.shared = b
		return nil
	}
}
