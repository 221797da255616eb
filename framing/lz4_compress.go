package framing

import (
	"encoding/binary"
	"math/bits"
	"sync"
)

// The LZ4 block compressor of the Spark lz4 writer, written from the LZ4
// block format: a block is a run of sequences, each a token (literal
// length in the high nibble, match length - 4 in the low one, 15 meaning
// "more length bytes follow", each adding up to 255), the literals, a
// 2-byte little-endian offset back into the block and the match length's
// extra bytes; the last sequence is literals alone, and no match starts
// within the last 12 bytes nor reaches into the last 5.
//
// Its choices are those of the fast compressor of github.com/pierrec/lz4/v4
// (which the writer used before), so the blocks are byte for byte the same:
// a 65536-entry table of positions keyed by a hash of 6 bytes, three
// positions probed per step, a step that grows with the bytes since the
// last match, matches extended backwards over pending literals and
// forwards 8 bytes at a time while at least 14 bytes are left after them,
// and the table primed with the position two bytes before a match's end.
// What differs is the bookkeeping: the table is the low 16 bits of each
// position alone (128 KiB, which stays in the core's cache), cleared at
// each block with one memclr rather than tracked by a bitmap of entries in
// use, and nothing is allocated per block.

const (
	lz4MinMatch   = 4
	lz4WinSize    = 1 << 16 // offsets are below this
	lz4HashLog    = 16
	lz4MFLimit    = 10 + lz4MinMatch // no match starts within the last 14 bytes
	lz4SkipLog    = 7                // step = 1 + (bytes since the last match >> 7), after a miss
	lz4HashPrime6 = 227718039650203  // multiplier of the 6-byte hash
)

// lz4CompressBound is the most bytes compressing n bytes can give (as
// LZ4's LZ4_COMPRESSBOUND, plus slack).
func lz4CompressBound(n int) int { return n + n/255 + 16 }

// lz4Compressor compresses LZ4 blocks; its table is reused across blocks.
type lz4Compressor struct {
	// table[h] is the low 16 bits of the last position of the block whose
	// 6 bytes hash to h (0 if none).
	table [1 << lz4HashLog]uint16
}

// lz4Compressors keeps the compressors (128 KiB each) of closed streams
// for the next ones: a partition's streams, one per spill, come and go.
var lz4Compressors = sync.Pool{New: func() any { return new(lz4Compressor) }}

// lz4Hash6 hashes the low 6 bytes of x into a table index.
func lz4Hash6(x uint64) uint32 {
	return uint32(((x << 16) * lz4HashPrime6) >> (64 - lz4HashLog))
}

// compress writes src as one LZ4 block into dst, which must hold
// lz4CompressBound(len(src)) bytes, and returns the block's length.
func (c *lz4Compressor) compress(src, dst []byte) int {
	t := &c.table
	*t = [1 << lz4HashLog]uint16{}

	// get is the position an entry names: its 16 bits placed in the
	// 64 KiB window that ends at si, or the one before it.
	get := func(h uint32, si int) int {
		i := int(t[h]) + si&^(lz4WinSize-1)
		if i >= si {
			i -= lz4WinSize
		}
		return i
	}
	put := func(h uint32, si int) { t[h] = uint16(si) }

	si, di, anchor := 0, 0, 0
	sn := len(src) - lz4MFLimit
	for si < sn {
		seq := binary.LittleEndian.Uint64(src[si:])
		h0, h1 := lz4Hash6(seq), lz4Hash6(seq>>8)
		ref0, ref1 := get(h0, si), get(h1, si+1)
		put(h0, si)
		put(h1, si+1)

		offset := si - ref0
		if offset <= 0 || offset >= lz4WinSize || uint32(seq) != binary.LittleEndian.Uint32(src[ref0:]) {
			h2 := lz4Hash6(seq >> 16)
			ref2 := get(h2, si+2)
			si++
			offset = si - ref1
			if offset <= 0 || offset >= lz4WinSize || uint32(seq>>8) != binary.LittleEndian.Uint32(src[ref1:]) {
				si++
				offset = si - ref2
				put(h2, si)
				if offset <= 0 || offset >= lz4WinSize || uint32(seq>>16) != binary.LittleEndian.Uint32(src[ref2:]) {
					si += 2 + (si-anchor)>>lz4SkipLog
					continue
				}
			}
		}

		// A match of at least 4 bytes at si, offset back: extend it
		// backwards over the pending literals, then forwards.
		// The forward search starts after the 4 bytes found, wherever
		// the match's start moved.
		lits, next := si-anchor, si+lz4MinMatch
		back := si - offset - 1
		for lits > 0 && back >= 0 && src[si-1] == src[back] {
			si--
			back--
			lits--
		}
		start := si
		si = next
		for si+8 <= sn {
			x := binary.LittleEndian.Uint64(src[si:]) ^ binary.LittleEndian.Uint64(src[si-offset:])
			if x != 0 {
				si += bits.TrailingZeros64(x) >> 3
				break
			}
			si += 8
		}
		mlen := si - start - lz4MinMatch

		// The sequence: token, literal length, literals, offset, match length.
		token := di
		di++
		if lits < 15 {
			dst[token] = byte(lits << 4)
		} else {
			dst[token] = 0xF0
			di = putLZ4Length(dst, di, lits-15)
		}
		di += copy(dst[di:], src[anchor:anchor+lits])
		dst[di] = byte(offset)
		dst[di+1] = byte(offset >> 8)
		di += 2
		if mlen < 15 {
			dst[token] |= byte(mlen)
		} else {
			dst[token] |= 0x0F
			di = putLZ4Length(dst, di, mlen-15)
		}
		anchor = si
		if si >= sn {
			break
		}
		put(lz4Hash6(binary.LittleEndian.Uint64(src[si-2:])), si-2)
	}

	// The last literals.
	lits := len(src) - anchor
	if lits < 15 {
		dst[di] = byte(lits << 4)
		di++
	} else {
		dst[di] = 0xF0
		di = putLZ4Length(dst, di+1, lits-15)
	}
	di += copy(dst[di:], src[anchor:])
	return di
}

// putLZ4Length writes the extra length bytes of n (a length less 15) at
// dst[di:]: 255 while n is 255 or more, then the rest; it returns the
// index after them.
func putLZ4Length(dst []byte, di, n int) int {
	for ; n >= 0xFF; n -= 0xFF {
		dst[di] = 0xFF
		di++
	}
	dst[di] = byte(n)
	return di + 1
}
