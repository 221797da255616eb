package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/stretchr/testify/require"
)

// sparkStream compresses data with Spark's codec c.
func sparkStream(t *testing.T, c framing.Codec, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := framing.NewStreamWriter(&buf, c)
	require.NoError(t, err)
	_, err = w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, err := w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// parquetOf writes rows (JSON, of arrowInputSchema) as a Parquet file
// with pqarrow, the Arrow schema stored.
func parquetOf(t *testing.T, mem memory.Allocator, rows string) []byte {
	t.Helper()
	rec, _, err := array.RecordFromJSON(mem, arrowInputSchema, strings.NewReader(rows))
	require.NoError(t, err)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(arrowInputSchema, &buf, parquet.NewWriterProperties(parquet.WithAllocator(mem)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithAllocator(mem), pqarrow.WithStoreSchema()))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func writeInputs(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
}

// Every command that reads inputs recognises what it was handed, and for
// a kind it does not read says so in the same line, with the same exit
// code (2), whichever command it is, for a file and for stdin.
func TestWrongKindOfInputIsOneLineFromEveryCommand(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	kinds := []struct {
		name   string
		data   []byte // nil for the directory
		phrase string // what the line says the input is
		rowsOK bool   // the row commands read it (as --format unsaferow, no codec)
	}{
		{"arrow-stream", streamOf(t, mem, arrowInputRows), "is an Arrow IPC stream:", false},
		{"arrow-file", arrowInputFile(t, arrowInputRows), "is an Arrow IPC file:", false},
		{"parquet", parquetOf(t, mem, arrowInputRows), "is a Parquet file:", false},
		{"gzip", gzipped(t, sampleRows), "is gzip-compressed, which no rowbridge command reads", false},
		{"zstd", sparkStream(t, framing.Zstd, sampleRows), "is zstd-compressed:", false},
		{"lz4-java", sparkStream(t, framing.LZ4, sampleRows), "is an lz4-java block stream (Spark's lz4 codec):", false},
		{"snappy-java", sparkStream(t, framing.Snappy, sampleRows), "is a snappy-java stream (Spark's snappy codec):", false},
		{"directory", nil, "is a directory:", false},
		{"empty", []byte{}, "is empty:", true},
		{"rows", sampleRows, "is not Arrow IPC or Parquet: it starts as an uncompressed row stream", true},
	}
	shuffleOut := filepath.Join(dir, "shuffle-out")
	arrowCommands := [][]string{
		{"encode", "--format", "unsaferow"},
		{"inspect"},
		{"inspect", "--format", "arrow"},
		{"shuffle", "write", "--partitions", "2", "-o", shuffleOut},
	}
	rowCommands := [][]string{
		{"decode", "--format", "unsaferow", sampleSchemaFlag, "--to", "jsonl"},
		{"decode", "--format", "compactrow", sampleSchemaFlag, "--framing", "velox"},
		{"inspect", "--format", "unsaferow", sampleSchemaFlag},
	}
	for _, k := range kinds {
		path := filepath.Join(dir, k.name)
		if k.data == nil {
			require.NoError(t, os.Mkdir(path, 0o755))
		} else {
			require.NoError(t, os.WriteFile(path, k.data, 0o644))
		}
		commands := arrowCommands
		if !k.rowsOK {
			commands = append(commands, rowCommands...)
		}
		if k.name == "arrow-stream" || k.name == "arrow-file" || k.name == "parquet" {
			commands = rowCommands // the Arrow commands read these
		}
		t.Run(k.name, func(t *testing.T) {
			for _, stdin := range []bool{false, true} {
				if stdin && k.data == nil {
					continue
				}
				name, input := path, path
				if stdin {
					name, input = "stdin", "-"
				}
				var first string
				for _, args := range commands {
					cmd := args[0]
					if cmd == "shuffle" {
						cmd = "shuffle write"
					}
					_, stderr, code := cli(t, k.data, append(args, input)...)
					require.Equal(t, 2, code, "%v: %s", args, stderr)
					require.Equal(t, 1, strings.Count(stderr, "\n"), "%v: one line: %q", args, stderr)
					line, ok := strings.CutPrefix(strings.TrimSuffix(stderr, "\n"), "rowbridge "+cmd+": ")
					require.True(t, ok, "%v: %q", args, stderr)
					require.True(t, strings.HasPrefix(line, name+" "+k.phrase), "%v: %q", args, line)
					if first == "" {
						first = line
					}
					require.Equal(t, first, line, "%v: the same line from every command", args)
				}
			}
			_, err := os.Stat(shuffleOut)
			require.ErrorIs(t, err, os.ErrNotExist, "shuffle write made no folder")
		})
	}
}

// A row command given a stream in a Spark codec other than its --codec
// names the codec to read it with; --codec auto reads every one.
func TestRowsInAnotherCodec(t *testing.T) {
	dir := t.TempDir()
	lz4 := filepath.Join(dir, "rows.lz4")
	require.NoError(t, os.WriteFile(lz4, sparkStream(t, framing.LZ4, sampleRows), 0o644))
	want := string(readTestdata(t, "sample.jsonl"))
	for _, codec := range []string{"none", "zstd", "snappy"} {
		_, stderr, code := cli(t, nil, "decode", "--format", "unsaferow", sampleSchemaFlag, "--codec", codec, lz4)
		require.Equal(t, 2, code, stderr)
		requireStderrLine(t, stderr, "rowbridge decode: "+lz4+" is an lz4-java block stream (Spark's lz4 codec): decode and inspect read the rows in it with --framing spark --codec lz4 or auto")
	}
	for _, codec := range []string{"lz4", "auto"} {
		out, stderr, code := cli(t, nil, "decode", "--format", "unsaferow", sampleSchemaFlag, "--codec", codec, "--to", "jsonl", lz4)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, want, string(out))
	}
}

// decode reads several inputs in order as one stream, each in its own
// codec with --codec auto, stdin among them.
func TestDecodeSeveralInputs(t *testing.T) {
	dir := t.TempDir()
	plain, lz4, zstd := filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.lz4"), filepath.Join(dir, "c.zst")
	writeInputs(t, dir, map[string][]byte{
		"a.bin": sampleRows, "b.lz4": sparkStream(t, framing.LZ4, sampleRows), "c.zst": sparkStream(t, framing.Zstd, sampleRows),
	})
	one := string(readTestdata(t, "sample.jsonl"))
	out, stderr, code := cli(t, nil, "decode", "--format", "unsaferow", sampleSchemaFlag, "--codec", "auto", "--to", "jsonl", plain, lz4, zstd)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, one+one+one, string(out))

	// The same as one Arrow IPC file, stdin second.
	arrowPath := filepath.Join(dir, "out.arrow")
	_, stderr, code = cli(t, sparkStream(t, framing.LZ4, sampleRows), "decode", "--format", "unsaferow", sampleSchemaFlag, "--codec", "auto", "--to", "arrow-file", "-o", arrowPath, plain, "-", zstd)
	require.Equal(t, 0, code, stderr)
	out, stderr, code = cli(t, nil, "decode", "--format", "unsaferow", sampleSchemaFlag, "--to", "jsonl", plain)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, one, string(out))
	out, stderr, code = cli(t, nil, "inspect", "--json", "--rows", "1000", arrowPath)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, one+one+one, string(out))

	// A bad input after good ones is named, and -o is left as it was.
	bad := filepath.Join(dir, "bad.bin")
	require.NoError(t, os.WriteFile(bad, truncatedRows, 0o644))
	_, stderr, code = cli(t, nil, "decode", "--format", "unsaferow", sampleSchemaFlag, "--codec", "auto", "--to", "arrow-file", "-o", arrowPath, plain, bad)
	require.Equal(t, 1, code, stderr)
	requireStderrLine(t, stderr, "rowbridge decode: "+bad+": framing: …")
	out, _, _ = cli(t, nil, "inspect", "--json", "--rows", "1000", arrowPath)
	require.Equal(t, one+one+one, string(out), "the output file stays as it was")
}

