package compactrow

import (
	"fmt"
	"math"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/arrowvec"
)

// Decoder turns CompactRow rows into Arrow record batches of one schema.
// It is safe for concurrent use.
//
// Decoding runs in two passes. The scan pass walks every row once, checks
// every length, count and offset against the bytes present, and records
// where each value sits (column scratch). The fill pass then builds each
// column's Arrow buffers at their exact size from those positions.
type Decoder struct {
	plan    *arrowvec.Plan
	mem     memory.Allocator
	scratch sync.Pool // *decodeScratch
}

// NewDecoder returns a Decoder for rows of schema. It fails with
// rowbridge.ErrUnsupportedType for a type CompactRow does not carry.
func NewDecoder(schema *arrow.Schema, opts ...Option) (*Decoder, error) {
	plan, err := arrowvec.NewPlan(schema)
	if err != nil {
		return nil, fmt.Errorf("compactrow: %w", err)
	}
	cfg := newConfig(opts)
	d := &Decoder{plan: plan, mem: cfg.mem}
	d.scratch.New = func() any { return newDecodeScratch(plan) }
	return d, nil
}

// Schema is the schema of the batches Decode returns.
func (d *Decoder) Schema() *arrow.Schema { return d.plan.Schema }

// Decode converts rows (one CompactRow each) into a record batch the caller
// must release. Bad input yields a *rowbridge.DecodeError naming the row,
// the field path and the byte offset within the row.
func (d *Decoder) Decode(rows [][]byte) (arrow.RecordBatch, error) {
	s := d.scratch.Get().(*decodeScratch)
	defer d.scratch.Put(s)
	s.reset(len(rows))
	if err := s.scanRows(rows); err != nil {
		return nil, err
	}
	s.prefixPositions(rows)
	cols := make([]arrow.ArrayData, len(s.top))
	for i, c := range s.top {
		cols[i] = fill(d.mem, c, rows)
	}
	return arrowvec.NewRecordBatch(d.plan.Schema, len(rows), cols), nil
}

// varWidth marks a column whose values have no fixed CompactRow width.
const varWidth = -1

// fixedWidth is the number of bytes a value of n takes in a CompactRow
// struct or array slot, null or not, or varWidth when the value is
// variable-width (and takes no bytes when null). The encoder shares it.
func fixedWidth(n *arrowvec.Node) int {
	switch n.Kind {
	case arrowvec.KindNull:
		return 0
	case arrowvec.KindBool, arrowvec.KindInt8:
		return 1
	case arrowvec.KindInt16:
		return 2
	case arrowvec.KindInt32, arrowvec.KindFloat32, arrowvec.KindDate32:
		return 4
	case arrowvec.KindInt64, arrowvec.KindFloat64, arrowvec.KindTimestamp:
		return 8
	case arrowvec.KindDecimal:
		if n.IsLongDecimal() {
			return 16
		}
		return 8
	}
	return varWidth
}

// nullBytes is the size of the null flags of n fields or elements.
func nullBytes(n int) int { return (n + 7) >> 3 }

// column is the scan-pass record of one schema node: the position of each
// of its values within its row (-1 when null), and for every row how many
// values the column holds up to and including that row. Positions are
// int32 and the slices hold no pointers, so the scratch is cheap to keep.
type column struct {
	node     *arrowvec.Node
	width    int     // fixedWidth(node)
	pos      []int32 // per value: offset in its row, or -1 when null
	rowEnd   []int32 // per row: len(pos) once the row is scanned
	nulls    int
	bytes    int // string/binary: total payload bytes
	children []*column
	// aligned: no list or map above, so value i belongs to row i and
	// rowEnd is the shared identity rather than tracked per row.
	aligned bool
	// notNull: the field is declared NOT NULL (map keys always are), so a
	// null flag for it is an error. UNKNOWN is exempt: it is always null.
	notNull bool
}

func (c *column) appendNull() {
	c.pos = append(c.pos, -1)
	c.nulls++
	if c.node.Kind == arrowvec.KindStruct {
		// A null struct's fields are null too, keeping child lengths aligned.
		for _, ch := range c.children {
			ch.appendNull()
		}
	}
}

// decodeScratch is one Decode call's reusable state.
type decodeScratch struct {
	top []*column // one per top-level field
	// The first prefix top-level fields are fixed-width, so they sit at the
	// same offset in every row (prefixEnd is the first byte after them).
	// The scan pass skips them; prefixPositions fills their positions.
	prefix, prefixEnd int
	all               []*column
	tracked           []*column // columns needing per-row bookkeeping: unaligned or string
	ident             []int32   // ident[r] = r+1, the rowEnd of aligned columns
}

