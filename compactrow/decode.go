package compactrow

import (
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/rowbridge/rowbridge/internal/rowopt"
	"github.com/rowbridge/rowbridge/internal/rowstream"
)

// Decoder turns CompactRow rows into Arrow record batches of one schema.
// It is safe for concurrent use.
//
// Decoding runs in two passes. The scan pass walks every row once, checks
// every length, count and offset against the bytes present, and records
// where the values sit (column scratch). The fill pass then builds each
// column's Arrow buffers at their exact size from those positions, and
// checks the values themselves (UTF-8, decimal precision) as it copies them.
type Decoder struct {
	plan    *columnar.Plan
	mem     memory.Allocator
	scratch sync.Pool // *decodeScratch
}

// NewDecoder returns a Decoder for rows of schema. It fails with
// rowbridge.ErrUnsupportedType for a type CompactRow does not carry.
// Without WithAllocator its batches come from a recycling allocator of its
// own (see WithAllocator): release each batch when done with it and the
// next Decode reuses its buffers.
func NewDecoder(schema *arrow.Schema, opts ...Option) (*Decoder, error) {
	return rowopt.BuildPlanned(pkgName, rowopt.ForDecoder, schema, opts, newDecoder)
}

// newDecoder is NewDecoder of the schema's plan, its options applied.
func newDecoder(plan *columnar.Plan, cfg *config) (*Decoder, error) {
	d := &Decoder{plan: plan, mem: cfg.Mem}
	d.scratch.New = func() any { return newDecodeScratch(plan) }
	return d, nil
}

// Schema is the schema of the batches Decode returns.
func (d *Decoder) Schema() *arrow.Schema { return d.plan.Schema }

// DecodeRows is Decode of the rows an Encoder returned, taken as they are:
// no slice per row is made (the row headers Decode needs live in pooled
// memory).
func (d *Decoder) DecodeRows(rows rowbridge.Rows) (arrow.RecordBatch, error) {
	return rowstream.DecodeRows(d, &rows)
}

// Decode converts rows (one CompactRow each) into a record batch the caller
// must release. Bad input yields a *rowbridge.DecodeError naming the row,
// the field path and the byte offset within the row of the first fault:
// rows in order, each row in the order its fields and elements are read.
func (d *Decoder) Decode(rows [][]byte) (arrow.RecordBatch, error) {
	s := d.scratch.Get().(*decodeScratch)
	defer d.scratch.Put(s)
	s.reset(len(rows))
	if err := s.scanRows(rows); err != nil {
		return nil, err
	}
	f := filler{mem: d.mem, rows: rows}
	cols := make([]arrow.ArrayData, len(s.top()))
	for i, c := range s.top() {
		cols[i] = f.fill(c)
	}
	if testHookFilled != nil {
		testHookFilled(&f)
	}
	if f.bad {
		// A value failed its check; the precise pass names the first one.
		// Finding none means the two passes disagree: that is a bug, and
		// the batch built is not trusted either.
		for _, c := range cols {
			c.Release()
		}
		if err := s.firstValueError(rows, len(rows)); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("compactrow: %w: a value failed its check in the fill pass but the precise pass found none in %d rows",
			rowbridge.ErrInternal, len(rows))
	}
	return columnar.NewRecordBatch(d.plan.Schema, len(rows), cols), nil
}

// testHookFilled, when set (by tests only), sees the filler after the fill
// pass, before Decode looks at its result.
var testHookFilled func(*filler)

// varWidth marks a column whose values have no fixed CompactRow width.
const varWidth = columnar.VarWidth

// fixedWidth is the number of bytes a value of n takes in a CompactRow
// struct or array slot, null or not, or varWidth when the value is
// variable-width (and takes no bytes when null). The encoder shares it.
func fixedWidth(n *columnar.Node) int { return n.RowWidth() }

// nullBytes is the size of the null flags of n >= 0 fields or elements.
// It is computed unsigned, so a count up to math.MaxInt32 does not
// overflow on 32-bit machines.
func nullBytes(n int) int { return int((uint(n) + 7) >> 3) }

