package main

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/ipcverify"
)

// inputKind is what an input is, as its first bytes tell (sniffInput).
// Every command that reads files recognises the same kinds, and refuses
// one it does not read with the same line (inputKindError).
type inputKind int

const (
	kindUnknown     inputKind = iota // nothing recognised
	kindEmpty                        // no bytes at all
	kindDirectory                    // a folder, not a file
	kindArrowStream                  // the continuation marker, or a plausible pre-0.15 message length
	kindArrowFile                    // "ARROW1"
	kindParquet                      // "PAR1"
	kindGzip                         // a gzip member
	kindLZ4Java                      // lz4-java's "LZ4Block" stream: Spark's lz4 codec
	kindSnappyJava                   // snappy-java's stream: Spark's snappy codec
	kindZstd                         // a zstd frame: Spark's zstd codec, or any .zst file
	kindLZF                          // a "ZV" chunk: Spark's lzf codec
	kindRows                         // a plausible uncompressed row stream in Spark's framing
)

// sniffBytes is how many first bytes sniffInput looks at.
const sniffBytes = 16

var (
	arrowContinuation = []byte{0xff, 0xff, 0xff, 0xff}
	gzipMagic         = []byte{0x1f, 0x8b}
)

// sniffInput tells the kind of an input from its first bytes, head (up to
// sniffBytes; fewer only when the input is shorter). Spark's codecs and
// plausible row streams are as framing.SniffCodec tells them.
func sniffInput(head []byte) inputKind {
	switch {
	case len(head) == 0:
		return kindEmpty
	case bytes.HasPrefix(head, ipcverify.FileMagic):
		return kindArrowFile
	case bytes.HasPrefix(head, parquetMagic):
		return kindParquet
	case bytes.HasPrefix(head, arrowContinuation):
		return kindArrowStream
	case bytes.HasPrefix(head, gzipMagic):
		return kindGzip
	}
	codec, err := framing.SniffCodec(head)
	switch {
	case err != nil:
		return kindUnknown
	case codec == framing.LZ4:
		return kindLZ4Java
	case codec == framing.Snappy:
		return kindSnappyJava
	case codec == framing.Zstd:
		return kindZstd
	case codec == framing.LZF:
		return kindLZF
	case legacyArrowStream(head):
		return kindArrowStream
	}
	return kindRows
}

// legacyArrowStream says whether head can start an Arrow IPC stream of
// before Arrow 0.15, whose messages have no continuation marker: a
// little-endian metadata length, a multiple of 8 and at most 16 MiB (a
// schema's), then the flatbuffer's root offset, which points a few bytes
// past itself, before the vtables and tables. (A row's size read so has
// its low byte 0; an UnsafeRow's first bytes after it are its null bits,
// most often zeros.)
func legacyArrowStream(head []byte) bool {
	if len(head) < 8 {
		return false
	}
	n := binary.LittleEndian.Uint32(head)
	root := binary.LittleEndian.Uint32(head[4:])
	return n > 0 && n%8 == 0 && n <= 16<<20 && root >= 4 && root < min(n, 256) && root%4 == 0
}

// codecKind is the kind of a stream in Spark's codec c.
var codecKind = map[framing.Codec]inputKind{
	framing.LZ4: kindLZ4Java, framing.Snappy: kindSnappyJava, framing.Zstd: kindZstd, framing.LZF: kindLZF,
}

// acceptsArrow says whether a command that reads Arrow (encode, inspect,
// shuffle write) reads an input of kind k.
func acceptsArrow(k inputKind) bool {
	return k == kindArrowStream || k == kindArrowFile || k == kindParquet
}

