package sparkshuffle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// MaxWritePartitions is the most reduce partitions a MapOutputWriter
// takes: Spark's limit for its serialized shuffle (1 << 24).
const MaxWritePartitions = 1 << 24

const (
	// encodeRows is how many rows are encoded at once, so the encoded
	// bytes held stay bounded whatever the batch size.
	encodeRows = 1 << 16
	// flushBytes is how many framed record bytes a partition collects
	// before they go through its codec stream.
	flushBytes = 64 << 10
)

// MapOutputWriter writes one Spark map output: the .data, .index and
// .checksum.<ALGORITHM> files of shuffle shuffleID, map mapID, as Spark's
// sort-based shuffle leaves them for reducers to fetch. Rows are written
// as Spark-flavour UnsafeRows (byte for byte what unsaferow's Spark
// encoder gives), framed as Spark's UnsafeRowSerializer frames them.
//
// It works as Spark's BypassMergeSortShuffleWriter does: each partition
// that receives rows gets its own codec stream and checksum, whose bytes
// are held in memory while all partitions' together fit the writer's
// memory budget (WithWriteMemory, 64 MiB by default), and go to a
// temporary file of the partition in the directory (unlinked at once
// where the system allows it, so nothing outlives the process) from the
// first write that would not fit; Close writes them in partition order
// into the data file and commits. Each partition's
// records go through its stream 64 KiB at a time on a goroutine of their
// own (at most GOMAXPROCS at once, one per partition), so partitions
// compress in parallel while rows are encoded; the bytes written are the
// same. Memory is bounded by one encoded chunk of at most 65536 rows plus,
// per partition with rows, twice 64 KiB of records (pending, and in
// flight) and its codec stream's buffers (lz4 and snappy: two blocks;
// zstd: the encoder's window), plus the budget (rounded up to a 1 MiB
// chunk per partition in memory); one file
// descriptor is open per partition in a temporary file.
//
// A MapOutputWriter is not safe for concurrent use.
type MapOutputWriter struct {
	dir     string
	shuffle int
	mapID   int64
	cfg     *writerConfig
	enc     *unsaferow.Encoder
	parts   []partitionFile
	rows    rowbridge.Rows
	flights chan struct{} // a slot per flush in flight: at most GOMAXPROCS at once
	memUsed atomic.Int64  // partitions' bytes held in memory (segmentSink)
	err     error         // sticky: the writer has aborted
	closed  bool
	output  *MapOutput
}

// partitionFile is one partition's temporary file and its open stream.
type partitionFile struct {
	sink       segmentSink
	opened     bool           // sink is set up
	stream     io.WriteCloser // nil between streams
	buf        []byte         // framed records not yet written to stream
	rows       int64
	streamRows int64

	// A flush in flight: a goroutine writes the records it took from buf
	// through stream (compressing them), then gives the buffer back in
	// spare, sets flushErr and closes inflight. Until inflight is closed
	// nothing else touches stream, sink, spare or flushErr.
	inflight chan struct{}
	spare    []byte
	flushErr error
}

