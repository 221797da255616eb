package sparkshuffle_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/sparkshuffle"
)

func FuzzIndex(f *testing.F) {
	f.Add(be(0))
	f.Add(be(0, 10, 10, 25))
	f.Add(be(0, 9, 4))
	f.Add(be(1, 2))
	f.Add(be(0, -1))
	f.Add(be(0, 5)[:12])
	f.Fuzz(func(t *testing.T, b []byte) {
		offsets, err := sparkshuffle.ParseIndex(b)
		if err != nil {
			if !errors.Is(err, sparkshuffle.ErrIndex) {
				t.Fatalf("error without ErrIndex: %v", err)
			}
			return
		}
		if len(offsets)*8 != len(b) || offsets[0] != 0 {
			t.Fatalf("%d offsets from %d bytes, first %d", len(offsets), len(b), offsets[0])
		}
		lengths := make([]int64, len(offsets)-1)
		for i := range lengths {
			lengths[i] = offsets[i+1] - offsets[i]
			if lengths[i] < 0 {
				t.Fatalf("partition %d has length %d", i, lengths[i])
			}
		}
		if got := sparkshuffle.AppendIndex(nil, lengths); string(got) != string(b) {
			t.Fatalf("AppendIndex does not give the index back")
		}
	})
}

func FuzzChecksum(f *testing.F) {
	f.Add(be(1, 0xcbf43926), 2)
	f.Add(be(1), 2)
	f.Add([]byte{}, 0)
	f.Add(be(-1, 0, 7), 3)
	f.Fuzz(func(t *testing.T, b []byte, partitions int) {
		sums, err := sparkshuffle.ParseChecksums(b, partitions)
		if err != nil {
			if !errors.Is(err, sparkshuffle.ErrChecksumFile) {
				t.Fatalf("error without ErrChecksumFile: %v", err)
			}
			return
		}
		if len(sums) != partitions || string(sparkshuffle.AppendChecksums(nil, sums)) != string(b) {
			t.Fatalf("%d sums for %d partitions do not give the file back", len(sums), partitions)
		}
	})
}

// FuzzSegment reads arbitrary bytes as the only segment of a map output,
// sequentially and in parallel: rows or an error naming the segment,
// never a panic, and no memory left behind.
func FuzzSegment(f *testing.F) {
	mem := memory.NewGoAllocator()
	seg, _ := shuffletest.Spills(f, mem, framing.None, 0, 1, 3, 2)
	f.Add(seg)
	f.Add(seg[:len(seg)-5])
	f.Add(append(append([]byte{}, seg[:len(seg)/2]...), 0xFF, 0xFF, 0xFF, 0xFF))
	for _, c := range []framing.Codec{framing.LZ4, framing.Snappy, framing.Zstd, framing.LZF} {
		seg, _ := shuffletest.Spills(f, mem, c, 0, 1, 2, 1)
		f.Add(seg)
	}
	f.Add([]byte{0, 0, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0})
	f.Add([]byte{0x7F, 0xFF, 0xFF, 0xFF})
	dir := f.TempDir() // one map output, rewritten by every run
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		write := func(name string, b []byte) {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write(sparkshuffle.DataName(0, 1), data)
		write(sparkshuffle.IndexName(0, 1), sparkshuffle.AppendIndex(nil, []int64{int64(len(data))}))
		set, err := sparkshuffle.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2} {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			r, err := set.NewReader(0, shuffletest.Schema, sparkshuffle.WithWorkers(workers), sparkshuffle.WithBatchRows(2), sparkshuffle.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			for r.Next() {
				if err := array.ValidateRecordFull(r.RecordBatch()); err != nil {
					t.Fatalf("invalid batch: %v", err)
				}
			}
			if err := r.Err(); err != nil {
				var se *sparkshuffle.SegmentError
				if !errors.As(err, &se) || se.Map != 1 || se.Partition != 0 {
					t.Fatalf("error not naming the segment: %v", err)
				}
			}
			r.Release()
			mem.AssertSize(t, 0)
		}
	})
}
