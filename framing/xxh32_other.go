//go:build !amd64 || purego

package framing

// xxh32Lanes runs XXH32's four accumulators over the whole 16-byte stripes
// of p.
func xxh32Lanes(v *[4]uint32, p []byte) { xxh32LanesGeneric(v, p) }

// xxh32Lanes2 is xxh32Lanes over a into va and over b into vb.
func xxh32Lanes2(va, vb *[4]uint32, a, b []byte) {
	xxh32LanesGeneric(va, a)
	xxh32LanesGeneric(vb, b)
}
