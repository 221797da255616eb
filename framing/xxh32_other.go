//go:build !amd64 || purego

package framing

// xxh32Lanes runs XXH32's four accumulators over the whole 16-byte stripes
// of p.
func xxh32Lanes(v *[4]uint32, p []byte) { xxh32LanesGeneric(v, p) }
