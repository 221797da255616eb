package unsaferow

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Arrays (docs/row-layout.md, "UnsafeRow arrays"): numElements int64, an element null bitset of
// 8*ceil(n/64) bytes, the element region, then variable-length payloads.
// Decoding is two passes: counts (checked against each array's size) give
// the Arrow offsets and the exact element total, then every element column
// is filled at once for the whole level.

// elemWidth is an element's width in the element region: its RowWidth,
// or an 8-byte offset/size word for what lives out of line (long decimals
// too). NullType elements are never read, so whatever Spark (8) or Velox
// (0) reserved is accepted.
func elemWidth(e *columnar.Node) int64 {
	if w := e.Kind.RowWidth(); w != columnar.VarWidth {
		return int64(w)
	}
	return 8
}

// arrayHeader is the byte length of the count word and null bitset.
func arrayHeader(count int64) int64 { return 8 + 8*nwords(count) }

// elemLayout is how the elements of an array are laid out, and so which
// sizes the array may have beyond the header+count*width it needs.
type elemLayout struct {
	width int64 // bytes per element in the element region
	// slack is the most bytes the array may have beyond what it needs, and
	// align the mask of the low bits that must be zero in a size that has
	// any: fixed-width values end the array, which is exactly what it needs
	// (Velox) or that rounded up to 8 (Spark); offset/size words are
	// followed by 8-aligned values, so the array is a multiple of 8.
	slack, align int64
}

// layoutOf is the element layout of arrays of e. NullType elements are
// never read, so whatever Spark (8 bytes each) or Velox (none) reserved is
// accepted: their arrays are only checked to hold the header.
func layoutOf(e *columnar.Node) elemLayout {
	switch {
	case e.Kind == columnar.KindNull:
		return elemLayout{slack: math.MaxInt64}
	case isInline(e):
		return elemLayout{width: elemWidth(e), slack: 7, align: 7}
	}
	return elemLayout{width: 8, slack: math.MaxInt64, align: 7}
}

// arrayCount reads the element count of the array at s and checks that its
// header and element region fit in the array's bytes (so no count is ever
// trusted beyond the bytes present), then arrayShapeOK. On failure
// arrayCountError says why.
func (st *decodeState) arrayCount(s span, el elemLayout) (int64, bool) {
	r := st.rows[s.row].Bytes()
	c, ok := countAt(r, s, el.width)
	return c, ok && arrayShapeOK(r, s, c, el)
}

// arrayShapeOK checks what Spark and Velox both guarantee of an array of c
// elements that fits its bytes: its size is one its element layout allows,
// and no null bit is set past the count in the last bitset word. Sizes are
// computed in int64 from a count below 2^31, so nothing overflows on 32-bit
// platforms.
func arrayShapeOK(r []byte, a span, c int64, el elemLayout) bool {
	size := int64(a.end - a.start)
	d := size - (arrayHeader(c) + c*el.width)
	if d > el.slack || (d != 0 && size&el.align != 0) {
		return false
	}
	last := a.start + 8*int32(nwords(c)) // the last bitset word; the count word when c == 0
	return binary.LittleEndian.Uint64(r[last:last+8])&unusedBits(c) == 0
}

func (st *decodeState) arrayCountError(s span, el elemLayout, path string) error {
	r := st.rows[s.row].Bytes()
	size := int64(s.end - s.start)
	if size < 8 {
		return fail(s.row, path, int64(s.start), rowbridge.ErrTruncated,
			"array of %d bytes has no element count", size)
	}
	c := int64(binary.LittleEndian.Uint64(r[s.start : s.start+8]))
	if c < 0 || c > math.MaxInt32 {
		return fail(s.row, path, int64(s.start), rowbridge.ErrCount, "element count %d", c)
	}
	need := arrayHeader(c) + c*el.width
	switch {
	case need > size:
		return fail(s.row, path, int64(s.start), rowbridge.ErrCount,
			"%d elements of %d bytes do not fit in a %d-byte array", c, el.width, size)
	case el.slack == 7 && size != need && size != roundUp8(need):
		return fail(s.row, path, int64(s.start), rowbridge.ErrLayout,
			"array of %d bytes, but %d elements of %d bytes take %d (%d padded)", size, c, el.width, need, roundUp8(need))
	case size != need && size&el.align != 0:
		return fail(s.row, path, int64(s.start), rowbridge.ErrLayout,
			"array of %d variable-length elements has %d bytes, not a multiple of 8", c, size)
	}
	for j := c; j < 64*nwords(c); j++ {
		if at := int64(s.start) + 8 + j>>3; r[at]&(1<<(j&7)) != 0 {
			return fail(s.row, path, at, rowbridge.ErrLayout,
				"null bit %d is set, but the array has %d elements", j, c)
		}
	}
	return fail(s.row, path, int64(s.start), rowbridge.ErrCount, "element count %d", c)
}