// encode reads an Arrow IPC stream, an Arrow IPC file and a Parquet file
// of one schema, in order, as one row stream: the rows of each, as
// encoding each alone gives them, one after the other.
func TestEncodeSeveralInputs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	rowsA := `[{"id": 1, "tags": ["a", "b"], "name": "one"}, {"id": 2, "tags": null, "name": null}]`
	rowsB := `[{"id": 3, "tags": [], "name": "three"}]`
	rowsC := `[{"id": 4, "tags": ["d", null], "name": "four"}, {"id": 5, "tags": ["e"], "name": "five"}]`
	writeInputs(t, dir, map[string][]byte{
		"a.arrows": streamOf(t, mem, rowsA), "b.arrow": arrowInputFile(t, rowsB), "c.parquet": parquetOf(t, mem, rowsC),
	})
	a, b, c := filepath.Join(dir, "a.arrows"), filepath.Join(dir, "b.arrow"), filepath.Join(dir, "c.parquet")
	var alone [][]byte
	for _, in := range []string{a, b, c} {
		out, stderr, code := cli(t, nil, "encode", "--format", "unsaferow", in)
		require.Equal(t, 0, code, stderr)
		alone = append(alone, out)
	}
	out, stderr, code := cli(t, nil, "encode", "--format", "unsaferow", a, b, c)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, concat(alone...), out)
	jsonl, stderr, code := cli(t, out, "decode", "--format", "unsaferow", "--schema", arrowInputDDL, "--to", "jsonl")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, `{"id":1,"tags":["a","b"],"name":"one"}
{"id":2,"tags":null,"name":null}
{"id":3,"tags":[],"name":"three"}
{"id":4,"tags":["d",null],"name":"four"}
{"id":5,"tags":["e"],"name":"five"}
`, string(jsonl))

	// From stdin too (the Arrow file from a pipe), into Velox row groups.
	out, stderr, code = cli(t, arrowInputFile(t, rowsB), "encode", "--format", "compactrow", "--framing", "velox", a, "-", c)
	require.Equal(t, 0, code, stderr)
	jsonl, stderr, code = cli(t, out, "decode", "--format", "compactrow", "--framing", "velox", "--schema", arrowInputDDL, "--to", "jsonl")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 5, strings.Count(string(jsonl), "\n"), string(jsonl))

	// inspect and shuffle write read them as one too.
	table, stderr, code := cli(t, nil, "inspect", "--count", a, b, c)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, string(table), "Input: Arrow IPC stream ("+a+", the first of 3 inputs read as one)\n")
	require.Contains(t, string(table), "\nRows: 5\n")
	shuffleDir := filepath.Join(dir, "shuffle")
	_, stderr, code = cli(t, nil, "shuffle", "write", "--partitions", "1", "--codec", "none", "-o", shuffleDir, a, b, c)
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(filepath.Join(shuffleDir, "shuffle_0_0_0.data"))
	require.NoError(t, err)
	require.Equal(t, concat(alone...), data, "one partition holds every row, in order")
}

