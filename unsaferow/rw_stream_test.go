package unsaferow

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/rowstream/streamtest"
	"github.com/stretchr/testify/require"
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

// e1Stream is spec E1's Velox UnsafeRow serde stream: (1,"abc",NULL), (2,"",NULL).
var e1Stream = func() []byte {
	row1 := []byte{
		0x04, 0, 0, 0, 0, 0, 0, 0,
		0x01, 0, 0, 0, 0, 0, 0, 0,
		0x03, 0, 0, 0, 0x20, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		0x61, 0x62, 0x63, 0, 0, 0, 0, 0,
	}
	row2 := []byte{
		0x04, 0, 0, 0, 0, 0, 0, 0,
		0x02, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0x20, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
	}
	out := []byte{0x50, 0, 0, 0, 0x50, 0, 0, 0, 0}
	for _, r := range [][]byte{row1, row2} {
		out = binary.BigEndian.AppendUint32(out, uint32(len(r)))
		out = append(out, r...)
	}
	return out
}()

func TestStreamVeloxFlavor(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	all := streamtest.Record(t, mem, 11)
	defer all.Release()
	opts := []Option{WithAllocator(mem), WithFraming(framing.Velox), WithCodec(framing.LZ4)}
	stream := streamFormat.WriteStream(t, []arrow.RecordBatch{all}, append(opts, WithFlavor(Velox))...)
	got, err := streamFormat.ReadBatches(t, bytes.NewReader(stream), 5, opts...)
	defer streamtest.ReleaseBatches(got)
	require.NoError(t, err)
	streamtest.RequireSameRows(t, all, got)
}