// colMode says how the scan pass records where a column's values are.
type colMode uint8

const (
	// atPos: pos holds the offset of every value in its row, -1 when null.
	atPos colMode = iota
	// inPrefix: a fixed-width field among the leading fixed-width fields of
	// its struct (or of the row), so it sits at a constant distance (rel)
	// from the struct's start. Nothing is recorded per value: the struct's
	// own positions and null flags locate it.
	inPrefix
	// inArrays: the fixed-width elements of arrays (or map keys or values),
	// contiguous after each array's null flags. pos holds the start (the
	// element count) of every non-empty array (but see parent), n the
	// number of elements.
	inArrays
)

// column is the scan-pass record of one schema node. Positions are int32
// and the slices hold no pointers, so the scratch is cheap to keep.
type column struct {
	node  *columnar.Node // nil for the row itself
	path  string
	width int // fixedWidth(node)
	mode  colMode

	// inPrefix: the enclosing struct (or the row), the value's offset from
	// the struct's start, and its null flag there. inArrays: the list whose
	// elements these are (nil for map keys and values), whose positions
	// are the arrays'; pos is then unused.
	parent   *column
	rel      int
	flagByte int
	flagMask byte

	// Structs and the row: the first prefix fields are inPrefix, and the
	// null flags and those fields take prefixEnd bytes.
	prefix, prefixEnd int

	pos    []int32 // see colMode
	rowEnd []int32 // per row: len(pos) once the row is scanned
	// n, nulls and bytes are int64 so that they cannot wrap on 32-bit
	// machines within a row (a row of n bytes can hold 8n VOID elements)
	// or a batch (rows may share memory) before the scan checks them
	// against Arrow's limits.
	n     int64 // inArrays: elements so far
	nulls int64
	bytes int64 // string/binary: total payload bytes
	// outWidth: the most bytes per entry any one Arrow buffer of the
	// column takes (its values, its offsets, or an inPrefix child's
	// values), to check that the buffers fit a 32-bit address space.
	outWidth int64
	// aligned: no list or map above, so entry i belongs to row i and
	// rowEnd is the shared identity rather than tracked per row.
	aligned bool
	// notNull: the field is declared NOT NULL (map keys always are), so a
	// null flag for it is an error. UNKNOWN is exempt: it is always null.
	notNull bool
	// key: the keys of a map, which Arrow never lets be null (so keys of
	// the null type cannot be held).
	key bool
	// check: strings and decimals, whose values are checked (UTF-8,
	// precision) beyond their layout.
	check     bool
	bytesKind bool    // string or binary
	elems     *column // a list's fixed-width elements, which the scan handles directly
	decimal   *columnar.DecimalLimit
	children  []*column
}

// length is the number of values the column holds after the scan.
func (c *column) length() int {
	switch c.mode {
	case inPrefix:
		return len(c.parent.pos)
	case inArrays:
		return int(c.n) // at most math.MaxInt32: the scan checks it
	}
	return len(c.pos)
}

func (c *column) appendNull() {
	c.pos = append(c.pos, -1)
	c.nulls++
	if c.node.Kind == columnar.KindStruct {
		// A null struct's fields are null too, keeping child lengths aligned.
		for _, ch := range c.children {
			if ch.mode == inPrefix {
				ch.nulls++
			} else {
				ch.appendNull()
			}
		}
	}
}

// decodeScratch is one Decode call's reusable state.
type decodeScratch struct {
	row       column      // the row as a struct of the top-level fields; its pos is all 0
	all       []*column   // every column but the row
	tracked   []*column   // columns that could reach Arrow's limits: unaligned or string
	unaligned []*column   // columns under a list or map, whose rowEnd is kept per row
	checked   []*column   // columns whose values are checked: strings, decimals
	flat      []flatField // the fields of flat rows (decode_scan_flat.go), nil when rows are not flat
	ident     []int32     // ident[r] = r+1, the rowEnd of aligned columns
	zeros     []int32     // the position of the row in the row, for every row
}

func (s *decodeScratch) top() []*column { return s.row.children }