// NewMapOutputWriter returns a writer of the map output shuffleID/mapID
// of numPartitions reduce partitions, whose rows have the given schema,
// into the existing directory dir. It fails, creating nothing, for a
// schema UnsafeRow cannot hold (rowbridge.ErrUnsupportedType), ids or a
// partition count out of range, bad options, or (without WithOverwrite)
// a map output of the same ids already in dir (a *FileError wrapping
// ErrExists).
func NewMapOutputWriter(dir string, shuffleID int, mapID int64, numPartitions int, schema *arrow.Schema, opts ...WriterOption) (*MapOutputWriter, error) {
	if shuffleID < 0 || int64(shuffleID) > 1<<31-1 {
		return nil, fmt.Errorf("sparkshuffle: shuffle id %d, want 0 to %d: %w", shuffleID, 1<<31-1, arrow.ErrInvalid)
	}
	if mapID < 0 {
		return nil, fmt.Errorf("sparkshuffle: map id %d, want 0 or more: %w", mapID, arrow.ErrInvalid)
	}
	if numPartitions < 1 || numPartitions > MaxWritePartitions {
		return nil, fmt.Errorf("sparkshuffle: %d partitions, want 1 to %d: %w", numPartitions, MaxWritePartitions, arrow.ErrInvalid)
	}
	cfg, err := newWriterConfig(opts)
	if err != nil {
		return nil, err
	}
	enc, err := unsaferow.NewEncoder(schema)
	if err != nil {
		return nil, fmt.Errorf("sparkshuffle: %w", err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("sparkshuffle: %w", err)
	}
	if !st.IsDir() {
		return nil, &FileError{Path: dir, Err: errNotDir}
	}
	w := &MapOutputWriter{dir: dir, shuffle: shuffleID, mapID: mapID, cfg: cfg, enc: enc,
		parts: make([]partitionFile, numPartitions), flights: make(chan struct{}, runtime.GOMAXPROCS(0))}
	if err := w.checkExisting(); err != nil {
		return nil, err
	}
	return w, nil
}

// Write writes the rows of batch, row i to reduce partition partitions[i]
// (what a partitioner gives), after the rows written to that partition
// before. The batch must have the writer's schema (up to field names and
// nullability); len(partitions) must be its row count, each value 0 to
// numPartitions-1. Any error aborts the writer: its temporary files are
// removed and nothing of the map output is written.
func (w *MapOutputWriter) Write(batch arrow.RecordBatch, partitions []int32) error {
	if err := w.usable(); err != nil {
		return err
	}
	if err := w.write(batch, partitions); err != nil {
		return w.fail(err)
	}
	return nil
}

func (w *MapOutputWriter) write(batch arrow.RecordBatch, partitions []int32) error {
	n := int(batch.NumRows())
	if len(partitions) != n {
		return fmt.Errorf("sparkshuffle: %d partition numbers for a batch of %d rows: %w", len(partitions), n, arrow.ErrInvalid)
	}
	for i, p := range partitions {
		if p < 0 || int(p) >= len(w.parts) {
			return fmt.Errorf("sparkshuffle: row %d goes to partition %d, want 0 to %d: %w", i, p, len(w.parts)-1, arrow.ErrInvalid)
		}
	}
	for lo := 0; lo < n; lo += encodeRows {
		hi := min(n, lo+encodeRows)
		chunk := batch
		if lo > 0 || hi < n {
			chunk = batch.NewSlice(int64(lo), int64(hi))
		}
		var err error
		w.rows.Reset()
		w.rows, err = w.enc.AppendRows(w.rows, chunk)
		if chunk != batch {
			chunk.Release()
		}
		if err != nil {
			var ee *rowbridge.EncodeError
			if errors.As(err, &ee) {
				return fmt.Errorf("sparkshuffle: batch row %d: %w", lo+ee.Row, err)
			}
			return fmt.Errorf("sparkshuffle: %w", err)
		}
		if err := w.distribute(partitions[lo:hi]); err != nil {
			return err
		}
	}
	return nil
}

// distribute appends each encoded row of w.rows, framed, to its
// partition's pending records.
func (w *MapOutputWriter) distribute(partitions []int32) error {
	data, offs := w.rows.Data, w.rows.Offsets
	spill := w.cfg.spillRows
	for i, p := range partitions {
		part := &w.parts[p]
		if part.stream == nil {
			if err := w.openStream(part); err != nil {
				return err
			}
		}
		row := data[offs[i]:offs[i+1]]
		part.buf = binary.BigEndian.AppendUint32(part.buf, uint32(len(row)))
		part.buf = append(part.buf, row...)
		part.rows++
		part.streamRows++
		switch {
		case spill > 0 && part.streamRows == spill:
			if err := w.endStream(part); err != nil {
				return err
			}
		case len(part.buf) >= flushBytes:
			if err := w.flushAsync(part); err != nil {
				return err
			}
		}
	}
	return nil
}

// openStream starts a codec stream for part, creating its file first.
func (w *MapOutputWriter) openStream(part *partitionFile) error {
	if !part.opened {
		part.opened = true
		part.sink = segmentSink{dir: w.dir, used: &w.memUsed, budget: w.cfg.writeMemory}
		if w.cfg.algorithm != NoChecksum {
			part.sink.hash = w.cfg.algorithm.New()
		}
		if w.cfg.writeMemory == 0 {
			if err := part.sink.toFile(); err != nil {
				return tempWriteError(err)
			}
		}
	}
	s, err := framing.NewStreamWriter(&part.sink, w.cfg.codec, w.cfg.streamOpts...)
	if err != nil {
		return fmt.Errorf("sparkshuffle: %w", err)
	}
	part.stream, part.streamRows = s, 0
	return nil
}

// flushAsync hands part's pending records to a goroutine that writes
// them to its stream, so that partitions compress on every core while
// rows are encoded. A partition has at most one flush in flight (its
// stream takes the records in order); it collects the next ones in the
// buffer the flush before gave back.
func (w *MapOutputWriter) flushAsync(part *partitionFile) error {
	if err := w.wait(part); err != nil {
		return err
	}
	b, stream, done := part.buf, part.stream, make(chan struct{})
	part.buf, part.spare, part.inflight = part.spare[:0], nil, done
	w.flights <- struct{}{}
	go func() {
		_, err := stream.Write(b)
		part.spare, part.flushErr = b[:0], err
		<-w.flights
		close(done)
	}()
	return nil
}

// wait waits for part's flush in flight, if any, and returns its error.
func (w *MapOutputWriter) wait(part *partitionFile) error {
	if part.inflight == nil {
		return nil
	}
	<-part.inflight
	part.inflight = nil
	err := part.flushErr
	part.flushErr = nil
	return tempWriteError(err)
}

// tempWriteError places a failure to write a partition's temporary file
// (nil for nil).
func tempWriteError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("sparkshuffle: writing a partition's temporary file: %w", err)
}

