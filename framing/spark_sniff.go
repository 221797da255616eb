package framing

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/rowbridge/rowbridge"
)

// sniffLen is how many first bytes SniffCodec looks at.
const sniffLen = 16

// sniffSmallRow is the row size below which a first record is taken for
// an uncompressed UnsafeRow stream before anything else is considered. A
// little-endian header with a small length (Velox's) reads as a big-endian
// size of 16 MiB or more, so the two do not meet below it.
const sniffSmallRow = 16 << 20

var (
	zstdMagic       = []byte{0x28, 0xB5, 0x2F, 0xFD}
	lzfChunkStarts  = [][]byte{{'Z', 'V', 0}, {'Z', 'V', 1}}
	zstdSkippableLo = byte(0x50)
)

// foreignMagics are the first bytes of the non-Spark formats a stream may
// be mistaken for, each with what recognise calls it.
var foreignMagics = []struct {
	magic []byte
	what  string
}{
	{[]byte("ARROW1"), "an Arrow IPC file (read it as Arrow, not as rows)"},
	{[]byte{0xFF, 0xFF, 0xFF, 0xFF}, "an Arrow IPC stream (read it as Arrow, not as rows)"},
	{[]byte("PAR1"), "a Parquet file"},
	{[]byte{0x1f, 0x8b}, "a gzip file (Spark has no gzip codec: gunzip it first)"},
	{[]byte{0x04, 0x22, 0x4D, 0x18}, "an LZ4 frame (the lz4 tool's format, not lz4-java's LZ4Block stream that Spark writes)"},
	{[]byte{0xFF, 0x06, 0x00, 0x00, 's', 'N', 'a', 'P', 'p', 'Y'}, "the snappy framing format (not snappy-java's stream that Spark writes)"},
	{[]byte("ZSTDBlock"), "a Celeborn compressed batch (Celeborn's own format)"},
	{[]byte("ORC"), "an ORC file"},
	{[]byte{'O', 'b', 'j', 1}, "an Avro file"},
}

// SniffCodec says which Spark stream codec a stream starting with head is
// in (head: its first 16 bytes, or all of it when shorter): LZ4 for
// lz4-java's "LZ4Block", Snappy for snappy-java's 0x82 "SNAPPY" 0x00, Zstd
// for a zstd frame (or skippable frame), LZF for a "ZV" chunk, and None for
// an empty stream or one whose first bytes are a plausible UnsafeRow
// record (a big-endian size, a multiple of 8 up to MaxRowSize, or -1).
// Anything else is a *CodecError that names the bytes seen and, when it
// recognises them, what the file is instead.
func SniffCodec(head []byte) (Codec, error) {
	head = head[:min(len(head), sniffLen)]
	switch {
	case len(head) == 0:
		return None, nil
	case magicPrefix(head, lz4Magic[:]):
		return LZ4, nil
	case magicPrefix(head, snappyMagic[:]):
		return Snappy, nil
	case magicPrefix(head, zstdMagic):
		return Zstd, nil
	case len(head) >= 4 && head[0]&0xF0 == zstdSkippableLo && bytes.Equal(head[1:4], []byte{0x2A, 0x4D, 0x18}):
		return Zstd, nil
	case magicPrefix(head, lzfChunkStarts[0]) || magicPrefix(head, lzfChunkStarts[1]):
		return LZF, nil
	}
	if len(head) >= 4 {
		size := binary.BigEndian.Uint32(head)
		if size == endMarker && plausibleAfterEnd(head[4:]) {
			return None, nil
		}
		if size < sniffSmallRow && size%8 == 0 {
			return None, nil
		}
		if what := recognise(head); what == "" && size <= MaxRowSize && size%8 == 0 {
			return None, nil
		}
	}
	return None, sniffError(head)
}

// plausibleAfterEnd says whether what follows a -1 size can be more of a
// row stream: nothing, another -1, or a plausible size.
func plausibleAfterEnd(rest []byte) bool {
	if len(rest) < 4 {
		return len(rest) == 0
	}
	size := binary.BigEndian.Uint32(rest)
	return size == endMarker || (size <= MaxRowSize && size%8 == 0)
}

// magicPrefix says whether head starts with magic, or is all of a stream
// too short to hold it that starts as it does (a truncated stream of that
// codec, for its reader to report).
func magicPrefix(head, magic []byte) bool {
	if len(head) >= len(magic) {
		return bytes.HasPrefix(head, magic)
	}
	return len(head) >= 2 && bytes.HasPrefix(magic, head)
}

// recognise names the non-Spark formats a stream may be mistaken for.
func recognise(head []byte) string {
	for _, f := range foreignMagics {
		if bytes.HasPrefix(head, f.magic) {
			return f.what
		}
	}
	switch {
	case len(head) >= 2 && head[0]&0x0F == 8 && head[0]>>4 <= 7 && binary.BigEndian.Uint16(head)%31 == 0:
		return "a zlib stream (Spark has no zlib codec)"
	case veloxGroup(head):
		return "Velox row groups (read them with --framing velox)"
	}
	return ""
}

// veloxGroup says whether head starts with a plausible Velox row-group
// header: little-endian sizes within the group limit, flag 0 or 1, equal
// sizes when uncompressed.
func veloxGroup(head []byte) bool {
	if len(head) < HeaderSize {
		return false
	}
	usize := binary.LittleEndian.Uint32(head)
	csize := binary.LittleEndian.Uint32(head[4:])
	switch flag := head[8]; {
	case usize == 0 || usize > MaxGroupSize || csize > MaxGroupSize:
		return false
	case flag == 0:
		return usize == csize
	case flag == 1:
		return csize > 0
	}
	return false
}

func sniffError(head []byte) error {
	msg := fmt.Sprintf("the stream starts % x, which is no Spark codec (lz4, snappy, zstd, lzf) and no uncompressed UnsafeRow record", head)
	if len(head) < 4 {
		msg = fmt.Sprintf("the stream is %d bytes (% x): no Spark codec stream and no row record", len(head), head)
	}
	if what := recognise(head); what != "" {
		msg += ": it looks like " + what
	} else if len(head) >= 4 {
		if size := binary.BigEndian.Uint32(head); size <= MaxRowSize {
			msg += fmt.Sprintf(" (a first size of %d is not a multiple of 8, as UnsafeRow sizes are; say --codec none for rows of another format)", size)
		}
	}
	return &CodecError{Codec: Auto, Offset: 0, Msg: msg, Err: rowbridge.ErrLayout}
}
