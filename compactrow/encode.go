package compactrow

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/arrowconv"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/rowbridge/rowbridge/internal/rowopt"
)

// Encoder turns Arrow record batches into CompactRow rows byte-identical to
// Velox's writer. It is safe for concurrent use.
//
// It sizes every row first, grows the output once, zeroes it (every gap
// Velox leaves unwritten is zero), and then writes column by column at
// precomputed per-row cursors, reading the Arrow buffers directly.
type Encoder struct {
	in       *arrowconv.Input // converts and checks the batches given
	plan     *columnar.Plan   // of the row schema
	fixedRow int              // null flags plus the widths of the fixed top-level fields
	allFixed bool             // every row has size fixedRow
	writers  sync.Pool        // *columnWriter
}

// NewEncoder returns an Encoder for batches of schema. Columns of the Arrow
// types producers write beyond the row format's own (timestamps in any
// unit, large, view and dictionary-encoded columns, unsigned integers,
// float16, date64, other decimal widths, other list layouts) are converted
// column by column before encoding, as RowSchema says; see WithTruncate for
// values a conversion would lose. It fails with rowbridge.ErrUnsupportedType
// for a type CompactRow has no counterpart for. The options that apply are
// WithAllocator (for converted columns) and WithTruncate.
func NewEncoder(schema *arrow.Schema, opts ...Option) (*Encoder, error) {
	return rowopt.Build(pkgName, rowopt.ForEncoder, schema, opts, newEncoder)
}

// newEncoder is NewEncoder with its options applied.
func newEncoder(schema *arrow.Schema, cfg *config) (*Encoder, error) {
	in, err := arrowconv.NewInput(pkgName, schema, cfg.Truncate, cfg.Mem)
	if err != nil {
		return nil, err
	}
	plan := in.Plan
	e := &Encoder{in: in, plan: plan, fixedRow: nullBytes(len(plan.Fields)), allFixed: true}
	for _, f := range plan.Fields {
		if w := fixedWidth(f); w >= 0 {
			e.fixedRow += w
		} else {
			e.allFixed = false
		}
	}
	e.writers.New = func() any { return new(columnWriter) }
	return e, nil
}

// Encode returns the rows of rec in one fresh buffer.
func (e *Encoder) Encode(rec arrow.RecordBatch) (rowbridge.Rows, error) {
	return e.AppendRows(rowbridge.Rows{}, rec)
}

// AppendRows appends the rows of rec to dst, reusing its memory, and
// returns the extended Rows. dst.Offsets must be empty or end at
// len(dst.Data). On error dst is returned unchanged.
func (e *Encoder) AppendRows(dst rowbridge.Rows, rec arrow.RecordBatch) (rowbridge.Rows, error) {
	return e.in.Append(dst, rec, e.appendRows)
}

// appendRows is AppendRows of a batch of the row types.
func (e *Encoder) appendRows(dst rowbridge.Rows, rec arrow.RecordBatch) (rowbridge.Rows, error) {
	n := int(rec.NumRows())
	srcs := make([]*source, len(e.plan.Fields))
	for f, node := range e.plan.Fields {
		srcs[f] = newSource(node, rec.Column(f).Data())
	}

	orig := dst
	base := len(dst.Data)
	if len(dst.Offsets) == 0 {
		dst.Offsets = append(dst.Offsets, base)
	}
	first := len(dst.Offsets) // index of row 0's end offset
	dst.Offsets = slices.Grow(dst.Offsets, n)[:first+n]
	offs := dst.Offsets[first-1:]
	if err := e.rowEnds(srcs, n, offs); err != nil {
		return orig, err
	}
	total := offs[n] - base
	dst.Data = slices.Grow(dst.Data, total)[:base+total]
	clear(dst.Data[base:])

	w := e.writers.Get().(*columnWriter)
	defer e.writers.Put(w)
	w.reset(dst.Data, n)
	nb := nullBytes(len(srcs))
	for r := range w.cur {
		w.cur[r] = offs[r] + nb
	}
	for f, s := range srcs {
		if err := w.column(s, f, offs[:n], true); err != nil {
			return orig, err
		}
	}
	w.data = nil
	return dst, nil
}

// rowEnds fills offs[1:n+1] with the end offset of every row, given the
// start offset of the first in offs[0].
func (e *Encoder) rowEnds(srcs []*source, n int, offs []int) error {
	if e.allFixed {
		for r := range n {
			offs[r+1] = offs[r] + e.fixedRow
		}
		return nil
	}
	sizes := offs[1 : n+1]
	for r := range sizes {
		sizes[r] = e.fixedRow
	}
	for _, s := range srcs {
		if s.width >= 0 {
			continue
		}
		switch {
		case (s.node.Kind == columnar.KindString || s.node.Kind == columnar.KindBinary) && s.AllValid():
			offs := s.Offsets[:len(sizes)+1]
			for r := range sizes {
				sizes[r] += 4 + int(offs[r+1]-offs[r])
			}
		case s.AllValid():
			for r := range sizes {
				sizes[r] += s.size(r)
			}
		default:
			for r := range sizes {
				if s.IsValid(r) {
					sizes[r] += s.size(r)
				}
			}
		}
	}
	for r := range n {
		if offs[r+1] > math.MaxInt32 {
			return &rowbridge.EncodeError{Row: r, Err: fmt.Errorf("%w: row of %d bytes exceeds 2 GiB", rowbridge.ErrValue, offs[r+1])}
		}
		offs[r+1] += offs[r]
	}
	return nil
}

// copyColumn is the fast path for a fixed-width column present in every row
// without nulls whose Arrow values are its CompactRow bytes. It reports false for
// kinds it does not handle.
func copyColumn(s *source, data []byte, cur []int) bool {
	switch w := s.width; {
	case s.node.Kind == columnar.KindBool || s.node.Kind == columnar.KindDecimal || w <= 0:
		return false
	case w == 1:
		vals := s.Values
		for r, p := range cur {
			data[p] = vals[r]
			cur[r] = p + 1
		}
	case w == 2:
		vals := s.Values
		for r, p := range cur {
			le.PutUint16(data[p:], le.Uint16(vals[2*r:]))
			cur[r] = p + 2
		}
	case w == 4:
		vals := s.Values
		for r, p := range cur {
			le.PutUint32(data[p:], le.Uint32(vals[4*r:]))
			cur[r] = p + 4
		}
	default:
		vals := s.Values
		for r, p := range cur {
			le.PutUint64(data[p:], le.Uint64(vals[8*r:]))
			cur[r] = p + 8
		}
	}
	return true
}

// atRow stamps the row index on an EncodeError raised below the row level.
func atRow(err error, r int) error {
	var ee *rowbridge.EncodeError
	if errors.As(err, &ee) {
		ee.Row = r
	}
	return err
}

// Schema is the schema of the batches Encode accepts.
func (e *Encoder) Schema() *arrow.Schema { return e.in.Schema() }

// RowSchema is the schema of the rows: Schema with every column converted
// to its row-format type (timestamp[us], utf8, list, ...), which is what a
// Decoder of the rows gives back. It is Schema when nothing converts.
func (e *Encoder) RowSchema() *arrow.Schema { return e.in.RowSchema() }
