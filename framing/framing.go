// Package framing splits byte streams into rows and writes rows into
// streams, in the two framings used for UnsafeRow and CompactRow data.
//
// Spark framing is a sequence of records, each a big-endian uint32 size
// followed by that many row bytes, until EOF. Velox framing is a sequence of
// row groups, each a 9-byte little-endian header (uncompressed size,
// compressed size, compressed flag) followed by Spark-framed records,
// optionally compressed as a whole with a codec agreed out of band.
package framing

import (
	"fmt"
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
	return 0, fmt.Errorf("unknown framing %q (want spark or velox)", s)
}

// Codec is the compression applied to Velox row groups.
type Codec uint8

const (
	None   Codec = iota
	LZ4          // raw LZ4 block, no size prefix (folly CodecType::LZ4)
	Zstd         // zstd frame
	Snappy       // raw snappy block
	Zlib         // RFC 1950 stream
	Gzip         // RFC 1952 stream
)

var codecNames = [...]string{"none", "lz4", "zstd", "snappy", "zlib", "gzip"}

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
	return 0, fmt.Errorf("unknown codec %q (want one of %s)", s, strings.Join(codecNames[:], ", "))
}
