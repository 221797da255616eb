package unsaferow

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/arrowconv"
	"github.com/rowbridge/rowbridge/internal/rowopt"
)

// Encoder turns Arrow record batches into UnsafeRow bytes, one row per
// record row, in the flavour chosen with WithFlavor (default Spark).
//
// Encoding runs in two passes over the columns: the first adds up every
// row's size column by column, the output grows once and is zeroed, and the
// second writes each column at the places the sizes fixed. Zeroing the
// output up front is what makes every gap, pad and null slot zero, as both
// Spark and Velox leave them.
//
// Value rules, beyond the plain mapping of docs/row-layout.md, "Arrow types of decoded columns":
//   - A decimal whose unscaled value does not fit its declared precision is
//     an EncodeError wrapping rowbridge.ErrValue (Spark would have nulled it
//     when it was computed, and the decoders reject it).
//   - A null map key, or a null in a field, list element or map value
//     declared NOT NULL (other than of the null type) whose parents are
//     valid, is an EncodeError wrapping rowbridge.ErrValue, as in compactrow.
//   - In the Velox flavour null array elements are written as zero bytes
//     (Velox's bulk copy may leave source bytes there; readers ignore them).
//
// An Encoder is safe for concurrent use; its per-call scratch lives in a
// sync.Pool.
type Encoder struct {
	in     *arrowconv.Input // converts and checks the batches given
	spark  bool
	fields []*encField // top-level columns
	header int         // null bitset bytes of a row
	fixed  int         // bitset + slots: the size of a row with no variable data
	vars   []int       // indices of the columns that use the variable region
	pool   sync.Pool
}

// encScratch is the per-call state: one view per column and the per-row
// variable-region cursors.
type encScratch struct {
	cols   []encView
	cursor []int
	w      encWalker
}

// maxEncodedRowSize bounds a row: every offset and size inside it is a 32-bit word.
const maxEncodedRowSize = math.MaxInt32

// NewEncoder prepares an encoder for record batches of the given schema.
// Columns of the Arrow types producers write beyond the row format's own
// (timestamps in any unit, large, view and dictionary-encoded columns,
// unsigned integers, float16, date64, other decimal widths, other list
// layouts) are converted column by column before encoding, as RowSchema
// says; see WithTruncate for values a conversion would lose. Types without
// an UnsafeRow counterpart fail with rowbridge.ErrUnsupportedType.
func NewEncoder(schema *arrow.Schema, opts ...Option) (*Encoder, error) {
	return rowopt.Build(pkgName, rowopt.ForEncoder, schema, opts, newEncoder)
}

// newEncoder is NewEncoder with its options applied.
func newEncoder(schema *arrow.Schema, cfg *config) (*Encoder, error) {
	flavor := Flavor(cfg.Flavor)
	in, err := arrowconv.NewInput(pkgName, schema, cfg.Truncate, cfg.Mem)
	if err != nil {
		return nil, err
	}
	plan := in.Plan
	e := &Encoder{in: in, spark: flavor == Spark}
	e.fields = make([]*encField, len(plan.Fields))
	for i, n := range plan.Fields {
		e.fields[i] = newEncField(n, flavor)
		if e.fields[i].variable {
			e.vars = append(e.vars, i)
		}
	}
	e.header = nullBitsetBytes(len(e.fields))
	e.fixed = e.header + 8*len(e.fields)
	e.pool.New = func() any {
		s := &encScratch{cols: make([]encView, len(e.fields))}
		for i, f := range e.fields {
			s.cols[i] = newEncView(f)
		}
		return s
	}
	return e, nil
}

