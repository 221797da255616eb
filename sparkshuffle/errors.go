package sparkshuffle

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/errkind"
)

// Sentinel causes, tested with errors.Is through the error types below.
// Each is an arrow.ErrInvalid, as arrow-go's errors for bad data or a bad
// argument are.
var (
	// ErrIndex: an index file that is not (n+1) big-endian offsets, the
	// first 0, non-decreasing.
	ErrIndex = errkind.New("invalid index file", arrow.ErrInvalid)
	// ErrChecksumFile: a checksum file that is not one int64 per partition.
	ErrChecksumFile = errkind.New("invalid checksum file", arrow.ErrInvalid)
	// ErrDataSize: a data file whose size is not the index's last offset
	// (or that is missing while the index says it holds bytes).
	ErrDataSize = errkind.New("data file size does not match the index", arrow.ErrInvalid)
	// ErrPartitions: maps of one shuffle disagree on the partition count.
	ErrPartitions = errkind.New("partition counts disagree", arrow.ErrInvalid)
	// ErrDuplicate: the same shuffle file was found twice, in distinct files.
	ErrDuplicate = errkind.New("duplicate shuffle file", arrow.ErrInvalid)
	// ErrOrphan: a data or checksum file without its index.
	ErrOrphan = errkind.New("shuffle file without its index", arrow.ErrInvalid)
	// ErrChecksum: a segment's bytes do not have the checksum recorded for it.
	ErrChecksum = errkind.New("checksum mismatch", arrow.ErrInvalid)
	// ErrNoShuffle: the set holds no shuffle of the requested id.
	ErrNoShuffle = errkind.New("no such shuffle", arrow.ErrInvalid)
	// ErrExists: a MapOutputWriter's directory already holds a file of the
	// map output it writes (and WithOverwrite was not given).
	ErrExists = errkind.New("map output already exists (overwrite to replace it)", arrow.ErrInvalid)
	// ErrAborted: a MapOutputWriter was used after Abort or after an error
	// that aborted it.
	ErrAborted = errkind.New("map output writer aborted", arrow.ErrInvalid)
)

// Causes of a FileError or a MapOutputWriter's error for a path or a call
// that cannot be used.
var (
	errNotDir       = errkind.New("not a directory", arrow.ErrInvalid)
	errIsDir        = errkind.New("is a directory; cannot overwrite it", arrow.ErrInvalid)
	errWriterClosed = errkind.New("sparkshuffle: map output writer already closed", arrow.ErrInvalid)
)

// FileError is a problem with one file of a set: its path and the cause,
// a sentinel above (an arrow.ErrInvalid: the file is not what Spark
// writes) or the error of the operating system, which keeps its own cause
// (an *fs.PathError, fs.ErrNotExist, ...) and is no arrow.ErrInvalid: a file
// that could not be read says nothing of its bytes.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }

func (e *FileError) Unwrap() error { return e.Err }

// ChecksumError reports a segment whose on-disk bytes do not match the
// checksum file. It is an ErrChecksum, so an arrow.ErrInvalid.
type ChecksumError struct {
	Shuffle   int
	Map       int64
	Partition int
	Path      string // the data file ("" for an empty segment of a map without one)
	Checksum  string // the checksum file
	Algorithm Algorithm
	Want, Got int64
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("%s: shuffle %d, map %d, partition %d: %v: %s of the segment is %#x, %s records %#x",
		e.Path, e.Shuffle, e.Map, e.Partition, ErrChecksum, e.Algorithm, e.Got, e.Checksum, e.Want)
}

func (e *ChecksumError) Unwrap() error { return ErrChecksum }

// SegmentError reports a segment (one map's bytes for one partition) that
// could not be read or decoded: the data file, the shuffle, map and
// partition, the segment's byte range in the file, where in the segment
// the problem is, and the cause (a *rowbridge.DecodeError for a bad row, a
// *framing.Error for bad framing, a codec or I/O error). A bad segment is
// an arrow.ErrInvalid through its cause; an I/O error keeps its own cause
// and is none.
type SegmentError struct {
	Path       string
	Shuffle    int
	Map        int64
	Partition  int
	Start, End int64 // the segment's bytes in the data file
	// Codec is the segment's codec, framing.Auto when the error came
	// before it was known.
	Codec framing.Codec
	// FileOffset is the data-file byte at fault when known (any byte of an
	// uncompressed segment; the block, chunk or frame a codec rejected), else -1.
	FileOffset int64
	// StreamOffset is the byte at fault in the segment's decompressed
	// stream of records, or -1.
	StreamOffset int64
	// Row is the 0-based index within the segment of the row at fault, or
	// -1. A *rowbridge.DecodeError cause carries the same row number.
	Row int64
	Err error
}

func (e *SegmentError) Error() string {
	codec := ""
	if e.Codec != framing.Auto {
		codec = e.Codec.String() + ", "
	}
	msg := fmt.Sprintf("%s: shuffle %d, map %d, partition %d (%sbytes %d-%d)", e.Path, e.Shuffle, e.Map, e.Partition, codec, e.Start, e.End)
	if e.FileOffset >= 0 {
		msg += fmt.Sprintf(", file byte %d", e.FileOffset)
	}
	if e.StreamOffset >= 0 && (e.FileOffset < 0 || e.Codec != framing.None) {
		msg += fmt.Sprintf(", decompressed byte %d", e.StreamOffset)
	}
	var de *rowbridge.DecodeError
	if e.Row >= 0 && !errors.As(e.Err, &de) { // a DecodeError names its row itself
		msg += fmt.Sprintf(", segment row %d", e.Row)
	}
	return msg + ": " + e.Err.Error()
}

func (e *SegmentError) Unwrap() error { return e.Err }