// roundUp8 rounds n up to a multiple of 8.
func roundUp8(n int64) int64 { return (n + 7) &^ 7 }

// countArrays is the first pass over a level of arrays: it marks null
// arrays, checks each array (arrayCount), writes the Arrow offsets and
// returns the element total, and whether any element may be null (false
// means none is: the element passes then skip the null bitsets). The loop
// only counts; the error is built after it, so that what the error needs
// does not crowd the loop's registers.
func (st *decodeState) countArrays(spans []span, el elemLayout, path string, offs []int32, v *columnar.Validity) (int, bool, error) {
	total, nulls, bad := countLevel(st.rows, spans, el, offs, v)
	if bad < 0 {
		return int(total), nulls != 0, nil
	}
	s := spans[bad]
	if _, ok := st.arrayCount(s, el); !ok {
		return 0, false, st.arrayCountError(s, el, path)
	}
	return 0, false, fail(s.row, path, int64(s.start), rowbridge.ErrCount,
		"more than 2^31-1 elements in one column")
}

// unusedBits masks the bits past c in the last word of a bitset of c bits
// (none when c is a multiple of 64, or 0) without a branch on c: arrays of
// random 0 or 1 elements would mispredict it. A shift by 64 gives 0.
func unusedBits(c int64) uint64 { return ^uint64(0) << (((c - 1) & 63) + 1) }

// countLevel counts the arrays for countArrays. It stops at the first array
// whose count does not fit it or takes the total past 2^31-1 and returns
// its index as bad (-1 when there is none). Null arrays are marked here,
// between runs of countRun, so that loop makes no call. nulls is non-zero
// when an element may be null (see countRun).
func countLevel(rows []columnar.RowRef, spans []span, el elemLayout, offs []int32, v *columnar.Validity) (total int64, nulls uint64, bad int) {
	offs = offs[:len(spans)+1]
	for k := 0; ; k++ {
		k, total, nulls = countRun(rows, spans, el, offs, k, total, nulls)
		if k == len(spans) {
			return total, nulls, -1
		}
		if !spans[k].isNull() {
			return 0, 0, k
		}
		v.SetNull(k)
		offs[k+1] = int32(total)
	}
}

// countRun writes the offsets of the arrays from index k on, the element
// total so far being total, up to the first null array or array countLevel
// stops at, and returns its index (len(spans) at the end) and the total
// before it. It is arrayCount written out, so that the loop makes no call
// and no branch on the count, which is random in arrays of 0 or 1 elements
// and would be mispredicted. nulls gathers the null bits of arrays of up
// to 63 elements (their last bitset word is their only one) and, for
// longer arrays, a non-zero value whatever their bits: zero means no
// element of the level is null.
func countRun(rows []columnar.RowRef, spans []span, el elemLayout, offs []int32, k int, total int64, nulls uint64) (int, int64, uint64) {
	offs = offs[:len(spans)+1]
	for ; k < len(spans); k++ {
		s := spans[k]
		if s.isNull() {
			return k, total, nulls
		}
		r := rows[s.row].Bytes()
		size := int64(s.end - s.start)
		if size < 8 {
			return k, total, nulls
		}
		c := int64(columnar.Load[uint64](r, int(s.start)))
		if uint64(c) > math.MaxInt32 {
			return k, total, nulls
		}
		d := size - (arrayHeader(c) + c*el.width)
		if uint64(d) > uint64(el.slack) { // d < 0 is huge
			return k, total, nulls
		}
		// With d >= 0 the bitset is there. Stray null bits and slack in a
		// size with unaligned low bits are ORed, so that one branch tests
		// both (size&align <= 7 and d < 2^32: the product cannot wrap).
		last := int(s.start) + 8*int(nwords(c))
		word, unused := columnar.Load[uint64](r, last), unusedBits(c)
		if word&unused|uint64(size&el.align)*uint64(d) != 0 || total+c > math.MaxInt32 {
			return k, total, nulls
		}
		// For c == 0 the word is the count, 0.
		nulls |= word&^unused | uint64(c>>6)
		total += c
		offs[k+1] = int32(total)
	}
	return k, total, nulls
}

