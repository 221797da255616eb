// Package rowstream joins framing to a row codec: a Reader that yields
// record batches from a Source (the array.RecordReader behind
// unsaferow.Reader, compactrow.Reader and sparkshuffle.Reader), the Source
// of a framed row stream (NewReader, serial or on workers), and a Writer
// that frames encoded record batches.
package rowstream

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
)

// BatchDecoder turns a batch of rows into a record batch the caller owns.
// The rows are only valid during the call.
type BatchDecoder interface {
	Decode(rows [][]byte) (arrow.RecordBatch, error)
}

// RowEncoder appends a record batch's rows to dst.
type RowEncoder interface {
	AppendRows(dst rowbridge.Rows, rec arrow.RecordBatch) (rowbridge.Rows, error)
}