// Several inputs must have one schema (up to metadata); the first that
// differs is named, and nothing is written.
func TestSeveralInputsMustShareASchema(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	other := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "tags", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rec, _, err := array.RecordFromJSON(mem, other, strings.NewReader(`[{"id": 9, "tags": "x"}]`))
	require.NoError(t, err)
	defer rec.Release()
	writeInputs(t, dir, map[string][]byte{
		"a.arrows": streamOf(t, mem, arrowInputRows), "b.arrow": arrowInputFile(t, arrowInputRows),
		"other.arrow": writeArrowFile(t, other, []arrow.RecordBatch{rec}, mem),
	})
	a, b, o := filepath.Join(dir, "a.arrows"), filepath.Join(dir, "b.arrow"), filepath.Join(dir, "other.arrow")
	out := filepath.Join(dir, "out.bin")
	writeFile(t, out, "old", 0o644)
	_, stderr, code := cli(t, nil, "encode", "--format", "unsaferow", "-o", out, a, b, o)
	require.Equal(t, 1, code, stderr)
	requireStderrLine(t, stderr, "rowbridge encode: "+o+": its schema differs from that of "+a+", the first input: 2 fields, not 3")
	requireFile(t, out, "old", 0o644)
	_, stderr, code = cli(t, nil, "inspect", o, a)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, "rowbridge inspect: "+a+": its schema differs from that of "+o+", the first input: 3 fields, not 2")
}

