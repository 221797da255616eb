package sparkshuffle_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

var sparkCodecs = []framing.Codec{framing.LZ4, framing.Snappy, framing.Zstd, framing.LZF}

// Compressed shuffles, each segment one codec stream per spill, decode to
// the rows written with the codec sniffed or named.
func TestCompressedShuffles(t *testing.T) {
	for _, codec := range sparkCodecs {
		t.Run(codec.String(), func(t *testing.T) {
			fx := build(t, codec, 3, standard)
			set := openSet(t, fx)
			s0, err := set.Shuffle(0)
			require.NoError(t, err)
			sniffed, err := s0.SniffCodec()
			require.NoError(t, err)
			require.Equal(t, codec, sniffed)
			s2, _ := set.Shuffle(2)
			sniffed, err = s2.SniffCodec()
			require.NoError(t, err)
			require.Equal(t, framing.None, sniffed, "a shuffle without bytes")

			// The 3-spill segment really is three streams.
			m3 := mapOf(t, set, 0, 3)
			require.Equal(t, 3, countStreams(segmentBytes(t, m3, 2), codec))

			for _, workers := range workerCounts {
				for _, opt := range []sparkshuffle.Option{sparkshuffle.WithCodec(framing.Auto), sparkshuffle.WithCodec(codec)} {
					mem := checkedAllocator(t)
					r := newReader(t, set, 0, opt, sparkshuffle.WithWorkers(workers), sparkshuffle.WithBatchRows(16), sparkshuffle.WithAllocator(mem))
					keys, err := readAll(t, r)
					r.Release()
					require.NoError(t, err)
					require.Equal(t, fx.want(0, 0, 4), keys)
				}
			}

			// Naming the wrong codec fails on the first segment, naming it.
			r := newReader(t, set, 0, sparkshuffle.WithCodec(framing.None), sparkshuffle.WithAllocator(checkedAllocator(t)))
			_, err = readAll(t, r)
			r.Release()
			var se *sparkshuffle.SegmentError
			require.ErrorAs(t, err, &se)
			require.Equal(t, [2]int64{0, 7}, [2]int64{int64(se.Partition), se.Map})
		})
	}
}

// countStreams counts the codec streams in seg by their magic bytes.
func countStreams(seg []byte, codec framing.Codec) int {
	var magic string
	switch codec {
	case framing.Snappy:
		magic = "\x82SNAPPY\x00"
	case framing.Zstd:
		magic = "\x28\xb5\x2f\xfd"
	case framing.LZ4:
		// Each stream ends with a 21-byte end mark: a raw-method header of lengths 0.
		n := 0
		for i := 0; i+21 <= len(seg); i++ {
			if string(seg[i:i+8]) == "LZ4Block" && seg[i+8]&0xF0 == 0x10 && string(seg[i+9:i+21]) == string(make([]byte, 12)) {
				n++
			}
		}
		return n
	default:
		// LZF streams have no header: count chunks (each spill here is one).
		n := 0
		for i := 0; i+5 <= len(seg); n++ {
			length := int(seg[i+3])<<8 | int(seg[i+4])
			if seg[i+2] == 0 {
				i += 5 + length
			} else {
				i += 7 + length
			}
		}
		return n
	}
	n := 0
	for i := 0; i+len(magic) <= len(seg); i++ {
		if string(seg[i:i+len(magic)]) == magic {
			n++
		}
	}
	return n
}

func TestCorruptCompressedSegment(t *testing.T) {
	for _, codec := range sparkCodecs {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%v/%d", codec, workers), func(t *testing.T) {
				fx := build(t, codec, 2, small)
				set := openSet(t, fx)
				m7 := mapOf(t, set, 4, 7)
				// Cut partition 0's stream short: the index now says partition 0
				// ends 5 bytes early and partition 1 starts there.
				p := fx.paths[[2]int64{4, 7}]
				patch(t, p.Index, 8, m7.Offsets[1]-5)
				set = openSet(t, fx)
				m7 = mapOf(t, set, 4, 7)
				r := newReader(t, set, 4, sparkshuffle.WithWorkers(workers), sparkshuffle.WithChecksum(sparkshuffle.Ignore), sparkshuffle.WithAllocator(checkedAllocator(t)))
				_, err := readAll(t, r)
				r.Release()
				se := requireSegmentError(t, err, m7, 0)
				require.Equal(t, codec, se.Codec)
				require.ErrorIs(t, err, rowbridge.ErrTruncated)
				var ce *framing.CodecError
				require.ErrorAs(t, err, &ce, "%v", err)
				require.Equal(t, m7.Offsets[0]+ce.Offset, se.FileOffset, "the codec's offset, in the file")
				require.LessOrEqual(t, se.FileOffset, m7.Offsets[1])
				require.Contains(t, err.Error(), fmt.Sprintf("partition 0 (%v, bytes 0-%d), file byte %d", codec, m7.Offsets[1], se.FileOffset))
			})
		}
	}
}

// Very old Spark ended every stream with a -1 size; a segment of such
// spills reads whole, compressed or not.
func TestEndMarkersBetweenSpills(t *testing.T) {
	mem := memory.NewGoAllocator()
	for _, codec := range append([]framing.Codec{framing.None}, sparkCodecs...) {
		t.Run(codec.String(), func(t *testing.T) {
			var seg []byte
			var want []key
			for spill, n := range []int{3, 4} {
				rec := shuffletest.Rows(mem, 0, 9, 3*spill, n)
				records := append(shuffletest.Stream(t, framing.None, rec), 0xFF, 0xFF, 0xFF, 0xFF)
				rec.Release()
				var out bytes.Buffer
				w, err := framing.NewStreamWriter(&out, codec)
				require.NoError(t, err)
				_, err = w.Write(records)
				require.NoError(t, err)
				require.NoError(t, w.Close())
				seg = append(seg, out.Bytes()...)
				for i := range n {
					want = append(want, key{Part: 0, Map: 9, Seq: int64(3*spill + i)})
				}
			}
			folder := shuffletest.New(t, 1)
			folder.Write(t, shuffletest.MapOutput{Shuffle: 1, Map: 9, Segments: [][]byte{seg}, Checksum: sparkshuffle.CRC32C})
			set, err := sparkshuffle.Open(folder.LocalDirs...)
			require.NoError(t, err)
			for _, workers := range []int{1, 2} {
				r := newReader(t, set, 1, sparkshuffle.WithWorkers(workers), sparkshuffle.WithAllocator(checkedAllocator(t)))
				keys, err := readAll(t, r)
				r.Release()
				require.NoError(t, err)
				require.Equal(t, want, keys)
			}
		})
	}
}