func newDecodeScratch(plan *columnar.Plan) *decodeScratch {
	s := &decodeScratch{}
	var build func(n *columnar.Node, aligned, element bool) *column
	build = func(n *columnar.Node, aligned, element bool) *column {
		c := &column{node: n, path: n.Path, width: fixedWidth(n), aligned: aligned,
			notNull:   !n.Nullable && n.Kind != columnar.KindNull,
			check:     n.Kind == columnar.KindString || n.Kind == columnar.KindDecimal,
			bytesKind: n.Kind == columnar.KindString || n.Kind == columnar.KindBinary}
		if element && c.width >= 0 {
			c.mode = inArrays
		}
		if n.Kind == columnar.KindDecimal {
			c.decimal = &n.Limit
		}
		s.all = append(s.all, c)
		switch n.Kind {
		case columnar.KindStruct:
			for _, ch := range n.Children {
				c.children = append(c.children, build(ch, aligned, false))
			}
			c.setPrefix()
		case columnar.KindList, columnar.KindMap:
			for _, ch := range n.Children {
				c.children = append(c.children, build(ch, false, true))
			}
			if n.Kind == columnar.KindMap {
				c.children[0].key = true
			}
			if n.Kind == columnar.KindList && c.children[0].width > 0 {
				// Located through the list's own positions.
				c.elems, c.children[0].parent = c.children[0], c
			}
		}
		return c
	}
	for _, f := range plan.Fields {
		s.row.children = append(s.row.children, build(f, true, false))
	}
	for _, c := range s.all {
		c.outWidth = bufferWidth(c.node)
		if c.node.Kind == columnar.KindStruct {
			for _, ch := range c.children[:c.prefix] {
				c.outWidth = max(c.outWidth, bufferWidth(ch.node))
			}
		}
	}
	s.row.aligned = true
	s.row.setPrefix()
	s.setFlat()
	for _, c := range s.all {
		if c.check {
			s.checked = append(s.checked, c)
		}
		if c.mode == inPrefix {
			continue // located through its struct
		}
		if !c.aligned || c.node.Kind == columnar.KindString || c.node.Kind == columnar.KindBinary {
			s.tracked = append(s.tracked, c)
		}
		if !c.aligned && c.parent == nil {
			s.unaligned = append(s.unaligned, c)
		}
	}
	return s
}

// bufferWidth is the most bytes per value that one of the Arrow buffers
// of a column of n takes (not counting its children's).
func bufferWidth(n *columnar.Node) int64 {
	switch n.Kind {
	case columnar.KindString, columnar.KindBinary, columnar.KindList, columnar.KindMap:
		return 4 // int32 offsets
	case columnar.KindBool:
		return 1 // a bit, counted as a byte
	}
	return int64(n.Kind.ValueWidth())
}

// setPrefix puts the leading fixed-width fields of a struct (or the row)
// at their constant offsets.
func (c *column) setPrefix() {
	c.prefixEnd = nullBytes(len(c.children))
	for i, ch := range c.children {
		if ch.width < 0 {
			break
		}
		ch.mode, ch.parent, ch.rel = inPrefix, c, c.prefixEnd
		ch.flagByte, ch.flagMask = i>>3, byte(1)<<(i&7)
		c.prefix++
		c.prefixEnd += ch.width
	}
}

func (s *decodeScratch) reset(nrows int) {
	for len(s.ident) < nrows {
		s.ident = append(s.ident, int32(len(s.ident)+1))
	}
	if len(s.zeros) < nrows {
		s.zeros = make([]int32, nrows)
	}
	s.row.pos = s.zeros[:nrows]
	for _, c := range s.all {
		c.pos = c.pos[:0]
		c.n, c.nulls, c.bytes = 0, 0, 0
		switch {
		case c.mode == inPrefix:
		case c.aligned:
			c.rowEnd = s.ident[:nrows]
			if cap(c.pos) < nrows {
				c.pos = make([]int32, 0, nrows)
			}
		default:
			c.rowEnd = c.rowEnd[:0]
			if cap(c.rowEnd) < nrows {
				c.rowEnd = make([]int32, 0, nrows)
			}
		}
	}
}
