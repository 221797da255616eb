package interop

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/compactrow"
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
