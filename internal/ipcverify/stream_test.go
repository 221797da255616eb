package ipcverify

import (
	"bytes"
	"encoding/binary"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// readVerifiedStream reads data with arrow-go through a MessageReader and
// requires the batches to equal want.
func readVerifiedStream(t *testing.T, data []byte, want []arrow.RecordBatch) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := ipc.NewReaderFromMessageReader(NewMessageReader(bytes.NewReader(data)), ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer r.Release()
	n := 0
	for r.Next() {
		require.Less(t, n, len(want))
		require.True(t, array.RecordEqual(want[n], r.RecordBatch()), "batch %d", n)
		n++
	}
	require.NoError(t, r.Err())
	require.Equal(t, len(want), n)
}

func TestMessageReaderReadsValidStreams(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want := nestedBatches(t, mem)
	defer release(want)
	for name, opts := range map[string][]ipc.Option{"uncompressed": nil, "lz4": {ipc.WithLZ4()}, "zstd": {ipc.WithZstd()}} {
		t.Run(name, func(t *testing.T) {
			data := writeIPC(t, false, want, append(opts, ipc.WithAllocator(mem))...)
			readVerifiedStream(t, data, want)
		})
	}
}

func TestMessageReaderFraming(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want := nestedBatches(t, mem)
	defer release(want)
	data := writeIPC(t, false, want, ipc.WithAllocator(mem))
	eos := []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}
	require.True(t, bytes.HasSuffix(data, eos))

	t.Run("no end-of-stream marker", func(t *testing.T) {
		readVerifiedStream(t, data[:len(data)-len(eos)], want)
	})
	t.Run("bytes after the end-of-stream marker", func(t *testing.T) {
		readVerifiedStream(t, append(bytes.Clone(data), "trailing bytes"...), want)
	})
	t.Run("pre-0.15 framing without continuation markers", func(t *testing.T) {
		var legacy []byte
		for _, f := range framesOf(t, data) {
			legacy = append(legacy, data[f.metaLenField:f.body+f.bodyLen]...)
		}
		legacy = append(legacy, 0, 0, 0, 0)
		readVerifiedStream(t, legacy, want)
	})
	t.Run("empty", func(t *testing.T) {
		_, err := NewMessageReader(bytes.NewReader(nil)).Message()
		require.Equal(t, io.EOF, err)
	})
	t.Run("the end stays the end", func(t *testing.T) {
		mr := NewMessageReader(bytes.NewReader(eos))
		defer mr.Release()
		for range 2 {
			_, err := mr.Message()
			require.Equal(t, io.EOF, err)
		}
	})
}

// TestMessageReaderConcatenated reads a stream, then the stream after it
// from where the first reader stopped: Offset is just past the first's
// end-of-stream marker (either form), and errors in the second name
// offsets in the whole input.
func TestMessageReaderConcatenated(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want := nestedBatches(t, mem)
	defer release(want)
	data := writeIPC(t, false, want, ipc.WithAllocator(mem))
	legacyEnd := append(bytes.Clone(data[:len(data)-8]), 0, 0, 0, 0)
	for name, first := range map[string][]byte{"end marker": data, "pre-0.15 end marker": legacyEnd} {
		t.Run(name, func(t *testing.T) {
			in := bytes.NewReader(append(bytes.Clone(first), data...))
			mr := NewMessageReader(in)
			n := 0
			for {
				_, err := mr.Message()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				n++
			}
			mr.Release()
			require.Equal(t, len(framesOf(t, data)), n)
			require.Equal(t, int64(len(first)), mr.Offset())
			require.Equal(t, len(data), in.Len(), "nothing of the second stream is read")

			r, err := ipc.NewReaderFromMessageReader(NewMessageReaderAt(in, mr.Offset()), ipc.WithAllocator(mem))
			require.NoError(t, err)
			n = 0
			for r.Next() {
				require.True(t, array.RecordEqual(want[n], r.RecordBatch()), "batch %d", n)
				n++
			}
			require.NoError(t, r.Err())
			r.Release()
			require.Equal(t, len(want), n)
		})
	}
	t.Run("offsets in the whole input", func(t *testing.T) {
		mr := NewMessageReaderAt(bytes.NewReader(data[:20]), 1000)
		defer mr.Release()
		_, err := mr.Message()
		e := requireError(t, err, "truncated input at byte 1020")
		require.Equal(t, int64(1020), e.Offset)
	})
}