// countAt reads the count of an array in row r and checks that its header
// and c elements of width bytes fit in it. The sizes are int64 and the count
// is below 2^31 before it is multiplied, so nothing wraps on 32-bit
// platforms.
func countAt(r []byte, a span, width int64) (int64, bool) {
	if a.end-a.start < 8 {
		return 0, false
	}
	c := int64(binary.LittleEndian.Uint64(r[a.start : a.start+8]))
	if uint64(c) > math.MaxInt32 || arrayHeader(c)+c*width > int64(a.end-a.start) {
		return 0, false
	}
	return c, true
}

// decodeList decodes the arrays located by spans as an Arrow list.
func (st *decodeState) decodeList(n *columnar.Node, spans []span) (arrow.ArrayData, error) {
	e := n.Children[0]
	var v columnar.Validity
	v.Reset(st.mem, len(spans))
	offBuf, offs := columnar.NewOffsets(st.mem, len(spans))
	elems, err := st.listElements(e, n.Path, spans, offs, &v)
	if err != nil {
		v.Release()
		offBuf.Release()
		return nil, err
	}
	validity, nulls := v.Finish()
	return columnar.NewListData(n.Type, len(spans), validity, nulls, offBuf, elems), nil
}

// listElements counts the arrays in spans into offs, marking null arrays
// in v, and decodes their elements.
func (st *decodeState) listElements(e *columnar.Node, path string, spans []span, offs []int32, v *columnar.Validity) (arrow.ArrayData, error) {
	if wordElements(e) {
		buf, total, nulls, ok, err := st.countCopyArrays(e, spans, path, offs, v)
		if err != nil {
			return nil, err
		}
		if ok {
			return st.wordElementData(e, spans, offs, total, nulls, false, buf)
		}
	}
	total, nulls, err := st.countArrays(spans, layoutOf(e), path, offs, v)
	if err != nil {
		return nil, err
	}
	return st.decodeElements(e, spans, offs, total, nulls, false)
}

// elementBits is the null bitset of an array with c elements starting at p.
func elementBits(r []byte, p int32, c int32) []byte {
	return r[p+8 : p+int32(arrayHeader(int64(c)))]
}

// hasNulls reports whether any of the first c bits of a null bitset (of
// 8*nwords(c) bytes) is set; unused trailing bits are ignored.
func hasNulls(bits []byte, c int32) bool {
	if c <= 64 { // the common case: one word
		return len(bits) >= 8 && binary.LittleEndian.Uint64(bits)&(^uint64(0)>>(64-c)) != 0
	}
	for len(bits) >= 8 {
		if binary.LittleEndian.Uint64(bits) != 0 {
			return true
		}
		bits = bits[8:]
	}
	return false
}

func bitSet(bits []byte, j int32) bool { return bits[j>>3]&(1<<(j&7)) != 0 }

// decodeElements decodes the elements of a level of arrays (spans, already
// counted into offs) as one column of total entries; nulls false says
// countArrays found no null bit set. For map keys, which Arrow requires to
// be non-null, and elements declared NOT NULL, a set null bit is an error.
func (st *decodeState) decodeElements(e *columnar.Node, arrays []span, offs []int32, total int, nulls, keys bool) (arrow.ArrayData, error) {
	if nulls && (keys || notNull(e)) {
		if err := st.checkNoNulls(e, arrays, offs, keys); err != nil {
			return nil, err
		}
	}
	switch {
	case e.Kind == columnar.KindNull:
		return columnar.NewNullData(total), nil
	case isInline(e):
		return st.decodeInlineElements(e, arrays, offs, total, nulls)
	}
	if wordListElements(e) {
		if d, ok := st.decodeWordLists(e, arrays, offs, total, nulls); ok {
			return d, nil
		}
	}
	child := st.sc.push(total)
	defer st.sc.pop(total)
	if bad, at, used := resolveElementWords(st.rows, arrays, offs, child, st.budget, nulls); bad >= 0 {
		s := arrays[bad]
		c := int64(offs[bad+1] - offs[bad])
		return nil, st.wordError(st.rows[s.row].Bytes(), s, at, int32(arrayHeader(c)+8*c), e.Path, used)
	}
	return st.decodeValue(e, child)
}

