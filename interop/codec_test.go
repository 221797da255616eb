package interop

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/compactrow"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// codecs are the row formats the round trips cover: both UnsafeRow flavours
// and CompactRow.
var codecs = []string{"unsaferow-spark", "unsaferow-velox", "compactrow"}

type rowEncoder interface {
	AppendRows(dst rowbridge.Rows, rec arrow.RecordBatch) (rowbridge.Rows, error)
}

type rowDecoder interface {
	Decode(rows [][]byte) (arrow.RecordBatch, error)
}

func newCodec(name string, schema *arrow.Schema, mem memory.Allocator) (rowEncoder, rowDecoder, error) {
	switch name {
	case "unsaferow-spark", "unsaferow-velox":
		flavor := unsaferow.Spark
		if name == "unsaferow-velox" {
			flavor = unsaferow.Velox
		}
		enc, err := unsaferow.NewEncoder(schema, unsaferow.WithFlavor(flavor), unsaferow.WithAllocator(mem))
		if err != nil {
			return nil, nil, err
		}
		dec, err := unsaferow.NewDecoder(schema, unsaferow.WithAllocator(mem))
		return enc, dec, err
	case "compactrow":
		enc, err := compactrow.NewEncoder(schema, compactrow.WithAllocator(mem))
		if err != nil {
			return nil, nil, err
		}
		dec, err := compactrow.NewDecoder(schema, compactrow.WithAllocator(mem))
		return enc, dec, err
	}
	return nil, nil, fmt.Errorf("unknown codec %q", name)
}

// encodeAll encodes batches one after another into one Rows.
func encodeAll(enc rowEncoder, batches []arrow.RecordBatch) (rowbridge.Rows, error) {
	var rows rowbridge.Rows
	var err error
	for _, rb := range batches {
		if rows, err = enc.AppendRows(rows, rb); err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// streamDecode writes rb as a framed row stream (Velox framing with zstd
// row groups when velox is set, else Spark framing) with the codec's Writer
// and reads it back with its Reader in batches of batchRows rows; the
// caller releases the batches.
func streamDecode(codec string, schema *arrow.Schema, mem memory.Allocator, rb arrow.RecordBatch, velox bool, batchRows int) ([]arrow.RecordBatch, error) {
	fr, fc := framing.Spark, framing.None
	if velox {
		fr, fc = framing.Velox, framing.Zstd
	}
	var buf bytes.Buffer
	var w interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	var err error
	var r array.RecordReader
	switch codec {
	case "compactrow":
		if w, err = compactrow.NewWriter(&buf, schema, compactrow.WithFraming(fr), compactrow.WithCodec(fc)); err != nil {
			return nil, err
		}
	default:
		flavor := unsaferow.Spark
		if codec == "unsaferow-velox" {
			flavor = unsaferow.Velox
		}
		if w, err = unsaferow.NewWriter(&buf, schema, unsaferow.WithFlavor(flavor), unsaferow.WithFraming(fr), unsaferow.WithCodec(fc)); err != nil {
			return nil, err
		}
	}
	if err := w.Write(rb); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	switch codec {
	case "compactrow":
		r, err = compactrow.NewReader(&buf, schema, compactrow.WithFraming(fr), compactrow.WithCodec(fc),
			compactrow.WithAllocator(mem), compactrow.WithBatchRows(batchRows))
	default:
		r, err = unsaferow.NewReader(&buf, schema, unsaferow.WithFraming(fr), unsaferow.WithCodec(fc),
			unsaferow.WithAllocator(mem), unsaferow.WithBatchRows(batchRows))
	}
	if err != nil {
		return nil, err
	}
	defer r.Release()
	var out []arrow.RecordBatch
	for r.Next() {
		b := r.RecordBatch()
		b.Retain()
		out = append(out, b)
	}
	if err := r.Err(); err != nil {
		releaseAll(out)
		return nil, err
	}
	return out, nil
}
