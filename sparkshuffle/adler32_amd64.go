//go:build amd64 && !purego

package sparkshuffle

import "golang.org/x/sys/cpu"

// adler32Chunk is the most bytes one adler32Blocks call sums: a multiple
// of 32 small enough that no 32-bit lane overflows.
const adler32Chunk = 64 << 10

var haveAVX2 = cpu.X86.HasAVX2

// adler32Blocks is in adler32_amd64.s.
//
//go:noescape
func adler32Blocks(p []byte) (total, prefix, weighted uint64)

// adler32Update returns the Adler-32 of the bytes whose checksum is adler
// followed by p: 32 bytes a step with AVX2 where the CPU has it, else
// adler32Generic. Over a chunk of n bytes from sums (s1, s2):
//
//	s1' = s1 + total
//	s2' = s2 + n·s1 + 32·prefix + weighted
//
// with total, prefix and weighted as adler32Blocks defines them.
func adler32Update(adler uint32, p []byte) uint32 {
	if !haveAVX2 || len(p) < 64 {
		return adler32Generic(adler, p)
	}
	s1, s2 := uint64(adler&0xffff), uint64(adler>>16)
	for len(p) >= 32 {
		chunk := p[:min(len(p), adler32Chunk)&^31]
		p = p[len(chunk):]
		total, prefix, weighted := adler32Blocks(chunk)
		s2 += uint64(len(chunk))*s1 + 32*prefix + weighted
		s1 += total
		s1, s2 = s1%adlerMod, s2%adlerMod
	}
	return adler32Generic(uint32(s2)<<16|uint32(s1), p)
}