// -o may not be any of several inputs, for decode and encode alike; the
// file is left as it was.
func TestOutputIsOneOfSeveralInputs(t *testing.T) {
	dir := t.TempDir()
	writeInputs(t, dir, map[string][]byte{"a.bin": sampleRows, "b.bin": sampleRows, "a.arrow": arrowInputFile(t, arrowInputRows), "b.arrow": arrowInputFile(t, arrowInputRows)})
	for _, tc := range []struct {
		cmd  string
		args []string
		out  string
	}{
		{"decode", []string{"--format", "unsaferow", sampleSchemaFlag, filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.bin")}, filepath.Join(dir, "b.bin")},
		{"encode", []string{"--format", "unsaferow", filepath.Join(dir, "a.arrow"), filepath.Join(dir, "b.arrow")}, filepath.Join(dir, "b.arrow")},
	} {
		before, err := os.ReadFile(tc.out)
		require.NoError(t, err)
		_, stderr, code := cli(t, nil, append(append([]string{tc.cmd}, tc.args...), "-o", tc.out)...)
		require.Equal(t, 2, code, stderr)
		requireStderrLine(t, stderr, "rowbridge "+tc.cmd+": -o "+tc.out+" is the input "+tc.out+"; write the output to another file (see 'rowbridge "+tc.cmd+" -h')")
		after, err := os.ReadFile(tc.out)
		require.NoError(t, err)
		require.Equal(t, before, after)
		require.Len(t, dirNames(t, dir), 4, "no temporary file left")
	}
}

// An Arrow IPC file input is read through io.ReaderAt a record batch at a
// time: after each batch, the bytes read are about those of the batches so
// far (not the whole file), and the allocator holds one batch.
func TestArrowFileInputReadsBatchByBatch(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	const batches, rows = 8, 20000
	var recs []arrow.RecordBatch
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range batches {
		for j := range rows {
			b.Field(0).(*array.Int64Builder).Append(int64(i*rows + j))
			b.Field(1).(*array.StringBuilder).Append("a string of some thirty bytes")
		}
		recs = append(recs, b.NewRecordBatch())
	}
	batchBytes := columnar.RecordBytes(recs[0])
	data := writeArrowFile(t, schema, recs, mem)
	releaseAll(recs...)
	perBatch := int64(len(data)) / batches
	path := filepath.Join(t.TempDir(), "in.arrow")
	require.NoError(t, os.WriteFile(path, data, 0o644))

	ins, err := newInputSet(&env{}, []string{path})
	require.NoError(t, err)
	ins.prog = newProgress(io.Discard, "encode", int64(len(data)), time.Hour, time.Hour)
	defer ins.prog.done()
	peak := &peakAllocator{CheckedAllocator: mem}
	src, err := openChain(ins, func(in *inputSource) (batchSource, error) { return openArrow(in, peak) })
	require.NoError(t, err)
	const slack = 64<<10 + 8<<10 // the first read's buffer, the footer and the blocks' metadata
	require.Less(t, ins.prog.bytes, int64(slack), "opening reads the footer, not the file")
	for i := range batches {
		rec, ok, err := src.Next()
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, int64(i*rows), rec.Column(0).(*array.Int64).Value(0))
		require.Less(t, ins.prog.bytes, int64(i+1)*perBatch+slack, "batch %d", i)
		require.LessOrEqual(t, peak.peak, int(batchBytes)+4<<10, "batch %d: one batch in memory, even while the next is read", i)
	}
	_, ok, err := src.Next()
	require.NoError(t, err)
	require.False(t, ok)
	src.Close()
}

// peakAllocator records the most memory a CheckedAllocator held at once.
type peakAllocator struct {
	*memory.CheckedAllocator
	peak int
}

func (a *peakAllocator) Allocate(size int) []byte {
	b := a.CheckedAllocator.Allocate(size)
	a.peak = max(a.peak, a.CurrentAlloc())
	return b
}

func (a *peakAllocator) Reallocate(size int, b []byte) []byte {
	nb := a.CheckedAllocator.Reallocate(size, b)
	a.peak = max(a.peak, a.CurrentAlloc())
	return nb
}

// Memory that inputAllocator hands out again is zeroed, as Go's own:
// arrow-go's Parquet reader relies on it (TestParquetRoundTrip failed on
// recycled memory that was not).
func TestInputAllocatorZeroesReusedMemory(t *testing.T) {
	mem := inputAllocator()
	b := mem.Allocate(1000)
	for i := range b {
		b[i] = 0xff
	}
	mem.Free(b)
	b = mem.Allocate(900) // the same size class: the buffer just freed
	require.Equal(t, make([]byte, 900), b)
	for i := range b {
		b[i] = 0xee
	}
	b = mem.Reallocate(1000, b) // within its capacity: the bytes past 900 were 0xff
	require.Equal(t, bytes.Repeat([]byte{0xee}, 900), b[:900])
	require.Equal(t, make([]byte, 100), b[900:])
	mem.Free(b)
}

// sniffInput tells Arrow IPC from plausible rows where the first bytes
// could be either; an Arrow stream of before Arrow 0.15 (no continuation
// marker) is still read by encode.
func TestSniffInputAmbiguousStarts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	stream := streamOf(t, mem, arrowInputRows)
	require.Equal(t, arrowContinuation, stream[:4])
	legacy := stream[4:] // the first message without its marker, as pre-0.15 writers framed it
	require.Equal(t, kindArrowStream, sniffInput(legacy[:sniffBytes]))
	out, stderr, code := cli(t, legacy, "encode", "--format", "unsaferow")
	require.Equal(t, 0, code, stderr)
	want, _, _ := cli(t, stream, "encode", "--format", "unsaferow")
	require.Equal(t, want, out)

	// An UnsafeRow of 1032 bytes whose null bits read as a root offset
	// (what GOARCH=386 test data began with) is rows, not a legacy stream.
	row := []byte{0, 0, 4, 8, 8, 0x18, 8, 0, 0, 0, 0, 0, 1, 0, 0, 0}
	require.Equal(t, kindRows, sniffInput(row))
	// After an end marker, a plausible small row is rows for decode; an
	// Arrow schema message's length and root offset are not.
	l := streamLayout{format: formatUnsafeRow, framing: framing.Spark, codec: framing.None}
	rows := append([]byte{0xff, 0xff, 0xff, 0xff}, sampleRows[:12]...)
	require.Equal(t, kindArrowStream, sniffInput(rows))
	require.True(t, l.acceptsRows(sniffInput(rows), rows))
	require.False(t, l.acceptsRows(kindArrowStream, stream[:sniffBytes]))
}
