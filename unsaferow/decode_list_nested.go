package unsaferow

import (
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/rowbridge/rowbridge/internal/columnar"
)

// Arrays whose elements are arrays of fixed-width words (ARRAY(ARRAY(BIGINT))
// and the like) are decoded without a span per inner array: one pass
// follows each element word to its inner array, checks and counts it,
// writes the inner offsets and copies the elements into scratch memory,
// which is then copied whole into a buffer of the size found. Inner arrays
// are many and short (Velox's nestedArrays has ten of 0 or 1 element per
// row), so what matters is the work per inner array, and the bytes copied
// twice are few. The pass gives up at the first thing it does not expect
// (a bad word or count, a null, an inner array of 64 elements or more,
// sizes past 2^31-1) and the level goes through the general path, which
// reports what is wrong or decodes the rest.

// wordListElements reports whether e is an array of words.
func wordListElements(e *columnar.Node) bool {
	return e.Kind == columnar.KindList && wordElements(e.Children[0])
}

// decodeWordLists decodes the inner arrays (of e, wordListElements) of the
// arrays located by arrays, already counted into offs: total inner arrays.
// nulls true says some may be null; they are left to the general path, as
// are null elements of inner arrays. ok false means it gave up having kept
// nothing.
func (st *decodeState) decodeWordLists(e *columnar.Node, arrays []span, offs []int32, total int, nulls bool) (_ arrow.ArrayData, ok bool) {
	if nulls {
		return nil, false
	}
	ie := e.Children[0]
	w := int64(ie.Kind.ValueWidth())
	// The inner arrays lie inside the arrays, so their elements take at
	// most the arrays' bytes: that sizes the scratch copy (8 more for a
	// last whole word).
	var bound int64
	for _, s := range arrays {
		if s.start >= 0 {
			bound += int64(s.end - s.start)
		}
	}
	if bound > st.budget || bound > maxSlotCopy {
		return nil, false
	}
	tmp := st.sc.copyBytes(int(bound) + 8)
	offBuf, ioffs := columnar.NewOffsets(st.mem, total)
	var itotal int64
	switch w {
	case 8:
		itotal, ok = countWordLists[uint64](st.rows, arrays, offs, ioffs, tmp, st.budget)
	case 4:
		itotal, ok = countWordLists[uint32](st.rows, arrays, offs, ioffs, tmp, st.budget)
	case 2:
		itotal, ok = countWordLists[uint16](st.rows, arrays, offs, ioffs, tmp, st.budget)
	default:
		itotal, ok = countWordLists[uint8](st.rows, arrays, offs, ioffs, tmp, st.budget)
	}
	if !ok {
		offBuf.Release()
		return nil, false
	}
	buf := columnar.NewBuffer(st.mem, int(itotal*w))
	copy(buf.Bytes(), tmp)
	elems := columnar.NewFixedData(ie.Type, int(itotal), nil, 0, buf)
	return columnar.NewListData(e.Type, total, nil, 0, offBuf, elems), true
}

// countWordLists is decodeWordLists' pass over arrays with no null
// element: for each element word it makes resolveWord's checks and, on the
// inner array the word points at, countRun's (elements of T's width, up to
// 7 bytes of padding), writes the inner offsets ioffs and copies the
// elements into tmp. It returns the inner element total, and false at the
// first check that fails or inner array it leaves to the general path: one
// with a null element or of 64 elements or more (so that its bitset is
// one word, which must be zero).
func countWordLists[T columnar.Word](rows []columnar.RowRef, arrays []span, offs, ioffs []int32, tmp []byte, budget int64) (itotal int64, ok bool) {
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
		itotal, u, ok = countInner[T](rows[s.row].Bytes()[s.start:s.end], header, ioffs[first+1:first+c+1], itotal, tmp)
		used += u
		if !ok || used > budget || itotal > math.MaxInt32 {
			return 0, false
		}
	}
	return itotal, true
}

// countInner is countWordLists for the inner arrays of one array r, whose
// element words start at header: it writes their end offsets into io,
// copies their elements to their place in tmp and returns the new total
// and the sizes it saw. A region of at most 8 bytes (inner arrays of 0 or
// 1 element) is copied as one whole word, as countCopyRun does; tmp has the
// room for it. It keeps few values live, so that they stay in registers.
func countInner[T columnar.Word](r []byte, header int, io []int32, itotal int64, tmp []byte) (int64, int64, bool) {
	w := int64(unsafe.Sizeof(T(0)))
	varStart := int64(header + 8*len(io)) // values follow the element words
	var used int64
	for j := range io {
		word := columnar.Load[uint64](r, header+8*j)
		off, size := int64(word>>32), int64(uint32(word))
		used += size
		// resolveWord's checks but the budget (which the caller makes):
		// inside the array, in its variable region, at a multiple of 8;
		// then room for the count.
		if (int64(len(r))-off-size)&math.MinInt64|(off-varStart)&(math.MinInt64|7)|(size-8)&math.MinInt64 != 0 {
			return 0, 0, false
		}
		a := int(off)
		ic := int64(columnar.Load[uint64](r, a))
		d := size - (arrayHeader(ic) + ic*w)
		if uint64(ic) > 63 || uint64(d) > 7 {
			return 0, 0, false
		}
		// The one bitset word (the count, 0, when ic == 0) is all zero,
		// and so is the slack of a size with unaligned low bits.
		at := a + 8 + 8*int(nwords(ic))
		if columnar.Load[uint64](r, at-8)|uint64(size&7)*uint64(d) != 0 {
			return 0, 0, false
		}
		n, pos := int(ic*w), int(itotal*w)
		if n <= 8 && len(tmp)-pos >= 8 && len(r)-at >= 8 {
			columnar.Store(tmp, pos, columnar.Load[uint64](r, at))
		} else if pos+n <= len(tmp) {
			// Word by word rather than a call to memmove, after which
			// every value of the loop would have to be reloaded.
			dst, src := tmp[pos:pos+n], r[at:at+n]
			i := 0
			for ; i+8 <= n; i += 8 {
				columnar.Store(dst, i, columnar.Load[uint64](src, i))
			}
			for ; i < n; i++ {
				dst[i] = src[i]
			}
		} else {
			return 0, 0, false // overlapping inner arrays: the general path
		}
		itotal += ic
		io[j] = int32(itotal)
	}
	return itotal, used, true
}
