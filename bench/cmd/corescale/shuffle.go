package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// The shuffle kinds are the per-segment work of `rowbridge shuffle decode`
// without what a process adds around it: every segment of the DIRs' shuffles
// is read into memory first (untimed), then g goroutines take segments in
// turn, in no order, and decompress each (lz4) or decompress and decode it
// into 4096-row Arrow batches, released unread (lz4 + decode). No file is
// read, no checksum verified, no output written and no order kept, so the
// speed-up is what the machine gives this work itself. A third kind reads
// each segment from its data file first (pread into the goroutine's
// buffer, as the Reader does) and then decodes it: what the file reads add.

// shuffleWork holds the segments' bytes, where they lie in their files,
// and the rows' schema.
type shuffleWork struct {
	segs   [][]byte
	files  []sparkshuffle.Segment
	schema *arrow.Schema
	rows   int64 // rows decoded by the last run, to check it did the work
}

// The kinds of shuffle work.
type shuffleKind int

const (
	lz4Only    shuffleKind = iota // decompress
	decodeMem                     // decompress and decode
	readDecode                    // read from the file, decompress and decode
)

func loadShuffle(schema string, dirs []string) (*shuffleWork, error) {
	sc, err := ddl.Parse(schema)
	if err != nil {
		return nil, err
	}
	set, err := sparkshuffle.Open(dirs...)
	if err != nil {
		return nil, err
	}
	w := &shuffleWork{schema: sc}
	for _, sh := range set.Shuffles() {
		if sh.Partitions == 0 {
			continue
		}
		segs, err := sh.Segments(0, sh.Partitions-1)
		if err != nil {
			return nil, err
		}
		for _, s := range segs {
			if s.Size() == 0 {
				continue
			}
			b, err := readSegment(s, nil)
			if err != nil {
				return nil, err
			}
			w.segs = append(w.segs, b)
			w.files = append(w.files, s)
		}
	}
	if len(w.segs) == 0 {
		return nil, fmt.Errorf("no segments in %v", dirs)
	}
	return w, nil
}

// run does kind's work on every segment on g goroutines and returns the
// wall time.
func (w *shuffleWork) run(g int, kind shuffleKind) (time.Duration, error) {
	var next atomic.Int64
	var rows atomic.Int64
	errs := make([]error, g)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range g {
		wg.Go(func() { errs[i] = w.worker(&next, &rows, kind) })
	}
	wg.Wait()
	d := time.Since(start)
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	w.rows = rows.Load()
	return d, nil
}

func (w *shuffleWork) worker(next, rows *atomic.Int64, kind shuffleKind) error {
	buf := make([]byte, 64<<10)
	var read []byte // readDecode's copy of the segment
	for {
		i := int(next.Add(1)) - 1
		if i >= len(w.segs) {
			return nil
		}
		src := w.segs[i]
		if kind == readDecode {
			var err error
			if read, err = readSegment(w.files[i], read); err != nil {
				return err
			}
			src = read
		}
		r, err := framing.NewStreamReader(bytes.NewReader(src), framing.LZ4)
		if err != nil {
			return err
		}
		if kind == lz4Only {
			// Read into one 64 KiB buffer, as the framing reader's would be
			// (io.Copy to io.Discard would read in 8 KiB pieces).
			for {
				_, err := r.Read(buf)
				if err == io.EOF {
					break
				}
				if err != nil {
					return err
				}
			}
			continue
		}
		rd, err := unsaferow.NewReader(r, w.schema, unsaferow.WithBatchRows(4096))
		if err != nil {
			return err
		}
		for rd.Next() {
			rows.Add(rd.RecordBatch().NumRows())
		}
		err = rd.Err()
		rd.Release()
		if err != nil {
			return err
		}
	}
}

// readSegment reads segment s from its data file into buf (grown when it
// is too small) and returns the bytes.
func readSegment(s sparkshuffle.Segment, buf []byte) ([]byte, error) {
	if int64(cap(buf)) < s.Size() {
		buf = make([]byte, s.Size())
	}
	buf = buf[:s.Size()]
	f, err := os.Open(s.Map.DataPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.ReadAt(buf, s.Offset()); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Map.DataPath, err)
	}
	return buf, nil
}
