package sparkshuffle

import (
	"fmt"
	"strconv"
	"strings"
)

// SubDirsPerLocalDir is Spark's default spark.diskStore.subDirectories: the
// number of two-hex-digit folders inside each blockmgr-* folder.
const SubDirsPerLocalDir = 64

// FileKind is which file of a map output a name denotes.
type FileKind uint8

const (
	IndexFile    FileKind = iota // shuffle_S_M_0.index
	DataFile                     // shuffle_S_M_0.data
	ChecksumFile                 // shuffle_S_M_0.checksum.ALGORITHM
)

func (k FileKind) String() string {
	switch k {
	case IndexFile:
		return "index"
	case DataFile:
		return "data"
	case ChecksumFile:
		return "checksum"
	}
	return fmt.Sprintf("FileKind(%d)", k)
}

// FileName is a parsed shuffle file name.
type FileName struct {
	Shuffle   int   // shuffle id
	Map       int64 // map id: the map task's attempt id since Spark 3.0
	Kind      FileKind
	Algorithm Algorithm // for ChecksumFile only
}

// String is the file name as Spark writes it.
func (n FileName) String() string {
	base := fmt.Sprintf("shuffle_%d_%d_0", n.Shuffle, n.Map)
	switch n.Kind {
	case IndexFile:
		return base + ".index"
	case DataFile:
		return base + ".data"
	}
	return base + ".checksum." + n.Algorithm.String()
}

// IndexName is the name of a map output's index file.
func IndexName(shuffle int, mapID int64) string {
	return FileName{Shuffle: shuffle, Map: mapID, Kind: IndexFile}.String()
}

// DataName is the name of a map output's data file.
func DataName(shuffle int, mapID int64) string {
	return FileName{Shuffle: shuffle, Map: mapID, Kind: DataFile}.String()
}

// ChecksumName is the name of a map output's checksum file.
func ChecksumName(shuffle int, mapID int64, alg Algorithm) string {
	return FileName{Shuffle: shuffle, Map: mapID, Kind: ChecksumFile, Algorithm: alg}.String()
}

// ParseFileName parses a shuffle file name (no directory). It accepts only
// the names Spark gives committed map outputs: non-negative decimal ids
// without sign or leading zeros, reduce id 0, and one of the extensions
// .index, .data or .checksum.ADLER32|CRC32|CRC32C. Spark's temporary files
// (an index or data name followed by .<uuid>, temp_shuffle_*) and every
// other block do not parse.
func ParseFileName(name string) (FileName, bool) {
	rest, ok := strings.CutPrefix(name, "shuffle_")
	if !ok {
		return FileName{}, false
	}
	var n FileName
	shuffle, rest, ok := cutID(rest, 31)
	if !ok {
		return FileName{}, false
	}
	mapID, rest, ok := cutID(rest, 63)
	if !ok {
		return FileName{}, false
	}
	n.Shuffle, n.Map = int(shuffle), mapID
	rest, ok = strings.CutPrefix(rest, "0.")
	if !ok {
		return FileName{}, false
	}
	switch {
	case rest == "index":
		n.Kind = IndexFile
	case rest == "data":
		n.Kind = DataFile
	case strings.HasPrefix(rest, "checksum."):
		alg, err := ParseAlgorithm(rest[len("checksum."):])
		if err != nil || alg == NoChecksum || rest[len("checksum."):] != alg.String() {
			return FileName{}, false
		}
		n.Kind, n.Algorithm = ChecksumFile, alg
	default:
		return FileName{}, false
	}
	return n, true
}

// cutID reads a canonical decimal id of at most bits bits followed by '_'.
func cutID(s string, bits int) (int64, string, bool) {
	i := strings.IndexByte(s, '_')
	if i <= 0 || (i > 1 && s[0] == '0') || s[0] == '+' || s[0] == '-' {
		return 0, "", false
	}
	v, err := strconv.ParseInt(s[:i], 10, bits+1)
	if err != nil || v < 0 {
		return 0, "", false
	}
	return v, s[i+1:], true
}

// JavaStringHash is Java's String.hashCode of s: s[0]*31^(n-1) + ... +
// s[n-1] over the string's UTF-16 code units, in wrapping int32 arithmetic.
func JavaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + int32(0xD800+(r>>10))
			h = 31*h + int32(0xDC00+(r&0x3FF))
			continue
		}
		h = 31*h + int32(r)
	}
	return h
}

// Placement is where Spark's DiskBlockManager puts a file named name among
// numLocalDirs local dirs with subDirs sub-folders each (Spark's
// DiskBlockManager.getFile and the external shuffle service's
// ExecutorDiskUtils.getFilePath): h = Utils.nonNegativeHash(name)
// (Math.abs of String.hashCode, Integer.MIN_VALUE mapped to 0), local dir
// h % numLocalDirs, sub-folder (h / numLocalDirs) % subDirs, named with
// SubDirName.
func Placement(name string, numLocalDirs, subDirs int) (localDir, subDir int) {
	if numLocalDirs < 1 || subDirs < 1 {
		panic("sparkshuffle: Placement needs at least one local dir and one sub-folder")
	}
	h := int64(JavaStringHash(name))
	if h < 0 {
		if h == -1<<31 {
			h = 0
		} else {
			h = -h
		}
	}
	return int(h % int64(numLocalDirs)), int((h / int64(numLocalDirs)) % int64(subDirs))
}

// SubDirName is the name of sub-folder i of a blockmgr-* folder: two
// lower-case hex digits (Spark's "%02x").
func SubDirName(i int) string { return fmt.Sprintf("%02x", i) }

// isSubDirName reports whether s is a name SubDirName gives (any two hex
// digits; Spark's sub-folder count is configurable up to 256 this way,
// more yields three digits, which is also accepted).
func isSubDirName(s string) bool {
	if len(s) < 2 || len(s) > 4 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