// flush writes part's pending records to its stream, after any in flight.
func (w *MapOutputWriter) flush(part *partitionFile) error {
	if err := w.wait(part); err != nil {
		return err
	}
	if len(part.buf) == 0 {
		return nil
	}
	_, err := part.stream.Write(part.buf)
	part.buf = part.buf[:0]
	return tempWriteError(err)
}

// endStream flushes and ends part's stream, if one is open.
func (w *MapOutputWriter) endStream(part *partitionFile) error {
	if part.stream == nil {
		return nil
	}
	if err := w.flush(part); err != nil {
		return err
	}
	err := part.stream.Close()
	part.stream = nil
	return tempWriteError(err)
}

// Close ends every partition's stream and commits the map output: the
// data file (none when every partition is empty, as Spark writes it),
// the checksum file and, last, the index, each written under a temporary
// name and renamed into place (synced with WithSync). On an error nothing
// of the map output is left (the temporaries are removed); an older map
// output being replaced (WithOverwrite) is set aside until the new one is
// in place and put back on an error, so it is never lost.
func (w *MapOutputWriter) Close() error {
	if err := w.usable(); err != nil {
		return err
	}
	lengths := make([]int64, len(w.parts))
	sums := make([]int64, len(w.parts))
	for i := range w.parts {
		part := &w.parts[i]
		if err := w.endStream(part); err != nil {
			return w.fail(err)
		}
		lengths[i] = part.sink.n
		if part.sink.hash != nil {
			sums[i] = int64(part.sink.hash.Sum32())
		} else if w.cfg.algorithm != NoChecksum {
			sums[i] = w.cfg.algorithm.Empty()
		}
	}
	out, err := w.commit(lengths, sums)
	if err != nil {
		return w.fail(err)
	}
	w.closeParts()
	w.closed, w.output = true, out
	return nil
}

// Abort removes the writer's temporary files; nothing of the map output
// is written. It is safe to call more than once and after an error; after
// a successful Close it does nothing.
func (w *MapOutputWriter) Abort() {
	if w.closed {
		return
	}
	w.closeParts()
	if w.err == nil {
		w.err = ErrAborted
	}
}

// Output is the committed map output (paths, offsets, checksums), nil
// before a successful Close.
func (w *MapOutputWriter) Output() *MapOutput { return w.output }

// PartitionRows is how many rows were written to each partition so far.
func (w *MapOutputWriter) PartitionRows() []int64 {
	rows := make([]int64, len(w.parts))
	for i := range w.parts {
		rows[i] = w.parts[i].rows
	}
	return rows
}

func (w *MapOutputWriter) usable() error {
	switch {
	case w.err != nil:
		return w.err
	case w.closed:
		return errWriterClosed
	}
	return nil
}

// fail aborts the writer for err and returns it.
func (w *MapOutputWriter) fail(err error) error {
	w.closeParts()
	w.err = err
	return err
}

// closeParts closes and removes the partitions' temporary files.
func (w *MapOutputWriter) closeParts() {
	for i := range w.parts {
		part := &w.parts[i]
		w.wait(part) // the writer is failing or done: the error is moot
		if part.stream != nil {
			part.stream.Close() // frees the codec's resources; the bytes are discarded
		}
		part.sink.release()
		part.stream, part.buf, part.spare = nil, nil, nil
	}
}