func TestMessageReaderTruncated(t *testing.T) {
	data := nestedIPC(t, false)
	frames := framesOf(t, data)
	batch := frames[len(frames)-1]
	for _, cut := range []struct {
		name string
		at   int
		msg  string
	}{
		{"inside a length", 6, "the stream ends inside the length of the message at byte 0"},
		{"inside the continuation marker", batch.metaLenField - 2, "the stream ends inside the length"},
		{"inside metadata", batch.meta + 10, "bytes of message metadata"},
		{"inside a body", batch.body + batch.bodyLen - 8, "bytes of message body"},
	} {
		t.Run(cut.name, func(t *testing.T) {
			err := readMessages(data[:cut.at])
			e := requireError(t, err, cut.msg)
			require.ErrorIs(t, err, ErrTruncated)
			require.Equal(t, int64(cut.at), e.Offset)
			require.True(t, strings.HasPrefix(e.Error(), "truncated input at byte "), e.Error())
		})
	}
}

// TestMessageReaderLengthsDoNotAllocate gives the reader huge lengths in a
// short stream: it fails as truncated having allocated about what the
// stream holds.
func TestMessageReaderLengthsDoNotAllocate(t *testing.T) {
	data := nestedIPC(t, false)
	frames := framesOf(t, data)
	batch := frames[len(frames)-1]
	for name, corrupt := range map[string]func(b []byte){
		"bodyLength":      func(b []byte) { put64(b, batch.meta+fieldPos(batch.msg, messageBodyLength), 1<<40) },
		"metadata length": func(b []byte) { put32(b, batch.metaLenField, 0x7fff_fff0) },
	} {
		t.Run(name, func(t *testing.T) {
			b := bytes.Clone(data)
			corrupt(b)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := readMessages(b)
			runtime.ReadMemStats(&after)
			require.ErrorIs(t, err, ErrTruncated)
			require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4<<20))
		})
	}
}

