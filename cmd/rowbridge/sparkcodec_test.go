package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rowbridge/rowbridge/framing"
	"github.com/stretchr/testify/require"
)

// Spark-framed rows inside each of Spark's codec streams: encode writes
// them, decode reads them by name and by sniffing, to the same rows.
func TestSparkCodecsEncodeDecode(t *testing.T) {
	want, stderr, code := cli(t, sampleRows, "decode", "--format", "unsaferow", sampleSchemaFlag, "--to", "jsonl")
	require.Equal(t, 0, code, stderr)
	arrowBytes, stderr, code := cli(t, sampleRows, "decode", "--format", "unsaferow", sampleSchemaFlag)
	require.Equal(t, 0, code, stderr)
	for _, codec := range []string{"lz4", "snappy", "zstd", "lzf"} {
		t.Run(codec, func(t *testing.T) {
			stream, stderr, code := cli(t, arrowBytes, "encode", "--format", "unsaferow", "--codec", codec)
			require.Equal(t, 0, code, stderr)
			c, err := framing.ParseCodec(codec)
			require.NoError(t, err)
			sniffed, err := framing.SniffCodec(stream)
			require.NoError(t, err)
			require.Equal(t, c, sniffed, "encode wrote a %s stream", codec)
			plain, err := framing.NewStreamReader(bytes.NewReader(stream), c)
			require.NoError(t, err)
			var raw bytes.Buffer
			_, err = raw.ReadFrom(plain)
			require.NoError(t, err)
			require.Equal(t, sampleRows, raw.Bytes(), "the stream holds exactly the rows")
			for _, flag := range []string{codec, "auto"} {
				got, stderr, code := cli(t, stream, "decode", "--format", "unsaferow", sampleSchemaFlag, "--to", "jsonl", "--codec", flag)
				require.Equal(t, 0, code, stderr)
				require.Equal(t, string(want), string(got), "--codec %s", flag)
			}
		})
	}
	got, stderr, code := cli(t, sampleRows, "decode", "--format", "unsaferow", sampleSchemaFlag, "--to", "jsonl", "--codec", "auto")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, string(want), string(got), "auto reads uncompressed rows too")
}

// What SparkPlan.getByteArrayRdd leaves for collected results: lz4(rows,
// -1). Two of them back to back read as all their rows.
func TestDecodeCollectedLZ4(t *testing.T) {
	var one bytes.Buffer
	w, err := framing.NewStreamWriter(&one, framing.LZ4)
	require.NoError(t, err)
	_, err = w.Write(append(bytes.Clone(sampleRows), 0xff, 0xff, 0xff, 0xff))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	dir := t.TempDir()
	path := filepath.Join(dir, "collected.bin")
	require.NoError(t, os.WriteFile(path, append(bytes.Clone(one.Bytes()), one.Bytes()...), 0o644))
	want, stderr, code := cli(t, append(bytes.Clone(sampleRows), sampleRows...), "decode", "--format", "unsaferow", sampleSchemaFlag, "--to", "jsonl")
	require.Equal(t, 0, code, stderr)
	got, stderr, code := cli(t, nil, "decode", "--format", "unsaferow", sampleSchemaFlag, "--to", "jsonl", "--codec", "lz4", path)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, string(want), string(got))
}

func TestSparkCodecErrors(t *testing.T) {
	var buf bytes.Buffer
	w, err := framing.NewStreamWriter(&buf, framing.LZ4)
	require.NoError(t, err)
	_, err = w.Write(sampleRows)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	corrupt := bytes.Clone(buf.Bytes())
	corrupt[17] ^= 1 // the first block's checksum
	requireFailures(t, "decode", []cliFailure{
		{"corrupt lz4", corrupt, []string{"--format", "unsaferow", sampleSchemaFlag, "--codec", "lz4"}, 1,
			"rowbridge decode: framing: stream byte 0, after 0 rows read: decompressing: lz4 stream: compressed byte 0: block checksum 0x…"},
		{"auto on parquet", []byte("PAR1\x15\x04\x15\x10\x15\x14L\x15\x02\x15\x00"), []string{"--format", "unsaferow", sampleSchemaFlag, "--codec", "auto"}, 2,
			"rowbridge decode: stdin " + kindLines[kindParquet]},
		{"auto on a zlib stream", []byte{0x78, 0x9c, 0x4b, 0x4c, 0x4a, 0x06, 0x00, 0x02, 0x4d, 0x01, 0x27}, []string{"--format", "unsaferow", sampleSchemaFlag, "--codec", "auto"}, 1,
			"rowbridge decode: auto stream: compressed byte 0: the stream starts 78 9c 4b 4c 4a 06 00 02 4d 01 27, which is no Spark codec (lz4, snappy, zstd, lzf) and no uncompressed UnsafeRow record: it looks like a zlib stream (Spark has no zlib codec)"},
		{"lzf under velox", nil, []string{"--format", "unsaferow", sampleSchemaFlag, "--framing", "velox", "--codec", "lzf"}, 2,
			"rowbridge decode: --codec lzf applies to --framing spark only (Velox row groups use none, lz4, zstd, snappy, zlib or gzip) (see 'rowbridge decode -h')"},
		{"gzip under spark", nil, []string{"--format", "unsaferow", sampleSchemaFlag, "--codec", "gzip"}, 2,
			"rowbridge decode: --codec gzip needs --framing velox (Spark's codecs are lz4, snappy, zstd and lzf) (see 'rowbridge decode -h')"},
	})
	requireFailures(t, "encode", []cliFailure{
		{"auto", nil, []string{"--format", "unsaferow", "--codec", "auto"}, 2,
			"rowbridge encode: --codec auto applies to reading only: name the codec to write (lz4, snappy, zstd or lzf) (see 'rowbridge encode -h')"},
	})
}
