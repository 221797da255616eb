package sparkshuffle

import (
	"encoding/binary"
	"fmt"
	"github.com/apache/arrow-go/v18/arrow"
	"hash"
	"hash/crc32"
	"strings"
)

// Algorithm is a checksum algorithm of spark.shuffle.checksum.algorithm,
// named by the extension of the checksum file.
type Algorithm uint8

const (
	NoChecksum Algorithm = iota // the map output has no checksum file
	Adler32                     // ADLER32, Spark's default (java.util.zip.Adler32)
	CRC32                       // CRC32, IEEE polynomial (java.util.zip.CRC32), Spark 3.2+
	CRC32C                      // CRC32C, Castagnoli polynomial (java.util.zip.CRC32C), Spark 4.0+
)

var algorithmNames = [...]string{"", "ADLER32", "CRC32", "CRC32C"}

// String is the algorithm's name as it ends a checksum file name
// (upper case), "" for NoChecksum.
func (a Algorithm) String() string {
	if int(a) < len(algorithmNames) {
		return algorithmNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", a)
}

// ParseAlgorithm reads an algorithm name in any case; "" is NoChecksum.
func ParseAlgorithm(s string) (Algorithm, error) {
	for i, n := range algorithmNames {
		if strings.EqualFold(s, n) {
			return Algorithm(i), nil
		}
	}
	return 0, fmt.Errorf("sparkshuffle: unknown checksum algorithm %q (want ADLER32, CRC32 or CRC32C): %w", s, arrow.ErrInvalid)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// New returns a hash of the algorithm; its Sum32 is what Java's
// Checksum.getValue returns for the same bytes. It panics for NoChecksum.
func (a Algorithm) New() hash.Hash32 {
	switch a {
	case Adler32:
		return newAdler32()
	case CRC32:
		return crc32.NewIEEE()
	case CRC32C:
		return crc32.New(castagnoli)
	}
	panic(fmt.Sprintf("sparkshuffle: no hash for checksum algorithm %v", a))
}

// Checksum returns the algorithm's checksum of b as Spark stores it.
func (a Algorithm) Checksum(b []byte) int64 {
	switch a {
	case Adler32:
		return int64(adler32Update(1, b))
	case CRC32:
		return int64(crc32.ChecksumIEEE(b))
	case CRC32C:
		return int64(crc32.Checksum(b, castagnoli))
	}
	panic(fmt.Sprintf("sparkshuffle: no hash for checksum algorithm %v", a))
}

// Empty is the checksum of an empty segment: the value of a fresh Java
// Checksum, 1 for Adler32 and 0 for CRC32 and CRC32C.
func (a Algorithm) Empty() int64 { return a.Checksum(nil) }

// ParseChecksums reads the content of a checksum file of a map output
// with partitions partitions: one big-endian int64 per partition, nothing
// else (Java's DataOutputStream.writeLong of Checksum.getValue). The size
// must be exactly partitions*8 bytes. Values are not range-checked here; a
// value no 32-bit checksum can have simply never verifies.
func ParseChecksums(b []byte, partitions int) ([]int64, error) {
	if partitions < 0 || int64(len(b)) != int64(partitions)*8 {
		return nil, fmt.Errorf("%w: %d bytes, want %d partitions x 8 = %d", ErrChecksumFile, len(b), partitions, int64(partitions)*8)
	}
	sums := make([]int64, partitions)
	for i := range sums {
		sums[i] = int64(binary.BigEndian.Uint64(b[8*i:]))
	}
	return sums, nil
}

// AppendChecksums appends the content of a checksum file holding sums to dst.
func AppendChecksums(dst []byte, sums []int64) []byte {
	for _, s := range sums {
		dst = binary.BigEndian.AppendUint64(dst, uint64(s))
	}
	return dst
}
