package arrowconv

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Converter converts record batches of one input schema to the row-format
// schema. It holds no per-call state and is safe for concurrent use.
type Converter struct {
	in, out  *arrow.Schema
	cols     []*node
	same     bool
	truncate bool
}

// New prepares a Converter for batches of schema. With truncate, values
// with a part below the target's unit (nanoseconds, a date64's time of
// day) are rounded down instead of failing. Field names, nullability and
// metadata carry over; only types change.
func New(schema *arrow.Schema, truncate bool) (*Converter, error) {
	if schema == nil {
		return nil, fmt.Errorf("a nil schema: %w", arrow.ErrInvalid)
	}
	c := &Converter{in: schema, cols: make([]*node, schema.NumFields()), same: true, truncate: truncate}
	fields := make([]arrow.Field, schema.NumFields())
	for i, f := range schema.Fields() {
		n, err := newNode(f.Type, f.Name)
		if err != nil {
			return nil, err
		}
		c.cols[i], c.same = n, c.same && n.same
		f.Type = n.out
		fields[i] = f
	}
	c.out = schema
	if !c.same {
		md := schema.Metadata()
		c.out = arrow.NewSchema(fields, &md)
	}
	return c, nil
}

// Identity reports whether every column already has its row-format type,
// so that batches need no conversion.
func (c *Converter) Identity() bool { return c.same }

// Schema is the row-format schema: the types Convert returns, and what a
// decoder of the encoded rows gives back.
func (c *Converter) Schema() *arrow.Schema { return c.out }

// InputSchema is the schema the Converter was made for.
func (c *Converter) InputSchema() *arrow.Schema { return c.in }

// Convert returns rec with every column converted to its row-format type,
// to be released by the caller. Columns that need no conversion are shared,
// not copied. A value that cannot be converted is a *rowbridge.EncodeError
// naming its row and field.
func (c *Converter) Convert(mem memory.Allocator, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if int(rec.NumCols()) != len(c.cols) {
		return nil, fmt.Errorf("batch has %d columns, schema has %d: %w", rec.NumCols(), len(c.cols), arrow.ErrInvalid)
	}
	for i, n := range c.cols {
		if dt := rec.Column(i).DataType(); !arrow.TypeEqual(dt, n.in) {
			return nil, fmt.Errorf("column %d (%s) is %s, schema has %s: %w", i, n.path, dt, n.in, arrow.ErrInvalid)
		}
	}
	if c.same {
		rec.Retain()
		return rec, nil
	}
	cv := &conv{mem: mem, truncate: c.truncate}
	cols := make([]arrow.Array, len(c.cols))
	defer func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}()
	top := &scope{}
	for i, n := range c.cols {
		col := rec.Column(i)
		if n.same {
			col.Retain()
			cols[i] = col
			continue
		}
		d, err := cv.convert(n, col.Data(), top)
		if err != nil {
			return nil, err
		}
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	return array.NewRecordBatch(c.out, cols, rec.NumRows()), nil
}

// ConvertArray converts one array of type dt (as RowType maps it), for
// callers that convert a column rather than a batch. Errors name rows
// within arr.
func ConvertArray(mem memory.Allocator, arr arrow.Array, truncate bool) (arrow.Array, error) {
	n, err := newNode(arr.DataType(), "")
	if err != nil {
		return nil, err
	}
	if n.same {
		arr.Retain()
		return arr, nil
	}
	d, err := (&conv{mem: mem, truncate: truncate}).convert(n, arr.Data(), &scope{})
	if err != nil {
		return nil, err
	}
	defer d.Release()
	return array.MakeFromData(d), nil
}

// conv carries one call's settings through the recursion.
type conv struct {
	mem      memory.Allocator
	truncate bool
}

// convert returns d (of type n.in) as n.out, a new reference. sc maps d's
// indices to the batch's rows for errors.
func (c *conv) convert(n *node, d arrow.ArrayData, sc *scope) (arrow.ArrayData, error) {
	if n.same {
		d.Retain()
		return d, nil
	}
	switch n.in.ID() {
	case arrow.TIMESTAMP:
		return c.timestamps(n, d, sc)
	case arrow.DATE64:
		return c.date64s(n, d, sc)
	case arrow.UINT8:
		return widen[uint8, int16](c, n, d), nil
	case arrow.UINT16:
		return widen[uint16, int32](c, n, d), nil
	case arrow.UINT32:
		return widen[uint32, int64](c, n, d), nil
	case arrow.UINT64:
		return c.uint64s(n, d), nil
	case arrow.FLOAT16:
		return c.float16s(n, d), nil
	case arrow.DECIMAL32:
		return c.decimal32s(n, d), nil
	case arrow.DECIMAL64:
		return c.decimal64s(n, d), nil
	case arrow.DECIMAL256:
		return c.decimal256s(n, d, sc)
	case arrow.LARGE_STRING, arrow.LARGE_BINARY:
		return c.largeBinaries(n, d, sc)
	case arrow.STRING_VIEW, arrow.BINARY_VIEW:
		return c.views(n, d, sc)
	case arrow.FIXED_SIZE_BINARY:
		return c.fixedSizeBinaries(n, d, sc)
	case arrow.DICTIONARY:
		return c.dictionary(n, d, sc)
	case arrow.STRUCT:
		return c.structs(n, d, sc)
	case arrow.MAP:
		return c.lists(n, d, sc)
	case arrow.LIST, arrow.LARGE_LIST, arrow.LIST_VIEW, arrow.LARGE_LIST_VIEW, arrow.FIXED_SIZE_LIST:
		return c.lists(n, d, sc)
	}
	return nil, fmt.Errorf("arrowconv: no conversion from %s: %w", n.in, arrow.ErrNotImplemented) // newNode admits no other type
}
