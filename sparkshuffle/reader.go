package sparkshuffle

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/rowbridge/rowbridge/arrowvec"
	"github.com/rowbridge/rowbridge/internal/rowstream"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// Reader reads the rows of a shuffle's selected partitions as record
// batches: partitions in ascending order, within a partition the maps by
// ascending map id, within a segment the rows as stored. It satisfies
// array.RecordReader. Memory stays bounded by a few batches per worker,
// whatever the size of the shuffle. Release it (or read it to the end) to
// stop its goroutines.
//
//   - Next reads the next batch, releasing the previous one; it returns
//     false at the end or on an error.
//   - RecordBatch is the batch read by the last Next, valid until the next
//     call to Next or Release (Retain it to keep it longer); Record is the
//     same, deprecated.
//   - Err is the error that stopped Next (see NewReader), nil at a clean
//     end.
//   - Schema is the schema of every batch.
//   - Retain adds a reference; Release drops one, and the last frees the
//     current batch, stops the Reader's goroutines and frees the batches
//     they had decoded ahead.
type Reader struct{ *rowstream.Reader }

var _ array.RecordReader = (*Reader)(nil)

// NewReader returns a Reader of the rows of shuffle shuffleID, which are
// UnsafeRows of schema (the files do not record it), framed by Spark's
// UnsafeRowSerializer and compressed with the application's codec.
//
// Errors met while reading are one line each: a *SegmentError (naming
// the data file, shuffle, map, partition, and the byte and row at fault)
// wrapping a *rowbridge.DecodeError, a *framing.Error or a codec or I/O
// error; or a *ChecksumError. The rows of the segments before the one at
// fault, and of the batches before it within that segment, are returned
// first.
func (s *Set) NewReader(shuffleID int, schema *arrow.Schema, opts ...Option) (*Reader, error) {
	sh, err := s.Shuffle(shuffleID)
	if err != nil {
		return nil, err
	}
	return sh.NewReader(schema, opts...)
}

// NewReader is Set.NewReader for this shuffle.
func (s *Shuffle) NewReader(schema *arrow.Schema, opts ...Option) (*Reader, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	segs := segmentIter{s: s, p: cfg.first, last: cfg.last, checksums: cfg.checksum == Verify}
	if cfg.last < 0 {
		segs.last = s.Partitions - 1
	}
	if segs.last >= 0 {
		if err := s.checkRange(segs.p, segs.last); err != nil {
			return nil, err
		}
	}
	if cfg.mem == nil {
		cfg.mem = arrowvec.NewRecyclingAllocator(unsaferow.ReaderIdleBytes)
	}
	cfg.buffers = newBufferCache(cfg.workers)
	if cfg.shared != nil {
		cfg.buffers = cfg.shared.segments
	}
	dec, err := unsaferow.NewDecoder(schema, unsaferow.WithAllocator(cfg.mem))
	if err != nil {
		return nil, fmt.Errorf("sparkshuffle: %w", err)
	}
	if cfg.workers == 1 {
		return &Reader{rowstream.NewSourceReader(schema, &seqSource{segs: segs, cfg: cfg, dec: dec})}, nil
	}
	return &Reader{rowstream.NewSourceReader(schema, startPipeline(segs, cfg, dec))}, nil
}

// segmentIter walks the segments of partitions p..last in read order,
// skipping those that need no work: empty, with no checksum to check.
// A shuffle may have millions of segments, most of them empty.
type segmentIter struct {
	s         *Shuffle
	p, last   int
	m         int // next map of partition p
	checksums bool
}

func (it *segmentIter) next() (Segment, bool) {
	for it.p <= it.last {
		if it.m == len(it.s.Maps) {
			it.p, it.m = it.p+1, 0
			continue
		}
		seg := it.s.Maps[it.m].Segment(it.p)
		it.m++
		if seg.Size() > 0 || (it.checksums && seg.Map.Checksums != nil) {
			return seg, true
		}
	}
	return Segment{}, false
}

// seqSource reads segment after segment in the caller's goroutine (the
// rowstream.Source of a Reader with one worker).
type seqSource struct {
	segs segmentIter
	cfg  *config
	dec  *unsaferow.Decoder
	cur  *segmentReader
}

func (s *seqSource) Next() (arrow.RecordBatch, error) {
	for {
		if s.cur == nil {
			seg, ok := s.segs.next()
			if !ok {
				return nil, io.EOF
			}
			sr, err := openSegment(seg, s.cfg)
			if err != nil {
				return nil, err
			}
			if sr == nil {
				continue
			}
			s.cur = sr
		}
		b, err := s.cur.next(s.cfg.batchRows)
		if err == io.EOF {
			s.cur.close()
			s.cur = nil
			continue
		}
		if err != nil {
			return nil, err
		}
		rec, err := s.dec.Decode(b.rows)
		if err != nil {
			return nil, s.cur.decodeError(b, err)
		}
		return rec, nil
	}
}

func (s *seqSource) Close() {
	s.cur.close()
	s.cur = nil
	s.segs.p = s.segs.last + 1
}
