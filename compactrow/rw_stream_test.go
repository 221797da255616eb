package compactrow

import (
	"encoding/binary"
	"testing"

	"github.com/rowbridge/rowbridge/internal/rowstream/streamtest"
)

// streamFormat runs the shared stream suite through this package's Reader
// and Writer.
var streamFormat = streamtest.Format[Option, *Reader, *Writer]{
	NewReader:     NewReader,
	NewWriter:     NewWriter,
	WithAllocator: WithAllocator,
	WithFraming:   WithFraming,
	WithCodec:     WithCodec,
	WithBatchRows: WithBatchRows,
	WithWorkers:   WithWorkers,
	E1Stream:      e1Stream,
}

func TestStream(t *testing.T) { streamFormat.Run(t) }

// FuzzReader decodes arbitrary streams in both framings: never a panic,
// and every batch that comes out is valid Arrow.
func FuzzReader(f *testing.F) {
	streamFormat.AddFuzzSeeds(f)
	f.Fuzz(streamFormat.FuzzRead)
}

// e1Stream is spec E1's Velox CompactRow serde stream: (1,"abc",NULL), (2,"",NULL).
var e1Stream = func() []byte {
	row1 := []byte{0x04, 1, 0, 0, 0, 3, 0, 0, 0, 0x61, 0x62, 0x63, 0, 0, 0, 0, 0, 0, 0, 0}
	row2 := []byte{0x04, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	out := []byte{0x2d, 0, 0, 0, 0x2d, 0, 0, 0, 0}
	for _, r := range [][]byte{row1, row2} {
		out = binary.BigEndian.AppendUint32(out, uint32(len(r)))
		out = append(out, r...)
	}
	return out
}()
