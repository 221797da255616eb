package crossformat

import (
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// inputSource is a rand.Source64 that returns the fuzzer's bytes, eight at
// a time, then continues with a generator seeded from them, so that the
// fuzzer steers the first values and long batches still vary.
type inputSource struct {
	data []byte
	rest rand.Source64
}

func newInputSource(data []byte, seed int64) *inputSource {
	for _, b := range data {
		seed = seed*31 + int64(b)
	}
	return &inputSource{data: data, rest: rand.NewSource(seed).(rand.Source64)}
}

func (s *inputSource) Uint64() uint64 {
	if len(s.data) == 0 {
		return s.rest.Uint64()
	}
	var b [8]byte
	n := copy(b[:], s.data)
	s.data = s.data[n:]
	return binary.LittleEndian.Uint64(b[:])
}

func (s *inputSource) Int63() int64 { return int64(s.Uint64() >> 1) }
func (s *inputSource) Seed(int64)   { panic("inputSource cannot be reseeded") }

// fuzzNulls are the null probabilities FuzzFormats picks from.
var fuzzNulls = []float64{0.2, 0, 0.5, 1}

// FuzzFormats derives a schema and rows from its input and runs them
// through every format (see checkFormats). Input: byte 0 picks the
// nesting depth (bits 0-1), the most top-level fields (bits 2-4, plus 1),
// the null probability (bits 5-6) and NaN (bit 7); bytes 1-8 seed the
// schema; byte 9 is the row count (mod 17); the rest drives the values.
func FuzzFormats(f *testing.F) {
	f.Add([]byte{0x0f, 1, 0, 0, 0, 0, 0, 0, 0, 5})
	f.Add([]byte{0x8f, 2, 0, 0, 0, 0, 0, 0, 0, 9, 0xff, 0x00, 0x7f})
	f.Add([]byte{0x3c, 42, 0, 0, 0, 0, 0, 0, 0, 16})
	f.Add([]byte{0x43, 7, 1, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{0x7e, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 12})
	f.Add([]byte{0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		var head [10]byte
		copy(head[:], data)
		data = data[min(len(data), len(head)):]
		mode := head[0]
		opts := []testgen.SchemaOption{testgen.WithMaxDepth(int(mode & 3)), testgen.WithMaxFields(1 + int(mode>>2&7))}
		seed := int64(binary.LittleEndian.Uint64(head[1:9]))
		schema := testgen.RandomSchema(rand.New(rand.NewSource(seed)), opts...)
		batchOpts := []testgen.BatchOption{testgen.WithNullProbability(fuzzNulls[mode>>5&3])}
		if mode&0x80 != 0 {
			batchOpts = append(batchOpts, testgen.WithNaN())
		}

		checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer checked.AssertSize(t, 0)
		mem := testgen.DirtyAllocator(checked)
		rec := testgen.RandomBatch(mem, rand.New(newInputSource(data, seed)), schema, int(head[9]%17), batchOpts...)
		defer rec.Release()
		checkFormats(t, mem, rec)
	})
}