// resolveElementWords is decodeElements' pass over the offset/size words
// of a level of arrays: it fills child with the spans of the elements. It
// stops at the first word that fails resolveWord and returns its array's
// index as bad (-1 when there is none), its byte offset and the size total
// so far, for the error, which is built by the caller so that what it needs
// does not crowd the loop's registers.
func resolveElementWords(rows []columnar.RowRef, arrays []span, offs []int32, child []span, budget int64, nulls bool) (bad int, at int32, used int64) {
	for k, s := range arrays {
		if s.isNull() {
			continue
		}
		first, c := offs[k], offs[k+1]-offs[k]
		if c == 0 {
			continue
		}
		r := rows[s.row].Bytes()
		bits := elementBits(r, s.start, c)
		words := s.start + 8 + int32(len(bits))
		varStart := words - s.start + 8*c // values follow the element words
		dst := child[first : first+c]
		if !nulls || !hasNulls(bits, c) {
			for j := range dst {
				p := words + 8*int32(j)
				x, ok := resolveWord(r, s, p, varStart, &used, budget)
				if !ok {
					return k, p, used
				}
				dst[j] = x
			}
			continue
		}
		for j := range dst {
			if bitSet(bits, int32(j)) {
				dst[j] = nullSpan
				continue
			}
			p := words + 8*int32(j)
			x, ok := resolveWord(r, s, p, varStart, &used, budget)
			if !ok {
				return k, p, used
			}
			dst[j] = x
		}
	}
	return -1, 0, used
}

// checkNoNulls fails at the bitset byte of the first null element of the
// arrays (keys says they are map keys, for the message). Arrays whose
// bitset words are all zero are passed over a word at a time.
func (st *decodeState) checkNoNulls(e *columnar.Node, arrays []span, offs []int32, keys bool) error {
	for k, s := range arrays {
		if s.isNull() {
			continue
		}
		c := offs[k+1] - offs[k]
		bits := elementBits(st.rows[s.row].Bytes(), s.start, c)
		if !hasNulls(bits, c) {
			continue
		}
		for j := int32(0); j < c; j++ {
			if !bitSet(bits, j) {
				continue
			}
			at := int64(s.start + 8 + j>>3)
			if keys {
				return fail(s.row, e.Path, at, rowbridge.ErrLayout, "map key %d is null", j)
			}
			return fail(s.row, e.Path, at, rowbridge.ErrLayout, "element %d is null but declared NOT NULL", j)
		}
	}
	return nil
}

// decodeInlineElements fills a fixed-width element column: each array's
// element region is copied in one piece (the row format and Arrow agree on
// little-endian values), then, when countArrays saw a null bit (nulls),
// null elements, whose bytes may be garbage in Velox output, are zeroed.
func (st *decodeState) decodeInlineElements(e *columnar.Node, arrays []span, offs []int32, total int, nulls bool) (arrow.ArrayData, error) {
	var v columnar.Validity
	v.Reset(st.mem, total)
	if e.Kind == columnar.KindBool {
		buf := columnar.NewZeroedBuffer(st.mem, int(bitutil.BytesForBits(int64(total))))
		out := buf.Bytes()
		for k, s := range arrays {
			if s.isNull() {
				continue
			}
			r := st.rows[s.row].Bytes()
			first, c := offs[k], offs[k+1]-offs[k]
			bits := elementBits(r, s.start, c)
			vals := r[s.start+8+int32(len(bits)):][:c]
			for j, b := range vals {
				i := first + int32(j)
				switch {
				case bitSet(bits, int32(j)):
					v.SetNull(int(i))
				case b != 0:
					out[i>>3] |= 1 << (i & 7)
				}
			}
		}
		validity, nulls := v.Finish()
		return columnar.NewFixedData(e.Type, total, validity, nulls, buf), nil
	}
	width := e.Kind.ValueWidth()
	size, ok := columnBytes(total, width)
	if !ok {
		v.Release()
		return nil, columnTooBig(arrays, e.Path, total, width)
	}
	if e.Kind == columnar.KindDecimal {
		return st.decodeShortDecimalElements(e, arrays, offs, total, &v)
	}
	buf := columnar.NewBuffer(st.mem, size)
	out := buf.Bytes()
	copyElements(st.rows, arrays, offs, out, width)
	if nulls {
		clearNulls(st.rows, arrays, offs, out, int32(width), &v)
	}
	validity, nullCount := v.Finish()
	return columnar.NewFixedData(e.Type, total, validity, nullCount, buf), nil
}

