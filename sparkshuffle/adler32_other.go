//go:build !amd64 || purego

package sparkshuffle

// adler32Update returns the Adler-32 of the bytes whose checksum is adler
// followed by p.
func adler32Update(adler uint32, p []byte) uint32 { return adler32Generic(adler, p) }
