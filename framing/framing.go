// Package framing splits byte streams into rows and writes rows into
// streams, in the two framings used for UnsafeRow and CompactRow data.
//
// Spark framing is a sequence of records, each a big-endian uint32 size
// followed by that many row bytes, until EOF (or a size of -1), optionally
// inside one of Spark's compression streams (lz4, snappy, zstd, lzf; see
// NewStreamReader). Velox framing is a sequence of row groups, each a 9-byte
// little-endian header (uncompressed size, compressed size, compressed
// flag) followed by Spark-framed records, optionally compressed as a whole
// with a codec agreed out of band.
package framing

import (
	"fmt"
	"github.com/apache/arrow-go/v18/arrow"
	"strings"
)

// Framing selects the stream layout.
type Framing uint8

const (
	// Spark is the shuffle layout: (uint32 BE size, row)* until EOF.
	Spark Framing = iota
	// Velox is the RowSerializer layout: (9-byte header, records)*.
	Velox
)

func (f Framing) String() string {
	switch f {
	case Spark:
		return "spark"
	case Velox:
		return "velox"
	}
	return fmt.Sprintf("Framing(%d)", f)
}

// ParseFraming reads a framing name as the CLI spells it.
func ParseFraming(s string) (Framing, error) {
	switch strings.ToLower(s) {
	case "spark", "":
		return Spark, nil
	case "velox":
		return Velox, nil
	}
	return 0, fmt.Errorf("unknown framing %q (want spark or velox): %w", s, arrow.ErrInvalid)
}

// Codec is a compression: of Velox row groups (each group one block), or of
// a whole Spark-framed stream (Spark's CompressionCodec streams, see
// NewStreamReader). The stream does not record it in either framing.
type Codec uint8

const (
	None   Codec = iota
	LZ4          // Velox: raw LZ4 block (folly CodecType::LZ4); Spark: lz4-java LZ4BlockOutputStream
	Zstd         // Velox: zstd frame; Spark: zstd-jni frames
	Snappy       // Velox: raw snappy block; Spark: snappy-java SnappyOutputStream
	Zlib         // Velox only: RFC 1950 stream
	Gzip         // Velox only: RFC 1952 stream
	LZF          // Spark only: compress-lzf LZFOutputStream chunks
	Auto         // Spark only, reading only: the codec sniffed from the first bytes
)

var codecNames = [...]string{"none", "lz4", "zstd", "snappy", "zlib", "gzip", "lzf", "auto"}

func (c Codec) String() string {
	if int(c) < len(codecNames) {
		return codecNames[c]
	}
	return fmt.Sprintf("Codec(%d)", c)
}

// ParseCodec reads a codec name as the CLI spells it.
func ParseCodec(s string) (Codec, error) {
	if s == "" {
		return None, nil
	}
	for i, n := range codecNames {
		if strings.EqualFold(s, n) {
			return Codec(i), nil
		}
	}
	return 0, fmt.Errorf("unknown codec %q (want one of %s): %w", s, strings.Join(codecNames[:], ", "), arrow.ErrInvalid)
}