// appendRows is AppendRows of a batch of the row types.
func (e *Encoder) appendRows(dst rowbridge.Rows, rec arrow.RecordBatch) (rowbridge.Rows, error) {
	n := int(rec.NumRows())
	if n == 0 {
		return dst, nil
	}
	dataLen, offsLen := len(dst.Data), len(dst.Offsets)
	dst.Offsets = slices.Grow(dst.Offsets, n+1)
	if offsLen == 0 {
		dst.Offsets = append(dst.Offsets, dataLen)
	}
	base := len(dst.Offsets) - 1
	dst.Offsets = dst.Offsets[:base+1+n]

	s := e.pool.Get().(*encScratch)
	defer e.release(s)
	for i := range s.cols {
		s.cols[i].bind(rec.Column(i).Data())
	}
	w := &s.w
	*w = encWalker{spark: e.spark}
	if e.checkNotNull(w, s.cols, n); w.err != nil {
		return rollbackRows(dst, dataLen, offsLen), w.err
	}

	// Sizes: dst.Offsets[base+1+i] holds row i's size, then its end.
	sizes := dst.Offsets[base+1:]
	e.sizeRows(w, s.cols, sizes)
	if w.err != nil {
		return rollbackRows(dst, dataLen, offsLen), w.err
	}
	end := dst.Offsets[base]
	for i, sz := range sizes {
		if sz > maxEncodedRowSize {
			return rollbackRows(dst, dataLen, offsLen), &rowbridge.EncodeError{Row: i,
				Err: fmt.Errorf("%w: row of %d bytes exceeds the 2 GiB UnsafeRow limit", rowbridge.ErrValue, sz)}
		}
		end += sz
		sizes[i] = end
	}

	dst.Data = growZeroed(dst.Data, end)
	s.cursor = slices.Grow(s.cursor[:0], n)[:n]
	e.writeRows(w, s, dst.Data, dst.Offsets[base:base+1+n])
	if w.err != nil {
		return rollbackRows(dst, dataLen, offsLen), w.err
	}
	return dst, nil
}

// release drops the scratch's references to the batch and pools it.
func (e *Encoder) release(s *encScratch) {
	for i := range s.cols {
		s.cols[i].unbind()
	}
	e.pool.Put(s)
}

func rollbackRows(dst rowbridge.Rows, dataLen, offsLen int) rowbridge.Rows {
	dst.Data = dst.Data[:dataLen]
	dst.Offsets = dst.Offsets[:offsLen]
	return dst
}

// growZeroed extends b to length n with zero bytes, allocating at most once.
func growZeroed(b []byte, n int) []byte {
	old := len(b)
	if n <= cap(b) {
		b = b[:n]
		clear(b[old:])
		return b
	}
	nb := make([]byte, n, max(n, 2*cap(b)))
	copy(nb, b)
	return nb
}

// nullBitsetBytes is the size of an UnsafeRow null bitset for n entries.
func nullBitsetBytes(n int) int { return (n + 63) / 64 * 8 }

func padTo8(n int) int { return (n + 7) &^ 7 }

// Encode encodes every row of rec into a fresh Rows.
func (e *Encoder) Encode(rec arrow.RecordBatch) (rowbridge.Rows, error) {
	return e.AppendRows(rowbridge.Rows{}, rec)
}

// AppendRows appends the rows of rec to dst, reusing dst's memory when it
// has the capacity, and returns the extended Rows. dst.Offsets must be empty
// or end at len(dst.Data). On error dst is returned with its original
// lengths (bytes past them may have been overwritten).
func (e *Encoder) AppendRows(dst rowbridge.Rows, rec arrow.RecordBatch) (rowbridge.Rows, error) {
	return e.in.Append(dst, rec, e.appendRows)
}

// Schema is the schema the encoder was made for: that of the batches it encodes.
func (e *Encoder) Schema() *arrow.Schema { return e.in.Schema() }

// RowSchema is the schema of the rows: Schema with every column converted
// to its row-format type (timestamp[us], utf8, list, ...), which is what a
// Decoder of the rows gives back. It is Schema when nothing converts.
func (e *Encoder) RowSchema() *arrow.Schema { return e.in.RowSchema() }