func newDecodeScratch(plan *arrowvec.Plan) *decodeScratch {
	s := &decodeScratch{}
	var build func(n *arrowvec.Node, aligned bool) *column
	build = func(n *arrowvec.Node, aligned bool) *column {
		c := &column{node: n, width: fixedWidth(n), aligned: aligned,
			notNull: !n.Nullable && n.Kind != arrowvec.KindNull}
		s.all = append(s.all, c)
		if !aligned || n.Kind == arrowvec.KindString || n.Kind == arrowvec.KindBinary {
			s.tracked = append(s.tracked, c)
		}
		childAligned := aligned && n.Kind == arrowvec.KindStruct
		for _, ch := range n.Children {
			c.children = append(c.children, build(ch, childAligned))
		}
		return c
	}
	for _, f := range plan.Fields {
		s.top = append(s.top, build(f, true))
	}
	s.prefixEnd = nullBytes(len(s.top))
	for _, c := range s.top {
		if c.width < 0 {
			break
		}
		s.prefix++
		s.prefixEnd += c.width
	}
	return s
}

func (s *decodeScratch) reset(nrows int) {
	for len(s.ident) < nrows {
		s.ident = append(s.ident, int32(len(s.ident)+1))
	}
	for _, c := range s.all {
		c.pos = c.pos[:0]
		c.nulls, c.bytes = 0, 0
		if c.aligned {
			c.rowEnd = s.ident[:nrows]
			if cap(c.pos) < nrows {
				c.pos = make([]int32, 0, nrows)
			}
		} else {
			c.rowEnd = c.rowEnd[:0]
			if cap(c.rowEnd) < nrows {
				c.rowEnd = make([]int32, 0, nrows)
			}
		}
	}
}

// scanRows runs the scan pass over every row.
func (s *decodeScratch) scanRows(rows [][]byte) error {
	for r, row := range rows {
		if len(row) > math.MaxInt32 {
			return &rowbridge.DecodeError{Row: r, Offset: -1, Err: fmt.Errorf("%w: row of %d bytes exceeds 2 GiB", rowbridge.ErrLayout, len(row))}
		}
		sc := scanner{row: row, r: r}
		if len(row) < s.prefixEnd {
			if _, err := sc.fields(s.top, 0, len(row), ""); err != nil {
				return err // the precise error for the short row
			}
			return sc.fail("", len(row), rowbridge.ErrTruncated, "row of %d bytes, schema needs at least %d", len(row), s.prefixEnd)
		}
		if err := s.prefixNulls(&sc); err != nil {
			return err
		}
		end, err := sc.fieldsFrom(s.top, s.prefix, 0, s.prefixEnd, len(row))
		if err != nil {
			return err
		}
		if end != len(row) {
			return sc.fail("", end, rowbridge.ErrLayout, "%d trailing bytes after the last field", len(row)-end)
		}
		for _, c := range s.tracked {
			if len(c.pos) > math.MaxInt32 || c.bytes > math.MaxInt32 {
				return &rowbridge.DecodeError{Row: r, Field: c.node.Path, Offset: -1,
					Err: fmt.Errorf("%w: column exceeds Arrow's 2 GiB / 2^31 value limit", rowbridge.ErrValue)}
			}
			if !c.aligned {
				c.rowEnd = append(c.rowEnd, int32(len(c.pos)))
			}
		}
	}
	return nil
}

// prefixNulls counts the nulls of the fixed prefix fields in one row. Rows
// whose null flags are all clear cost one look at those bytes.
func (s *decodeScratch) prefixNulls(sc *scanner) error {
	flags := sc.row[:nullBytes(s.prefix)]
	for _, f := range flags {
		if f == 0 {
			continue
		}
		for i, c := range s.top[:s.prefix] {
			if flags[i>>3]&(1<<(i&7)) == 0 {
				continue
			}
			if c.notNull {
				return sc.fail(c.node.Path, i>>3, rowbridge.ErrLayout, "null in a NOT NULL field")
			}
			c.nulls++
		}
		return nil
	}
	return nil
}

// prefixPositions records the positions of the fixed prefix fields, which
// the scan pass skipped, for the fill pass.
func (s *decodeScratch) prefixPositions(rows [][]byte) {
	off := nullBytes(len(s.top))
	for i, c := range s.top[:s.prefix] {
		c.pos = c.pos[:len(rows)]
		fb, mask := i>>3, byte(1)<<(i&7)
		if c.nulls == 0 {
			for r := range c.pos {
				c.pos[r] = int32(off)
			}
		} else {
			for r, row := range rows {
				c.pos[r] = int32(off)
				if row[fb]&mask != 0 {
					c.pos[r] = -1
				}
			}
		}
		off += c.width
	}
}