// copyElements copies the element regions of the arrays, width bytes an
// element, into out, which they fill. A region of at most 8 bytes (the
// inner arrays of ARRAY(ARRAY(BIGINT)) hold 0 or 1 element) is copied as
// one whole word whenever the row and out have the room, so that no branch
// depends on its count, which is random there and would be mispredicted:
// the bytes written past the region belong to later arrays, which are
// written after it. Longer regions are one copy each.
func copyElements(rows []columnar.RowRef, arrays []span, offs []int32, out []byte, width int) {
	offs = offs[:len(arrays)+1]
	var r []byte
	row := int32(-1)
	for k, s := range arrays {
		if s.start < 0 {
			continue
		}
		if s.row != row { // consecutive arrays mostly share a row
			r, row = rows[s.row].Bytes(), s.row
		}
		first, c := int(offs[k]), int(offs[k+1]-offs[k])
		at := int(s.start) + 8 + 8*((c+63)>>6)
		n := c * width // fits: the region is inside the row
		dst := out[first*width:]
		if n <= 8 && len(dst) >= 8 && len(r)-at >= 8 {
			binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(r[at:]))
			continue
		}
		copy(dst[:n], r[at:at+n])
	}
}

// clearNulls zeroes the null elements of the arrays in out and marks them
// in v.
func clearNulls(rows []columnar.RowRef, arrays []span, offs []int32, out []byte, w int32, v *columnar.Validity) {
	for k, s := range arrays {
		if s.isNull() {
			continue
		}
		first, c := offs[k], offs[k+1]-offs[k]
		if c == 0 {
			continue
		}
		r := rows[s.row].Bytes()
		bits := elementBits(r, s.start, c)
		if hasNulls(bits, c) {
			clearNullElements(bits, c, out[int(first)*int(w):int(first+c)*int(w)], w, int(first), v)
		}
	}
}

// clearNullElements zeroes the null elements of one array in dst (their
// bytes may be garbage in Velox output) and marks them in v; the array's
// first element is entry first of the level.
func clearNullElements(bits []byte, c int32, dst []byte, w int32, first int, v *columnar.Validity) {
	for j := int32(0); j < c; j++ {
		if bitSet(bits, j) {
			clear(dst[j*w : (j+1)*w])
			v.SetNull(first + int(j))
		}
	}
}

// decodeShortDecimalElements widens int64 elements to decimal128.
func (st *decodeState) decodeShortDecimalElements(e *columnar.Node, arrays []span, offs []int32, total int, v *columnar.Validity) (arrow.ArrayData, error) {
	buf := columnar.NewBuffer(st.mem, 16*total) // checked by decodeInlineElements
	out := columnar.Cast[uint64](buf.Bytes())
	for k, s := range arrays {
		if s.isNull() {
			continue
		}
		r := st.rows[s.row].Bytes()
		first, c := offs[k], offs[k+1]-offs[k]
		bits := elementBits(r, s.start, c)
		at := s.start + 8 + int32(len(bits))
		for j := int32(0); j < c; j++ {
			i := int(first + j) // 2*i is past 2^31 for 2^30 elements
			if bitSet(bits, j) {
				out[2*i], out[2*i+1] = 0, 0
				v.SetNull(i)
				continue
			}
			p := at + 8*j
			x := int64(binary.LittleEndian.Uint64(r[p : p+8]))
			if !e.Limit.ShortOK(x) {
				buf.Release()
				v.Release()
				return nil, fail(s.row, e.Path, int64(p), rowbridge.ErrDecimal,
					"unscaled value %d exceeds precision %d", x, e.Precision)
			}
			out[2*i], out[2*i+1] = uint64(x), uint64(x>>63)
		}
	}
	validity, nulls := v.Finish()
	return columnar.NewFixedData(e.Type, total, validity, nulls, buf), nil
}
