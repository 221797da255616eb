package unsaferow

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Arrays of fixed-width words (integers, floats, dates, timestamps: every
// inline element but booleans and decimals) are decoded in one pass that
// counts, checks and copies each array while its header is at hand, into
// a value buffer sized by the arrays' sizes, which bound their elements:
// an array of c elements of w bytes is at least 8+c*w bytes. The sizes of
// one level add up to at most the input (decodeState.budget), so the
// buffer never outgrows it; its length is cut to the elements found.

// wordElements reports whether arrays of e take the one-pass path (the
// null type has no bytes to copy).
func wordElements(e *columnar.Node) bool {
	return isInline(e) && e.Kind != columnar.KindNull && e.Kind != columnar.KindBool && e.Kind != columnar.KindDecimal
}

// elementBound is the most element bytes the valid arrays in spans can
// hold: their sizes less their count words.
func elementBound(spans []span) int64 {
	var n int64
	for _, s := range spans {
		if s.start >= 0 {
			n += max(int64(s.end-s.start)-8, 0)
		}
	}
	return n
}

// countCopyArrays is countArrays for arrays of e (wordElements) that also
// copies their elements into the returned buffer of total*width bytes.
// A level too big for this platform's address space goes through the two
// passes (ok false), which report it.
func (st *decodeState) countCopyArrays(e *columnar.Node, spans []span, path string, offs []int32, v *columnar.Validity) (buf *memory.Buffer, total int, nulls, ok bool, err error) {
	bound := elementBound(spans)
	if bound > math.MaxInt32 || bound > st.budget {
		return nil, 0, false, false, nil
	}
	el := layoutOf(e)
	buf = columnar.NewBuffer(st.mem, int(bound))
	t, nl, bad := countCopyLevel(st.rows, spans, el.width, offs, buf.Bytes(), v)
	if bad < 0 {
		buf.ResizeNoShrink(int(t * el.width))
		return buf, int(t), nl != 0, true, nil
	}
	buf.Release()
	s := spans[bad]
	if _, ok := st.arrayCount(s, el); !ok {
		return nil, 0, false, true, st.arrayCountError(s, el, path)
	}
	return nil, 0, false, true, fail(s.row, path, int64(s.start), rowbridge.ErrCount,
		"more than 2^31-1 elements in one column")
}

// countCopyLevel is countLevel with countCopyRun, for elements of width
// bytes.
func countCopyLevel(rows []columnar.RowRef, spans []span, width int64, offs []int32, out []byte, v *columnar.Validity) (total int64, nulls uint64, bad int) {
	offs = offs[:len(spans)+1]
	for k := 0; ; k++ {
		switch width {
		case 8:
			k, total, nulls = countCopyRun[uint64](rows, spans, offs, out, k, total, nulls)
		case 4:
			k, total, nulls = countCopyRun[uint32](rows, spans, offs, out, k, total, nulls)
		case 2:
			k, total, nulls = countCopyRun[uint16](rows, spans, offs, out, k, total, nulls)
		default:
			k, total, nulls = countCopyRun[uint8](rows, spans, offs, out, k, total, nulls)
		}
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

// countCopyRun is countRun for elements of T's width (whose arrays may
// have up to 7 bytes of padding, in a size that is then a multiple of 8)
// that also copies each array's element region to its place in out (sized
// by elementBound, which also keeps the total below 2^31). A region of at
// most 8 bytes (the inner arrays of ARRAY(ARRAY(BIGINT)) hold 0 or 1
// element) is copied as one whole word whenever the row and out have the
// room, so that no branch depends on its count, which is random there and
// would be mispredicted: the bytes written past the region belong to later
// arrays, which are written after it, or lie past the length out is cut
// to. Each instantiation has its width as a constant, which keeps the
// loop's values in registers.
func countCopyRun[T columnar.Word](rows []columnar.RowRef, spans []span, offs []int32, out []byte, k int, total int64, nulls uint64) (int, int64, uint64) {
	w := int64(unsafe.Sizeof(T(0)))
	offs = offs[:len(spans)+1]
	var r []byte
	row := int32(-1)
	for ; k < len(spans); k++ {
		s := spans[k]
		if s.start < 0 {
			break
		}
		if s.row != row { // consecutive arrays mostly share a row
			r, row = rows[s.row].Bytes(), s.row
		}
		size := int64(s.end - s.start)
		if size < 8 {
			break
		}
		c := int64(columnar.Load[uint64](r, int(s.start)))
		d := size - (arrayHeader(c) + c*w)
		if uint64(c) > math.MaxInt32 || uint64(d) > 7 { // d < 0 is huge
			break
		}
		// As in countRun: the last bitset word (the count when c == 0),
		// followed by the element region.
		last := int(s.start) + 8*int(nwords(c))
		word, unused := columnar.Load[uint64](r, last), unusedBits(c)
		if word&unused|uint64(size&7)*uint64(d) != 0 {
			break
		}
		nulls |= word&^unused | uint64(c>>6)
		at, n, pos := last+8, int(c*w), int(total*w)
		if n <= 8 && len(out)-pos >= 8 && len(r)-at >= 8 {
			columnar.Store(out, pos, columnar.Load[uint64](r, at))
		} else {
			copy(out[pos:pos+n], r[at:at+n])
		}
		total += c
		offs[k+1] = int32(total)
	}
	return k, total, nulls
}

// wordElementData finishes a column of word elements copied by
// countCopyArrays or checkCopyValues: a null element (when nulls says
// there may be one) is refused for keys and NOT NULL elements, and
// otherwise zeroed, its bytes being garbage in Velox output.
func (st *decodeState) wordElementData(e *columnar.Node, arrays []span, offs []int32, total int, nulls, keys bool, buf *memory.Buffer) (arrow.ArrayData, error) {
	if !nulls {
		return columnar.NewFixedData(e.Type, total, nil, 0, buf), nil
	}
	if keys || notNull(e) {
		if err := st.checkNoNulls(e, arrays, offs, keys); err != nil {
			buf.Release()
			return nil, err
		}
	}
	var v columnar.Validity
	v.Reset(st.mem, total)
	clearNulls(st.rows, arrays, offs, buf.Bytes(), int32(e.Kind.ValueWidth()), &v)
	validity, nullCount := v.Finish()
	return columnar.NewFixedData(e.Type, total, validity, nullCount, buf), nil
}

// checkCopyValues is checkValueCounts for value arrays of vn
// (wordElements) that also copies their elements into the returned
// buffer of total*width bytes (total being offs' last entry). ok false
// sends a level too big for one pass to the two passes.
func (st *decodeState) checkCopyValues(n, vn *columnar.Node, valArrays []span, offs []int32, total int) (buf *memory.Buffer, nulls, ok bool, err error) {
	el := layoutOf(vn)
	size := int64(total) * el.width
	if size > math.MaxInt32 || size > st.budget {
		return nil, false, false, nil
	}
	buf = columnar.NewBuffer(st.mem, int(size))
	nl, bad := checkCopyRun(st.rows, valArrays, el, offs, buf.Bytes())
	if bad < 0 {
		return buf, nl != 0, true, nil
	}
	buf.Release()
	_, err = st.checkValueCounts(n, vn, valArrays, offs)
	if err == nil { // cannot be: checkValueCounts refuses what checkCopyRun does
		err = fail(valArrays[bad].row, n.Path, int64(valArrays[bad].start), rowbridge.ErrInternal, "value array refused")
	}
	return nil, false, true, err
}

// checkCopyRun is valueCounts that also copies each array's elements to
// their place in out (exactly the elements' bytes), as countCopyRun does.
func checkCopyRun(rows []columnar.RowRef, arrays []span, el elemLayout, offs []int32, out []byte) (nulls uint64, bad int) {
	offs = offs[:len(arrays)+1]
	var r []byte
	row := int32(-1)
	for k, s := range arrays {
		if s.start < 0 {
			continue
		}
		if s.row != row {
			r, row = rows[s.row].Bytes(), s.row
		}
		size := int64(s.end - s.start)
		first := int64(offs[k])
		c := int64(offs[k+1]) - first
		if size < 8 || columnar.Load[uint64](r, int(s.start)) != uint64(c) {
			return 0, k
		}
		n := c * el.width
		d := size - (arrayHeader(c) + n)
		if uint64(d) > uint64(el.slack) {
			return 0, k
		}
		last := int(s.start) + 8*int(nwords(c))
		word, unused := columnar.Load[uint64](r, last), unusedBits(c)
		if word&unused|uint64(size&el.align)*uint64(d) != 0 {
			return 0, k
		}
		nulls |= word&^unused | uint64(c>>6)
		at := last + 8
		dst := out[first*el.width:]
		if n <= 8 && len(dst) >= 8 && len(r)-at >= 8 {
			binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(r[at:]))
		} else {
			copy(dst[:n], r[at:at+int(n)])
		}
	}
	return nulls, -1
}
