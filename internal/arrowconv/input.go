package arrowconv

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Input is what both codecs' Encoders do with a batch before encoding it:
// convert its columns to the row format's types (when the schema needs
// it) and check them against the plan of those types.
type Input struct {
	Plan   *columnar.Plan // of the row schema
	pkg    string         // prefixes batch-level errors
	schema *arrow.Schema  // of the batches given
	conv   *Converter     // nil when the schema's types are the row format's
	mem    memory.Allocator
}

// NewInput prepares the Input of an Encoder of package pkg for batches of
// schema; truncate allows lossy conversions (WithTruncate), mem holds the
// converted columns.
func NewInput(pkg string, schema *arrow.Schema, truncate bool, mem memory.Allocator) (*Input, error) {
	conv, err := New(schema, truncate)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pkg, err)
	}
	plan, err := columnar.NewPlan(conv.Schema())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pkg, err)
	}
	in := &Input{Plan: plan, pkg: pkg, schema: schema, mem: mem}
	if !conv.Identity() {
		in.conv = conv
	}
	return in, nil
}

// Schema is the schema of the batches the Encoder takes.
func (in *Input) Schema() *arrow.Schema { return in.schema }

// RowSchema is Schema with every column converted to its row-format type:
// what a Decoder of the rows gives back.
func (in *Input) RowSchema() *arrow.Schema { return in.Plan.Schema }

// Append is an Encoder's AppendRows: it checks that dst's offsets end at
// its data, prepares rec (see Prepare) and has encode append the prepared
// batch's rows to dst. On error dst is returned with its lengths as given.
func (in *Input) Append(dst rowbridge.Rows, rec arrow.RecordBatch,
	encode func(rowbridge.Rows, arrow.RecordBatch) (rowbridge.Rows, error)) (rowbridge.Rows, error) {
	if len(dst.Offsets) > 0 && dst.Offsets[len(dst.Offsets)-1] != len(dst.Data) {
		return dst, fmt.Errorf("%s: dst.Offsets does not end at len(dst.Data): %w", in.pkg, arrow.ErrInvalid)
	}
	rec, err := in.Prepare(rec)
	if err != nil {
		return dst, err
	}
	defer rec.Release()
	return encode(dst, rec)
}

// Prepare returns rec with its columns converted to the row format's types
// (rec itself, retained, when none need it; the caller releases the
// result) once their types are checked against the plan. A conversion
// error naming a row (an EncodeError) is returned as it is; any other
// error is prefixed with the package and wraps arrow.ErrInvalid.
func (in *Input) Prepare(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if in.conv != nil {
		conv, err := in.conv.Convert(in.mem, rec)
		if err != nil {
			var ee *rowbridge.EncodeError
			if !errors.As(err, &ee) {
				err = fmt.Errorf("%s: %w", in.pkg, err)
			}
			return nil, err
		}
		rec = conv
	} else {
		rec.Retain()
	}
	if int(rec.NumCols()) != len(in.Plan.Fields) {
		n := rec.NumCols()
		rec.Release()
		return nil, fmt.Errorf("%s: batch has %d columns, encoder schema has %d: %w", in.pkg, n, len(in.Plan.Fields), arrow.ErrInvalid)
	}
	for i, node := range in.Plan.Fields {
		if dt := rec.Column(i).DataType(); !node.Accepts(dt) {
			rec.Release()
			return nil, fmt.Errorf("%s: column %d (%s) is %s, encoder schema has %s: %w", in.pkg, i, node.Path, dt, node.Type, arrow.ErrInvalid)
		}
	}
	return rec, nil
}
