package sparkshuffle

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/framing"
)

// WriterOption configures a MapOutputWriter. An option given a value it
// cannot take makes NewMapOutputWriter fail.
type WriterOption func(*writerConfig) error

type writerConfig struct {
	codec       framing.Codec
	streamOpts  []framing.StreamOption
	algorithm   Algorithm
	spillRows   int64 // 0: one codec stream per partition
	force       bool
	sync        bool
	writeMemory int64 // partitions' bytes held in memory before temporary files
}

func newWriterConfig(opts []WriterOption) (*writerConfig, error) {
	c := &writerConfig{codec: framing.LZ4, algorithm: Adler32, writeMemory: DefaultWriteMemory}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	// Build one stream to check the codec and its options now, not at the
	// first row.
	s, err := framing.NewStreamWriter(io.Discard, c.codec, c.streamOpts...)
	if err != nil {
		return nil, fmt.Errorf("sparkshuffle: %w", err)
	}
	if err := s.Close(); err != nil {
		return nil, fmt.Errorf("sparkshuffle: %w", err)
	}
	return c, nil
}

// WithWriteCodec sets the codec of each partition's stream, as
// spark.io.compression.codec does: framing.LZ4 (the default), Snappy,
// Zstd, LZF, or None (spark.shuffle.compress=false). Auto is refused.
func WithWriteCodec(c framing.Codec) WriterOption {
	return func(o *writerConfig) error {
		switch c {
		case framing.None, framing.LZ4, framing.Snappy, framing.Zstd, framing.LZF:
			o.codec = c
			return nil
		}
		return fmt.Errorf("sparkshuffle: cannot write codec %v (want lz4, snappy, zstd, lzf or none): %w", c, arrow.ErrInvalid)
	}
}

// WithStreamOptions passes options to the codec streams
// (framing.WithBlockSize as spark.io.compression.lz4.blockSize and
// .snappy.blockSize, framing.WithZstdLevel as .zstd.level).
func WithStreamOptions(opts ...framing.StreamOption) WriterOption {
	return func(o *writerConfig) error {
		o.streamOpts = append(o.streamOpts, opts...)
		return nil
	}
}

// WithWriteChecksum sets the algorithm of the checksum file, as
// spark.shuffle.checksum.algorithm does (default Adler32); NoChecksum
// writes none (spark.shuffle.checksum.enabled=false).
func WithWriteChecksum(a Algorithm) WriterOption {
	return func(o *writerConfig) error {
		if a > CRC32C {
			return fmt.Errorf("sparkshuffle: unknown checksum algorithm %v: %w", a, arrow.ErrInvalid)
		}
		o.algorithm = a
		return nil
	}
}

// WithSpillRows starts a new codec stream every n rows within a
// partition, so a segment is several complete streams back to back, as
// Spark's fast spill merge leaves them (default 0: one stream per
// partition, as Spark's bypass-merge writer writes it). The checksum runs
// on over the whole segment, as Spark's does across spills.
func WithSpillRows(n int64) WriterOption {
	return func(o *writerConfig) error {
		if n < 0 {
			return fmt.Errorf("sparkshuffle: spill rows %d, want 0 (no spills) or more: %w", n, arrow.ErrInvalid)
		}
		o.spillRows = n
		return nil
	}
}

// WithOverwrite replaces a map output of the same shuffle and map id
// already in the directory (default: NewMapOutputWriter and Close refuse
// it with ErrExists). The old files are replaced on Close only: each is
// renamed aside (its name + ".old-<uuid>"), the new files renamed in (the
// index last), then the old ones removed; a failure on the way puts the
// old files back, byte for byte.
func WithOverwrite(force bool) WriterOption {
	return func(o *writerConfig) error {
		o.force = force
		return nil
	}
}

// WithSync makes Close fsync the data, checksum and index files before
// renaming them into place, and the directory after, so a committed map
// output survives a crash of the machine. The default is not to sync, as
// Spark does not: spark.shuffle.sync ("whether to force outstanding
// writes to disk") defaults to false, and a lost map output is
// recomputed by its stage.
func WithSync(sync bool) WriterOption {
	return func(o *writerConfig) error {
		o.sync = sync
		return nil
	}
}

// DefaultWriteMemory is how many bytes of compressed partitions a
// MapOutputWriter holds in memory unless WithWriteMemory says otherwise.
const DefaultWriteMemory = 64 << 20

// WithWriteMemory sets how many bytes of the partitions' compressed
// segments the writer may hold in memory, all partitions together
// (default DefaultWriteMemory). A map output that fits is assembled in
// memory and written once, into the data file; a partition whose bytes
// would take the writer past n moves them to a temporary file and goes on
// there. 0 puts every partition in a temporary file from its first byte.
func WithWriteMemory(n int64) WriterOption {
	return func(o *writerConfig) error {
		if n < 0 {
			return fmt.Errorf("sparkshuffle: write memory %d, want 0 (temporary files only) or more: %w", n, arrow.ErrInvalid)
		}
		o.writeMemory = n
		return nil
	}
}
