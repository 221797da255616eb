package sparkshuffle

import (
	"fmt"
	"hash"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// sinkChunk is the size of the chunks a segmentSink holds in memory.
const sinkChunk = 1 << 20

// segmentSink takes the on-disk bytes of one partition's segment, counts
// and checksums them, and holds them: in memory while the writer's memory
// budget allows, else in a temporary file of the directory (unlinked at
// once where the system allows it, so nothing outlives the process). A
// sink moves its bytes from memory to its file the first time they would
// take the writer past its budget; it never goes back.
type segmentSink struct {
	hash hash.Hash32 // nil without a checksum file
	n    int64

	mem    [][]byte      // the bytes, while in memory: chunks of sinkChunk bytes, the last one filling
	f      *os.File      // the temporary file, once there is one
	path   string        // the temporary file's name while it exists, else ""
	dir    string        // where the temporary file goes
	used   *atomic.Int64 // bytes in memory over all of the writer's sinks
	budget int64         // the most bytes in memory over all sinks
}

func (s *segmentSink) Write(p []byte) (int, error) {
	if s.f == nil {
		if s.used.Add(int64(len(p))) <= s.budget {
			s.keep(p)
			s.add(p)
			return len(p), nil
		}
		s.used.Add(-int64(len(p)))
		if err := s.toFile(); err != nil {
			return 0, err
		}
	}
	n, err := s.f.Write(p)
	s.add(p[:n])
	return n, err
}

// keep appends p to the chunks in memory; a chunk once made is never
// copied again.
func (s *segmentSink) keep(p []byte) {
	for len(p) > 0 {
		if len(s.mem) == 0 || len(s.mem[len(s.mem)-1]) == sinkChunk {
			s.mem = append(s.mem, (*sinkChunks.Get().(*[]byte))[:0])
		}
		last := &s.mem[len(s.mem)-1]
		n := min(len(p), sinkChunk-len(*last))
		*last = append(*last, p[:n]...)
		p = p[n:]
	}
}

// sinkChunks holds the chunks of sinks that moved to a file or were
// written out, for other sinks to fill: memory past the budget is not
// taken while the garbage collector has yet to free them.
var sinkChunks = sync.Pool{New: func() any { b := make([]byte, 0, sinkChunk); return &b }}

// dropMemory gives the sink's chunks back to sinkChunks.
func (s *segmentSink) dropMemory() {
	if s.mem == nil {
		return
	}
	s.used.Add(-s.inMemory())
	for i := range s.mem {
		c := s.mem[i]
		sinkChunks.Put(&c)
	}
	s.mem = nil
}

// inMemory is how many bytes the sink's chunks hold.
func (s *segmentSink) inMemory() int64 {
	var n int64
	for _, c := range s.mem {
		n += int64(len(c))
	}
	return n
}

func (s *segmentSink) add(p []byte) {
	if s.hash != nil {
		s.hash.Write(p)
	}
	s.n += int64(len(p))
}

// toFile creates the sink's temporary file and moves its bytes there.
func (s *segmentSink) toFile() error {
	f, path, err := createUnique(s.dir, "temp_shuffle_", 0o600)
	if err != nil {
		return err
	}
	s.f, s.path = f, path
	// Unlinked, the file lives as long as its descriptor: a crash leaves
	// nothing behind. Where that is not allowed, Abort and Close remove
	// it by name.
	if os.Remove(path) == nil {
		s.path = ""
	}
	for _, c := range s.mem {
		if err == nil {
			_, err = f.Write(c)
		}
	}
	s.dropMemory()
	return err
}

// copyTo writes the sink's n bytes to w, from memory or from its file,
// and frees them.
func (s *segmentSink) copyTo(w io.Writer) error {
	if s.f == nil {
		var err error
		for _, c := range s.mem {
			if err == nil {
				_, err = w.Write(c)
			}
		}
		s.dropMemory()
		return err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	n, err := io.Copy(w, io.LimitReader(s.f, s.n))
	if err == nil && n != s.n {
		err = fmt.Errorf("%d of its %d bytes in its temporary file", n, s.n)
	}
	// Free the disk space as soon as it is copied.
	s.f.Close()
	s.f = nil
	return err
}

// release frees what the sink holds: its memory, its temporary file.
func (s *segmentSink) release() {
	s.dropMemory()
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	if s.path != "" {
		os.Remove(s.path)
		s.path = ""
	}
}
