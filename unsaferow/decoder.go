package unsaferow

import (
	"fmt"
	"math"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/rowbridge/rowbridge/internal/rowopt"
	"github.com/rowbridge/rowbridge/internal/rowstream"
)

// Decoder turns batches of UnsafeRow bytes into Arrow record batches. It
// reads what Spark and Velox write alike (docs/row-layout.md, "Spark and Velox differences"). A Decoder is safe for
// concurrent use: every call takes its scratch space from a pool.
type Decoder struct {
	plan      *columnar.Plan
	mem       memory.Allocator
	fixedOnly bool      // every top-level field lives in its slot
	pool      sync.Pool // *scratch
}

// NewDecoder prepares a Decoder for rows of the given schema. It fails with
// rowbridge.ErrUnsupportedType for types UnsafeRow cannot carry.
// Without WithAllocator its batches come from a recycling allocator of its
// own (see WithAllocator): release each batch when done with it and the
// next Decode reuses its buffers.
func NewDecoder(schema *arrow.Schema, opts ...Option) (*Decoder, error) {
	return rowopt.BuildPlanned(pkgName, rowopt.ForDecoder, schema, opts, newDecoder)
}

// newDecoder is NewDecoder of the schema's plan, its options applied.
func newDecoder(plan *columnar.Plan, cfg *config) (*Decoder, error) {
	if err := checkMapKeys(plan.Fields); err != nil {
		return nil, err
	}
	d := &Decoder{plan: plan, mem: cfg.Mem, fixedOnly: fixedOnly(plan.Fields)}
	d.pool.New = func() any { return new(scratch) }
	return d, nil
}

// Schema is the schema of the batches Decode returns.
func (d *Decoder) Schema() *arrow.Schema { return d.plan.Schema }

// DecodeRows is Decode of the rows an Encoder returned (or any Rows whose
// offsets lie in order inside Data), taken as they are: the decoder reads
// Data at the offsets, with no slice per row. Offsets that decrease or
// point past Data are a *rowbridge.DecodeError wrapping
// rowbridge.ErrOutOfBounds, naming the first bad row.
func (d *Decoder) DecodeRows(rows rowbridge.Rows) (arrow.RecordBatch, error) {
	sc := d.pool.Get().(*scratch)
	defer d.pool.Put(sc)
	refs := sc.rowRefs(rows.Len())
	defer clear(refs) // drop the references to the input
	if columnar.RefsOf(refs, rows.Data, rows.Offsets) >= 0 {
		return nil, rowstream.CheckOffsets(&rows)
	}
	return d.decode(sc, refs)
}

// Decode converts rows (one UnsafeRow per slice) into one record batch with
// a row per input row. The batch does not alias the input.
//
// The batch is built column by column: every level first settles validity
// from its parent and its null bits, then sizes each buffer from counts and
// sizes already checked against the bytes present, allocates it once, and
// fills it. Bad bytes yield a *rowbridge.DecodeError naming the row, the
// field path and the byte offset (within the row) of the word, count or
// value at fault. A null bit set for a value declared NOT NULL (a field,
// list element or map value of a valid parent; map keys always are), other
// than of the null type, is an ErrLayout at the byte holding the bit, as in
// compactrow. Row-level problems (a row shorter than its fixed region,
// not a multiple of 8 bytes, or longer than the fixed region when every
// field is fixed-width, none of which Spark and Velox write) carry an empty
// field path and the row's length as the offset.
//
// Bytes that prove the schema wrong are refused rather than decoded into
// garbage (see docs/formats.md for what cannot be detected): a null bit set
// past a struct's field count or an array's element count, an offset/size
// word pointing into its owner's null bits and slots (or element words) or
// not at a multiple of 8 from its owner's start, a nested struct whose size
// is not a multiple of 8, and an array of fixed-width elements whose size is
// neither header+count*width (Velox) nor that rounded up to 8 (Spark).
func (d *Decoder) Decode(rows [][]byte) (arrow.RecordBatch, error) {
	sc := d.pool.Get().(*scratch)
	defer d.pool.Put(sc)
	return d.decode(sc, columnar.RowRefs(rows))
}

