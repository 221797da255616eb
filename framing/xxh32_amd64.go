//go:build amd64 && !purego

package framing

import "golang.org/x/sys/cpu"

var haveAVX = cpu.X86.HasAVX

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
