package sparkshuffle

import (
	"encoding/binary"
	"hash"
)

// Adler-32 (RFC 1950), the checksum of Spark's default
// spark.shuffle.checksum.algorithm, computed 16 bytes at a time.
// hash/adler32 adds byte after byte along one dependency chain, and a
// shuffle reader verifies every on-disk byte with it, so it was a tenth of
// a read. Over a run of m 16-byte steps starting from sums (s1, s2):
//
//	s1' = s1 + Σ b
//	s2' = s2 + 16·m·s1 + 16·Σ_j prefix_j + Σ_k (16-k)·lane_k
//
// where prefix_j is the sum of the bytes of the steps before step j and
// lane_k the sum of the bytes at position k (0..15) of each step. The lane
// sums are kept as the 16-bit fields of four uint64 words (even and odd
// bytes of each half of a step), a step's byte sum is one multiply that
// adds those fields, and a run is short enough (adlerRun) that no field
// overflows.

const (
	adlerMod = 65521
	// adlerRun is the bytes of one run: 256 steps, so a lane sum stays
	// at most 256·255 < 2^16.
	adlerRun  = 256 * 16
	evenBytes = 0x00ff00ff00ff00ff
	// addFields times a word of four 16-bit fields has their sum in its
	// top 16 bits (when that sum fits).
	addFields = 0x0001000100010001
)

// adler32Generic returns the Adler-32 of the bytes whose checksum is
// adler followed by p, 16 bytes a step in plain Go.
func adler32Generic(adler uint32, p []byte) uint32 {
	s1, s2 := uint64(adler&0xffff), uint64(adler>>16)
	for len(p) >= 16 {
		run := p[:min(len(p), adlerRun)&^15]
		p = p[len(run):]
		steps := uint64(len(run) / 16)
		var e0, o0, e1, o1, total, prefix uint64
		for ; len(run) >= 16; run = run[16:] {
			x0 := binary.LittleEndian.Uint64(run)
			x1 := binary.LittleEndian.Uint64(run[8:])
			a, b := x0&evenBytes, (x0>>8)&evenBytes
			c, d := x1&evenBytes, (x1>>8)&evenBytes
			e0, o0, e1, o1 = e0+a, o0+b, e1+c, o1+d
			prefix += total
			total += ((a + b) + (c + d)) * addFields >> 48 // fields at most 4·255
		}
		// Field i of e0 sums byte 2i of each step, of o0 byte 2i+1; e1
		// and o1 likewise bytes 8+2i and 9+2i.
		var weighted uint64
		for i := range uint64(4) {
			sh := 16 * i
			weighted += (16-2*i)*(e0>>sh&0xffff) + (15-2*i)*(o0>>sh&0xffff) +
				(8-2*i)*(e1>>sh&0xffff) + (7-2*i)*(o1>>sh&0xffff)
		}
		s2 += 16*steps*s1 + 16*prefix + weighted
		s1 += total
		s1, s2 = s1%adlerMod, s2%adlerMod
	}
	for _, b := range p {
		s1 += uint64(b)
		s2 += s1
	}
	return uint32(s2%adlerMod)<<16 | uint32(s1%adlerMod)
}

// adlerHash is a hash.Hash32 of adler32Update.
type adlerHash struct{ sum uint32 }

func newAdler32() hash.Hash32 { return &adlerHash{sum: 1} }

func (a *adlerHash) Write(p []byte) (int, error) { a.sum = adler32Update(a.sum, p); return len(p), nil }
func (a *adlerHash) Sum32() uint32               { return a.sum }
func (a *adlerHash) Reset()                      { a.sum = 1 }
func (a *adlerHash) Size() int                   { return 4 }
func (a *adlerHash) BlockSize() int              { return 4 }
func (a *adlerHash) Sum(b []byte) []byte         { return binary.BigEndian.AppendUint32(b, a.sum) }