// decode is Decode of the rows located by rows, which are kept in sc.
func (d *Decoder) decode(sc *scratch, rows []columnar.RowRef) (arrow.RecordBatch, error) {
	sc.reset()
	st := decodeState{rows: rows, mem: d.mem, sc: sc}
	if int64(len(rows)) > math.MaxInt32 {
		return nil, rowError(0, -1, fmt.Errorf("%w: %d rows in one batch", rowbridge.ErrCount, len(rows)))
	}
	nfields := len(d.plan.Fields)
	fixed := structHeaderBytes(nfields)
	spans := sc.push(len(rows))
	defer sc.pop(len(rows))
	last, mask := unusedFieldBits(nfields)
	budget, bad := rowSpans(rows, fixed, d.fixedOnly, spans, last, mask)
	if bad >= 0 {
		if n := rows[bad].Len(); rowSizeOK(n, fixed, d.fixedOnly) {
			// A null bit set past the last field: a later row of a bad
			// size is reported first, as the sizes are checked first.
			_, later := rowSpans(rows[bad+1:], fixed, d.fixedOnly, spans[bad+1:], 0, 0)
			if later < 0 {
				return nil, st.checkUnusedBits("", nfields, []span{{row: int32(bad), start: 0, end: int32(n)}})
			}
			bad += 1 + later
		}
		n := rows[bad].Len()
		switch {
		case n < fixed:
			return nil, rowError(bad, n, fmt.Errorf("%w: row of %d bytes, fixed region needs %d", rowbridge.ErrTruncated, n, fixed))
		case n%8 != 0:
			return nil, rowError(bad, n, fmt.Errorf("%w: row of %d bytes is not a multiple of 8", rowbridge.ErrLayout, n))
		case d.fixedOnly && n <= math.MaxInt32:
			return nil, rowError(bad, n, fmt.Errorf("%w: row of %d bytes; its %d fields are all fixed-width and take exactly %d",
				rowbridge.ErrLayout, n, nfields, fixed))
		default:
			return nil, rowError(bad, n, fmt.Errorf("%w: row of %d bytes exceeds 2^31-1", rowbridge.ErrLayout, n))
		}
	}
	st.budget = budget

	cols := make([]arrow.ArrayData, nfields)
	if err := st.decodeFields("", d.plan.Fields, spans, cols, true); err != nil {
		return nil, err
	}
	return columnar.NewRecordBatch(d.plan.Schema, len(rows), cols), nil
}

// rowSpans fills spans with the whole rows and returns their total size.
// It stops at the first row that is shorter than fixed, longer when exact
// (every field is fixed-width), not a multiple of 8 bytes or longer than
// 2^31-1, or has a bit of mask set in its null bitset word at byte last
// (unusedFieldBits), and returns its index as bad (-1 when there is
// none); Decode builds the error, so that the loop stays a tight leaf.
//
// When it finds no bad row, every row is at least fixed bytes (its null
// bitset and one slot per field): this is the check that lets the loops
// over the top-level rows (fieldSlot.top) read null bits and slots with
// columnar.LoadFixed. The bitset word read here lies in a row already
// found to be that long.
func rowSpans(rows []columnar.RowRef, fixed int, exact bool, spans []span, last int, mask uint64) (budget int64, bad int) {
	spans = spans[:len(rows)]
	if exact && mask != 0 {
		// Every row is exactly the fixed region (a multiple of 8 below
		// 2^31), in which the bitset word lies.
		for k, r := range rows {
			if r.Len() != fixed || columnar.LoadFixed[uint64](r, last)&mask != 0 {
				return 0, k
			}
			spans[k] = span{row: int32(k), start: 0, end: int32(fixed)}
		}
		return int64(fixed) * int64(len(rows)), -1
	}
	for k, r := range rows {
		n := r.Len()
		// A row of a schema without fields has no bitset (mask is 0).
		if !rowSizeOK(n, fixed, exact) || mask != 0 && columnar.LoadFixed[uint64](r, last)&mask != 0 {
			return 0, k
		}
		budget += int64(n)
		spans[k] = span{row: int32(k), start: 0, end: int32(n)}
	}
	return budget, -1
}

// rowSizeOK reports whether a row of n bytes has the size rowSpans wants.
func rowSizeOK(n, fixed int, exact bool) bool {
	return n >= fixed && n%8 == 0 && n <= math.MaxInt32 && (!exact || n == fixed)
}

// span locates one value in the input: bytes [start, end) of rows[row]. The
// region has been checked against its enclosing region. A null value has
// start < 0 and is never read.
type span struct{ row, start, end int32 }

var nullSpan = span{row: -1, start: -1, end: -1}

func (s span) isNull() bool { return s.start < 0 }

// scratch is the per-call working memory, reused across calls through the
// Decoder's pool. It holds no pointers into the input, only positions,
// but for DecodeRows' row references, cleared before it goes back.
type scratch struct {
	refs  []columnar.RowRef // the call's rows, cleared when it returns
	spans []span
	top   int
	bits  []byte // a slot loop's validity bits, copied out when it met a null
	tmp   []byte // values gathered before they are copied to a buffer of the size found
}

// copyBytes is scratch memory of n bytes (arbitrary contents), kept for
// the next call.
func (sc *scratch) copyBytes(n int) []byte {
	if cap(sc.tmp) < n {
		sc.tmp = make([]byte, n)
	}
	return sc.tmp[:n]
}

// validityBits is the scratch bitmap for n entries (its bytes arbitrary).
func (sc *scratch) validityBits(n int) []byte {
	nb := (n + 7) / 8
	if cap(sc.bits) < nb {
		sc.bits = make([]byte, nb)
	}
	return sc.bits[:nb]
}

func (sc *scratch) reset() { sc.top = 0 }

