package unsaferow

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Arrays whose elements are arrays of fixed-width words (ARRAY(ARRAY(BIGINT))
// and the like) are decoded without a span per inner array: one pass
// follows each element word to its inner array and checks and counts it,
// writing the inner offsets, and a second follows the words again to copy
// the elements. Inner arrays are many and short (Velox's nestedArrays has
// ten of 0 or 1 element per row), so what matters is the work per inner
// array. The first pass gives up at the first thing it does not expect (a
// bad word or count, a null, sizes past 2^31-1) and the level goes through
// the general path, which reports what is wrong or decodes the nulls.

// wordListElements reports whether e is an array of words.
func wordListElements(e *columnar.Node) bool {
	return e.Kind == columnar.KindList && wordElements(e.Children[0])
}

// decodeWordLists decodes the inner arrays (of e, wordListElements) of the
// arrays located by arrays, already counted into offs: total inner arrays.
// nulls true says some may be null; they are left to the general path, as
// are null elements of inner arrays (inulls). ok false means it gave up
// having kept nothing.
func (st *decodeState) decodeWordLists(e *columnar.Node, arrays []span, offs []int32, total int, nulls bool) (_ arrow.ArrayData, ok bool) {
	if nulls {
		return nil, false
	}
	ie := e.Children[0]
	w := int64(ie.Kind.ValueWidth())
	offBuf, ioffs := columnar.NewOffsets(st.mem, total)
	var itotal int64
	var inulls uint64
	switch w {
	case 8:
		itotal, inulls, ok = countWordLists[uint64](st.rows, arrays, offs, ioffs, st.budget)
	case 4:
		itotal, inulls, ok = countWordLists[uint32](st.rows, arrays, offs, ioffs, st.budget)
	case 2:
		itotal, inulls, ok = countWordLists[uint16](st.rows, arrays, offs, ioffs, st.budget)
	default:
		itotal, inulls, ok = countWordLists[uint8](st.rows, arrays, offs, ioffs, st.budget)
	}
	if !ok || inulls != 0 || itotal*w > math.MaxInt32 {
		offBuf.Release()
		return nil, false
	}
	buf := columnar.NewBuffer(st.mem, int(itotal*w))
	switch w {
	case 8:
		copyWordLists[uint64](st.rows, arrays, offs, ioffs, buf.Bytes())
	case 4:
		copyWordLists[uint32](st.rows, arrays, offs, ioffs, buf.Bytes())
	case 2:
		copyWordLists[uint16](st.rows, arrays, offs, ioffs, buf.Bytes())
	default:
		copyWordLists[uint8](st.rows, arrays, offs, ioffs, buf.Bytes())
	}
	elems := columnar.NewFixedData(ie.Type, int(itotal), nil, 0, buf)
	return columnar.NewListData(e.Type, total, nil, 0, offBuf, elems), true
}

// countWordLists is decodeWordLists' first pass over arrays with no null
// element: for each element word it makes resolveWord's checks and, on the
// inner array the word points at, countRun's (elements of T's width, up to
// 7 bytes of padding), and writes the inner offsets ioffs. It returns the
// inner element total, non-zero inulls when an inner element may be null
// (as countRun's nulls), and false at the first check that fails.
func countWordLists[T columnar.Word](rows [][]byte, arrays []span, offs, ioffs []int32, budget int64) (itotal int64, inulls uint64, ok bool) {
	offs = offs[:len(arrays)+1]
	ioffs = ioffs[:offs[len(arrays)]+1]
	var used int64
	for k, s := range arrays {
		first, c := offs[k], offs[k+1]-offs[k]
		if s.start < 0 || c == 0 {
			continue
		}
		header := int(arrayHeader(int64(c)))
		var u int64
		itotal, inulls, u, ok = countInner[T](rows[s.row], int(s.start), header, ioffs[first+1:first+c+1], int64(s.end-s.start), itotal, inulls)
		used += u
		if !ok || used > budget {
			return 0, 0, false
		}
	}
	return itotal, inulls, true
}

// countInner is countWordLists for the inner arrays of one array at base
// in r, whose element words start at base+header: it writes their end
// offsets into io and returns the totals and the sizes it saw.
func countInner[T columnar.Word](r []byte, base, header int, io []int32, owner, itotal int64, inulls uint64) (int64, uint64, int64, bool) {
	w := int64(unsafe.Sizeof(T(0)))
	words := base + header
	varStart := int64(header + 8*len(io)) // values follow the element words
	var used int64
	for j := range io {
		word := columnar.Load[uint64](r, words+8*j)
		off, size := int64(word>>32), int64(uint32(word))
		used += size
		// resolveWord's checks but the budget (which the caller makes):
		// inside the owner, in its variable region, at a multiple of 8;
		// then room for the count.
		if off+size > owner || (off-varStart)&(math.MinInt64|7) != 0 || size < 8 {
			return 0, 0, 0, false
		}
		a := base + int(off)
		ic := int64(columnar.Load[uint64](r, a))
		d := size - (arrayHeader(ic) + ic*w)
		if uint64(ic) > math.MaxInt32 || uint64(d) > 7 {
			return 0, 0, 0, false
		}
		bw, unused := columnar.Load[uint64](r, a+8*int(nwords(ic))), unusedBits(ic)
		if bw&unused|uint64(size&7)*uint64(d) != 0 || itotal+ic > math.MaxInt32 {
			return 0, 0, 0, false
		}
		inulls |= bw&^unused | uint64(ic>>6)
		itotal += ic
		io[j] = int32(itotal)
	}
	return itotal, inulls, used, true
}

// copyWordLists is decodeWordLists' second pass: it follows the element
// words again (checked by the first) and copies each inner array's
// elements to their place in out.
func copyWordLists[T columnar.Word](rows [][]byte, arrays []span, offs, ioffs []int32, out []byte) {
	offs = offs[:len(arrays)+1]
	ioffs = ioffs[:offs[len(arrays)]+1]
	for k, s := range arrays {
		first, c := offs[k], offs[k+1]-offs[k]
		if s.start < 0 || c == 0 {
			continue
		}
		copyInner[T](rows[s.row], int(s.start), int(arrayHeader(int64(c))), ioffs[first:first+c+1], out)
	}
}

// copyInner is copyWordLists for the inner arrays of one array at base in
// r, io being their offsets (one more than the arrays). A region of at
// most 8 bytes is copied as one whole word, as countCopyRun does.
func copyInner[T columnar.Word](r []byte, base, header int, io []int32, out []byte) {
	w := int(unsafe.Sizeof(T(0)))
	words := base + header
	prev := int(io[0])
	for j, next := range io[1:] {
		a := base + int(columnar.Load[uint64](r, words+8*j)>>32)
		ic := int(next) - prev
		at, n, pos := a+8+8*((ic+63)>>6), ic*w, prev*w
		prev = int(next)
		if n <= 8 && len(out)-pos >= 8 && len(r)-at >= 8 {
			binary.LittleEndian.PutUint64(out[pos:], binary.LittleEndian.Uint64(r[at:]))
		} else {
			copy(out[pos:pos+n], r[at:at+n])
		}
	}
}