// acceptsRows says whether a command reading a row stream laid out as l
// reads an input of kind k that starts with head. Anything not known to
// be something else is the row reader's to judge: Velox row groups have
// no magic, and an empty input is a stream of no rows.
func (l streamLayout) acceptsRows(k inputKind, head []byte) bool {
	switch k {
	case kindUnknown, kindEmpty, kindRows:
		return true
	case kindArrowFile, kindParquet, kindDirectory:
		return false
	case kindArrowStream:
		if !bytes.HasPrefix(head, arrowContinuation) {
			// What may start a stream of before Arrow 0.15 starts plausible
			// rows too (sniffInput found it so): the row reader judges.
			return true
		}
		// A Spark stream may start with an end marker (an empty stream
		// before the next): then what follows must be a plausible row (of
		// less than 16 MiB) and not an Arrow message's length and root.
		c, err := framing.SniffCodec(head)
		return l.framing == framing.Spark && err == nil && c == framing.None &&
			(len(head) < 8 || head[4] == 0) && !legacyArrowStream(head[4:])
	}
	if l.framing == framing.Velox {
		// Of the codec magics only a "ZV" chunk and a gzip member can
		// also start a plausible Velox row-group header.
		return (k == kindLZF || k == kindGzip) && veloxHeader(head)
	}
	return k != kindGzip && (l.codec == framing.Auto || codecKind[l.codec] == k)
}

// veloxHeader says whether head starts with a plausible Velox row-group
// header: sizes within the limit, flag 0 (uncompressed, equal sizes) or 1.
func veloxHeader(head []byte) bool {
	if len(head) < framing.HeaderSize {
		return false
	}
	usize := binary.LittleEndian.Uint32(head)
	csize := binary.LittleEndian.Uint32(head[4:])
	if usize == 0 || usize > framing.MaxGroupSize || csize > framing.MaxGroupSize {
		return false
	}
	return head[8] == 0 && usize == csize || head[8] == 1 && csize > 0
}

// kindLines say what an input of each kind is and which commands read it.
var kindLines = map[inputKind]string{
	kindEmpty:       "is empty: an Arrow IPC or Parquet input holds at least a schema (decode and inspect --format read an empty row stream as no rows)",
	kindDirectory:   "is a directory: shuffle ls and shuffle decode read Spark's shuffle folders, the other commands read files",
	kindArrowStream: "is an Arrow IPC stream: encode, inspect and shuffle write read Arrow IPC and Parquet, decode and inspect --format read row streams",
	kindArrowFile:   "is an Arrow IPC file: encode, inspect and shuffle write read Arrow IPC and Parquet, decode and inspect --format read row streams",
	kindParquet:     "is a Parquet file: encode, inspect and shuffle write read Arrow IPC and Parquet, decode and inspect --format read row streams",
	kindGzip:        "is gzip-compressed, which no rowbridge command reads (Spark has no gzip codec): gunzip it first",
	kindLZ4Java:     "is an lz4-java block stream (Spark's lz4 codec): decode and inspect read the rows in it with --framing spark --codec lz4 or auto",
	kindSnappyJava:  "is a snappy-java stream (Spark's snappy codec): decode and inspect read the rows in it with --framing spark --codec snappy or auto",
	kindZstd:        "is zstd-compressed: decode and inspect read rows in Spark's zstd codec with --framing spark --codec zstd or auto; decompress anything else first (zstd -d)",
	kindLZF:         "is an LZF stream (Spark's lzf codec): decode and inspect read the rows in it with --framing spark --codec lzf or auto",
	kindRows:        "is not Arrow IPC or Parquet: it starts as an uncompressed row stream in Spark's framing does (a big-endian row size), which decode and inspect read with --format and --schema",
}

// inputKindError refuses the input name ("stdin" for standard input) of
// kind k, which starts with head, for a command that does not read that
// kind: one line, the same from every command, and exit code 2 (usage).
func inputKindError(name string, k inputKind, head []byte) error {
	line, ok := kindLines[k]
	if !ok {
		line = fmt.Sprintf("is not Arrow IPC, Parquet or anything else rowbridge recognises (it starts % x): row streams in Velox's framing are read by decode and inspect with --format, --framing velox and --schema", head)
	}
	return &usageError{msg: name + " " + line, noHint: true}
}