// rowRefs is room for the RowRefs of n rows, kept for the next call; the
// caller clears them before the scratch goes back to the pool.
func (sc *scratch) rowRefs(n int) []columnar.RowRef {
	if cap(sc.refs) < n {
		sc.refs = make([]columnar.RowRef, n)
	}
	return sc.refs[:n]
}

// push hands out n spans on a stack; levels are decoded depth first, so
// their span lists are released in reverse order of allocation with pop.
// n is never larger than a count already checked against the input.
func (sc *scratch) push(n int) []span {
	if sc.top+n > len(sc.spans) {
		// Slices handed out earlier keep the old array; only new pushes
		// land in the bigger one, which the next call reuses.
		sc.spans = make([]span, max(2*len(sc.spans), sc.top+n, 64))
	}
	s := sc.spans[sc.top : sc.top+n : sc.top+n]
	sc.top += n
	return s
}

func (sc *scratch) pop(n int) { sc.top -= n }

// decodeState is what one Decode call works with.
type decodeState struct {
	rows []columnar.RowRef // row k of the batch
	mem  memory.Allocator
	sc   *scratch
	// budget is the total input size. In well-formed rows the values of one
	// level never share bytes, so the sizes of one level's values add up to
	// at most this; more means overlapping regions, which would let a small
	// input announce an enormous output.
	budget int64
}

// rowError is a failure that belongs to the row as a whole.
func rowError(row, offset int, err error) *rowbridge.DecodeError {
	return &rowbridge.DecodeError{Row: row, Offset: offset, Err: err}
}

// fail reports a failure at byte offset of the given row in the value at path.
func fail(row int32, path string, offset int64, sentinel error, format string, args ...any) *rowbridge.DecodeError {
	return &rowbridge.DecodeError{Row: int(row), Field: path, Offset: int(offset),
		Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}

// decodeValue decodes the variable-length values located by spans (one per
// output entry) as the node's type.
func (st *decodeState) decodeValue(n *columnar.Node, spans []span) (arrow.ArrayData, error) {
	switch n.Kind {
	case columnar.KindString, columnar.KindBinary:
		return st.decodeBinary(n, spans)
	case columnar.KindDecimal:
		return st.decodeLongDecimal(n, spans)
	case columnar.KindStruct:
		return st.decodeStruct(n, spans)
	case columnar.KindList:
		return st.decodeList(n, spans)
	case columnar.KindMap:
		return st.decodeMap(n, spans)
	}
	return nil, fmt.Errorf("unsaferow: %w: %s is not a variable-length kind", rowbridge.ErrInternal, n.Kind)
}

// isInline reports whether the node's value lives in its 8-byte slot (or
// array element) rather than behind an offset/size word.
func isInline(n *columnar.Node) bool {
	return n.Kind.IsPrimitive() && !n.IsLongDecimal()
}

// columnBytes is the size of n values of width bytes. Every count is
// checked against the input before anything is allocated, but on 32-bit
// platforms the product can still pass 2^31-1 (a decimal column of 2^27
// values from 1 GiB of rows): that is an error, never a wrapped size.
func columnBytes(n, width int) (int, bool) {
	b := int64(n) * int64(width)
	return int(b), b <= math.MaxInt
}

// columnTooBig is columnBytes' error, at the last valid entry of spans.
func columnTooBig(spans []span, path string, n, width int) error {
	row := int32(0)
	for k := len(spans) - 1; k >= 0; k-- {
		if !spans[k].isNull() {
			row = spans[k].row
			break
		}
	}
	return fail(row, path, -1, rowbridge.ErrLayout,
		"%d values of %d bytes do not fit in this platform's address space", n, width)
}

// fixedOnly reports whether every field lives in its slot, so that a struct
// of these fields is exactly its null bitset and slots: Spark and Velox
// write nothing after them.
func fixedOnly(fields []*columnar.Node) bool {
	for _, f := range fields {
		if !isInline(f) && f.Kind != columnar.KindNull {
			return false
		}
	}
	return true
}

// nwords is the number of 64-bit null words for n entries.
func nwords(n int64) int64 { return (n + 63) >> 6 }

// structHeaderBytes is the null bitset plus one slot per field.
func structHeaderBytes(nfields int) int { return 8*int(nwords(int64(nfields))) + 8*nfields }

// checkMapKeys rejects maps whose keys can only be null (Arrow map keys
// are never null).
func checkMapKeys(nodes []*columnar.Node) error {
	for _, n := range nodes {
		if n.Kind == columnar.KindMap && n.Children[0].Kind == columnar.KindNull {
			return fmt.Errorf("field %s: %w: map keys of the null type", n.Path, rowbridge.ErrUnsupportedType)
		}
		if err := checkMapKeys(n.Children); err != nil {
			return err
		}
	}
	return nil
}

func releaseAll(ds []arrow.ArrayData) {
	for i, c := range ds {
		if c != nil {
			c.Release()
			ds[i] = nil
		}
	}
}
