//go:build amd64 && !purego

package framing

import "golang.org/x/sys/cpu"

var (
	haveAVX  = cpu.X86.HasAVX
	haveAVX2 = cpu.X86.HasAVX2
)

// xxh32Stripes is in xxh32_amd64.s.
//
//go:noescape
func xxh32Stripes(v *[4]uint32, p []byte)

// xxh32Lanes runs XXH32's four accumulators over the whole 16-byte stripes
// of p, in one vector register where the CPU has AVX.
func xxh32Lanes(v *[4]uint32, p []byte) {
	if haveAVX {
		xxh32Stripes(v, p)
		return
	}
	xxh32LanesGeneric(v, p)
}

// xxh32Stripes2 is in xxh32_amd64.s.
//
//go:noescape
func xxh32Stripes2(va, vb *[4]uint32, a, b []byte)

// xxh32Lanes2 is xxh32Lanes over a into va and over b into vb (a and b of
// one length), both in one 256-bit register where the CPU has AVX2.
func xxh32Lanes2(va, vb *[4]uint32, a, b []byte) {
	if haveAVX2 {
		xxh32Stripes2(va, vb, a, b)
		return
	}
	xxh32Lanes(va, a)
	xxh32Lanes(vb, b)
}
