package sparkshuffle

import (
	"fmt"
	"runtime"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// ChecksumPolicy says what a Reader does with checksum files.
type ChecksumPolicy uint8

const (
	// Verify checks every segment of a map output that has a checksum
	// file before decoding it; a mismatch stops the Reader with a
	// *ChecksumError, and none of that segment's rows are returned.
	Verify ChecksumPolicy = iota
	// Ignore reads segments without looking at checksum files.
	Ignore
)

func (p ChecksumPolicy) String() string {
	switch p {
	case Verify:
		return "verify"
	case Ignore:
		return "ignore"
	}
	return fmt.Sprintf("ChecksumPolicy(%d)", p)
}

// ParseChecksumPolicy reads "verify" or "ignore" (the CLI's spelling).
func ParseChecksumPolicy(s string) (ChecksumPolicy, error) {
	switch s {
	case "verify", "":
		return Verify, nil
	case "ignore":
		return Ignore, nil
	}
	return 0, fmt.Errorf("sparkshuffle: unknown checksum policy %q (want verify or ignore): %w", s, arrow.ErrInvalid)
}

// DefaultBatchRows is how many rows a Reader puts in one record batch.
const DefaultBatchRows = unsaferow.DefaultBatchRows

// Option configures a Reader. An option given a value it cannot take makes
// NewReader fail.
type Option func(*config) error

type config struct {
	first, last int // partitions, inclusive; last < 0: all
	mem         memory.Allocator
	batchRows   int
	codec       framing.Codec
	checksum    ChecksumPolicy
	workers     int
	progress    func(int64)
	buffers     bufferCache // the Reader's segment buffers, made by NewReader
	shared      *Buffers    // WithBuffers
}

func newConfig(opts []Option) (*config, error) {
	c := &config{first: 0, last: -1, batchRows: DefaultBatchRows, codec: framing.Auto, workers: runtime.GOMAXPROCS(0)}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// WithPartition reads reduce partition p only.
func WithPartition(p int) Option { return WithPartitions(p, p) }

// WithPartitions reads reduce partitions first to last, both included
// (default: every partition).
func WithPartitions(first, last int) Option {
	return func(c *config) error {
		if first < 0 || last < first {
			return fmt.Errorf("sparkshuffle: partitions %d-%d: want 0 <= first <= last: %w", first, last, arrow.ErrInvalid)
		}
		c.first, c.last = first, last
		return nil
	}
}

// WithAllocator sets the allocator of the batches' buffers. Without it a
// Reader recycles released buffers through an allocator of its own, as
// unsaferow.NewReader does.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) error {
		if mem == nil {
			return fmt.Errorf("sparkshuffle: nil allocator: %w", arrow.ErrInvalid)
		}
		c.mem = mem
		return nil
	}
}

// WithBatchRows sets the most rows in one batch (default DefaultBatchRows).
// A batch never spans two segments.
func WithBatchRows(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("sparkshuffle: batch rows %d, want at least 1: %w", n, arrow.ErrInvalid)
		}
		c.batchRows = n
		return nil
	}
}

// WithCodec sets the codec of the segments' streams (default
// framing.Auto, which recognises each segment's codec from its first
// bytes; the files do not record it).
func WithCodec(codec framing.Codec) Option {
	return func(c *config) error {
		c.codec = codec
		return nil
	}
}

// WithChecksum sets the checksum policy (default Verify).
func WithChecksum(p ChecksumPolicy) Option {
	return func(c *config) error {
		if p != Verify && p != Ignore {
			return fmt.Errorf("sparkshuffle: unknown checksum policy %v: %w", p, arrow.ErrInvalid)
		}
		c.checksum = p
		return nil
	}
}

// WithWorkers sets how many goroutines decompress segments and how many
// decode batches (default GOMAXPROCS). With 1 the Reader runs in the
// caller's goroutine only.
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("sparkshuffle: %d workers, want at least 1: %w", n, arrow.ErrInvalid)
		}
		c.workers = n
		return nil
	}
}

// WithProgress has fn called with the number of on-disk segment bytes
// read each time some are read for decoding (checksum verification is not
// counted). With more than one worker fn is called from the Reader's
// goroutines, possibly concurrently.
func WithProgress(fn func(bytes int64)) Option {
	return func(c *config) error {
		c.progress = fn
		return nil
	}
}