func TestMessageReaderRejects(t *testing.T) {
	plain := nestedIPC(t, false)
	lz4 := nestedIPC(t, false, ipc.WithLZ4())
	zstd := nestedIPC(t, false, ipc.WithZstd())
	// nestedIPC's messages: the schema, the dictionaries of d and ld, then
	// two record batches.
	const firstBatch = 3
	rb := func(f frame) table {
		h, _ := f.msg.child(messageHeader)
		return h
	}
	// vec returns the position of the length of vector slot i of table t
	// in frame f's message.
	vec := func(f frame, t table, i int) int {
		return f.meta + t.target(i)
	}
	// compressedPrefix returns the position of the uncompressed length of
	// the first compressed buffer of frame f that has one.
	compressedPrefix := func(data []byte, f frame) (pos, length int) {
		elems, n := rb(f).vector(recordBatchBuffers)
		for i := range n {
			off, length := rb(f).int64At(elems+16*i), rb(f).int64At(elems+16*i+8)
			if length > 8 && int64(binary.LittleEndian.Uint64(data[f.body+int(off):])) != -1 {
				return f.body + int(off), int(length)
			}
		}
		t.Fatal("no compressed buffer")
		return 0, 0
	}
	for _, tc := range []struct {
		name    string
		data    []byte
		corrupt func(b []byte, frames []frame)
		msg     string
	}{
		{"negative bodyLength", plain, func(b []byte, fs []frame) {
			put64(b, fs[firstBatch].meta+fieldPos(fs[firstBatch].msg, messageBodyLength), 1<<63)
		}, "Message: negative bodyLength"},
		{"unknown header type", plain, func(b []byte, fs []frame) {
			b[fs[firstBatch].meta+fieldPos(fs[firstBatch].msg, messageHeaderType)] = 9
		}, "Message.header: unknown or unsupported union member 9"},
		{"Tensor message", plain, func(b []byte, fs []frame) {
			b[fs[firstBatch].meta+fieldPos(fs[firstBatch].msg, messageHeaderType)] = 4
		}, "Message.header: unknown or unsupported union member 4"},
		{"buffer past the body", plain, func(b []byte, fs []frame) {
			f := fs[firstBatch]
			put64(b, vec(f, rb(f), recordBatchBuffers)+4+16, uint64(f.bodyLen)+8)
		}, "Message.header(RecordBatch).buffers[1]: buffer at body offset"},
		{"buffer longer than the body", plain, func(b []byte, fs []frame) {
			f := fs[firstBatch]
			put64(b, vec(f, rb(f), recordBatchBuffers)+4+16+8, 1<<62)
		}, "is outside the"},
		{"negative field node length", plain, func(b []byte, fs []frame) {
			f := fs[firstBatch]
			put64(b, vec(f, rb(f), recordBatchNodes)+4, 1<<63)
		}, "Message.header(RecordBatch).nodes[0]: field node with length"},
		{"fewer field nodes than the schema needs", plain, func(b []byte, fs []frame) {
			f := fs[firstBatch]
			_, n := rb(f).vector(recordBatchNodes)
			put32(b, vec(f, rb(f), recordBatchNodes), uint32(n-1))
		}, "field nodes are fewer than the schema's fields need"},
		{"fewer buffers than the schema needs", plain, func(b []byte, fs []frame) {
			f := fs[firstBatch]
			_, n := rb(f).vector(recordBatchBuffers)
			put32(b, vec(f, rb(f), recordBatchBuffers), uint32(n-1))
		}, "buffers are fewer than the schema's fields need"},
		{"variadic buffer count huge", plain, func(b []byte, fs []frame) {
			f := fs[firstBatch]
			put64(b, vec(f, rb(f), recordBatchVariadicBufferCounts)+4, 1<<40)
		}, "variadicBufferCounts[0]: variadic buffer count 1099511627776 is negative or more than the batch's"},
		{"fewer variadic buffer counts than view fields", plain, func(b []byte, fs []frame) {
			f := fs[firstBatch]
			put32(b, vec(f, rb(f), recordBatchVariadicBufferCounts), 0)
		}, "0 variadic buffer counts are fewer than the schema's view fields need"},
		{"dictionary id not in the schema", plain, func(b []byte, fs []frame) {
			h := rb(fs[2]) // id 1: the builder leaves out id 0, the default
			put64(b, fs[2].meta+fieldPos(h, dictionaryBatchID), 99)
		}, "dictionary id 99 is not in the schema"},
		{"unknown compression codec", zstd, func(b []byte, fs []frame) { // LZ4 is the default, left out
			c, _ := rb(fs[firstBatch]).child(recordBatchCompression)
			b[fs[firstBatch].meta+fieldPos(c, bodyCompressionCodec)] = 5
		}, "compression: unknown compression codec 5"},
		{"uncompressed length huge", lz4, func(b []byte, fs []frame) {
			pos, _ := compressedPrefix(b, fs[firstBatch])
			put64(b, pos, 1<<40)
		}, "not the 1099511627776 its prefix declares"},
		{"negative uncompressed length", lz4, func(b []byte, fs []frame) {
			pos, _ := compressedPrefix(b, fs[firstBatch])
			put64(b, pos, 1<<63)
		}, "negative uncompressed length"},
		{"compressed bytes corrupt", lz4, func(b []byte, fs []frame) {
			pos, length := compressedPrefix(b, fs[firstBatch])
			for i := pos + 8; i < pos+length; i++ {
				b[i] = 0xa5
			}
		}, "decompresses to 0 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := bytes.Clone(tc.data)
			tc.corrupt(b, framesOf(t, tc.data))
			requireError(t, readMessages(b), tc.msg)
		})
	}
}

func TestMessageReaderRejectsBatchBeforeSchema(t *testing.T) {
	data := nestedIPC(t, false)
	frames := framesOf(t, data)
	requireError(t, readMessages(data[frames[1].metaLenField-4:]), "a DictionaryBatch before the schema")
}

func TestMessageReaderRejectsDeltaBeforeDictionary(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "d", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}}}, nil)
	var recs []arrow.RecordBatch
	for _, rows := range []string{`[{"d": "a"}]`, `[{"d": "a"}, {"d": "b"}]`} {
		rec, _, err := array.RecordFromJSON(mem, schema, strings.NewReader(rows))
		require.NoError(t, err)
		defer rec.Release()
		recs = append(recs, rec)
	}
	data := writeIPC(t, false, recs, ipc.WithAllocator(mem), ipc.WithDictionaryDeltas(true))
	readVerifiedStream(t, data, recs)
	// Without the first dictionary, the delta comes first.
	frames := framesOf(t, data)
	cut := append(bytes.Clone(data[:frames[1].metaLenField-4]), data[frames[2].metaLenField-4:]...)
	requireError(t, readMessages(cut), "a delta for dictionary id 0 before its first batch")
}
