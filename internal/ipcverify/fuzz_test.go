package ipcverify

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// toleratedPanics are the functions in which arrow-go may still panic on
// input the verifier accepts, because the cause is in the buffers' values,
// which the verifier does not read: (*String).ValidateFull and
// (*LargeString).ValidateFull slice the data buffer at each offset before
// they check that the offsets increase, so an offset past the data panics
// instead of failing validation. Callers run validation under recover.
//
// Other panics on buffers that do not match their field nodes (array
// construction) happen where arrow-go recovers them itself and returns an
// error: ipc.Reader.Next and ipc.FileReader.RecordBatch.
var toleratedPanics = []string{
	"github.com/apache/arrow-go/v18/arrow/array.(*String).ValidateFull",
	"github.com/apache/arrow-go/v18/arrow/array.(*LargeString).ValidateFull",
}

// FuzzVerify feeds arbitrary bytes to File (when they start with the file
// magic) or to a MessageReader: the verifier must not panic, must fail
// only with an *Error, and when it accepts the input, arrow-go must read
// it (schema, dictionaries, every batch, then array.ValidateFull of each
// column) without panicking, except in toleratedPanics, or running out of
// memory.
//
// Its seeds are small (see fuzzSeeds): the fuzzer minimizes every input
// that finds new coverage, and the time that takes grows with the input,
// so large seeds left CI fuzzing a few inputs a minute.
func FuzzVerify(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var err error
		if bytes.HasPrefix(data, FileMagic) {
			err = File(bytes.NewReader(data), int64(len(data)))
		} else {
			err = readMessages(data)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		if site, stack := arrowReads(data); site != "" {
			t.Fatalf("arrow-go panicked in %s on input the verifier accepts:\n%s", site, stack)
		}
	})
}

// seedGroups are the columns of nestedSchema that FuzzVerify's seeds take
// together: between them every layout the array loader knows.
var seedGroups = [][]string{{"s"}, {"d"}, {"id"}, {"l"}, {"st"}, {"m"}, {"ld"}, {"sv"}, {"su"}, {"du"}, {"ree"}, {"n"}, {"fsl"}, {"lv"}, {"ts"}, {"dec"}, {"fsb"}}

// maxSeedSize bounds each FuzzVerify seed.
const maxSeedSize = 768

// fuzzSeeds returns FuzzVerify's seeds: for each of seedGroups, a stream
// of one row of those columns of nestedRows; the first two (a string, a
// dictionary) also as a file, the first also compressed with LZ4 and zstd;
// a dictionary delta; and a Null column in a list with null_count -1, as
// apache-arrow JS writes it. Each is at most maxSeedSize bytes: the
// minimizer's work grows with the square of an input's size.
func fuzzSeeds(t testing.TB) [][]byte {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var first []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(nestedRows[0]), &first))
	batch := func(names ...string) arrow.RecordBatch {
		var fields []arrow.Field
		row := map[string]json.RawMessage{}
		for _, name := range names {
			i := nestedSchema.FieldIndices(name)[0]
			fields = append(fields, nestedSchema.Field(i))
			row[name] = first[0][name]
		}
		rows, err := json.Marshal([]any{row})
		require.NoError(t, err)
		var md *arrow.Metadata
		if names[0] == "id" { // custom metadata, in one seed
			md = &nestedMetadata
		}
		rec, _, err := array.RecordFromJSON(mem, arrow.NewSchema(fields, md), bytes.NewReader(rows))
		require.NoError(t, err)
		return rec
	}
	write := func(file bool, names []string, opts ...ipc.Option) []byte {
		rec := batch(names...)
		defer rec.Release()
		return writeIPC(t, file, []arrow.RecordBatch{rec}, append(opts, ipc.WithAllocator(mem))...)
	}
	var seeds [][]byte
	for i, names := range seedGroups {
		seeds = append(seeds, write(false, names))
		if i < 2 {
			seeds = append(seeds, write(true, names))
		}
		if i < 1 {
			seeds = append(seeds, write(false, names, ipc.WithLZ4()), write(false, names, ipc.WithZstd()))
		}
	}
	// A dictionary, then a delta that adds to it.
	d1, d2 := batch("d"), batch("d")
	defer d1.Release()
	defer d2.Release()
	seeds = append(seeds, writeIPC(t, false, []arrow.RecordBatch{d1, d2}, ipc.WithAllocator(mem), ipc.WithDictionaryDeltas(true)))
	// list<null> with the element's null count unknown.
	ln, _, err := array.RecordFromJSON(mem, arrow.NewSchema([]arrow.Field{{Name: "ln", Type: arrow.ListOf(arrow.Null), Nullable: true}}, nil), strings.NewReader(`[{"ln": [null, null]}]`))
	require.NoError(t, err)
	defer ln.Release()
	seeds = append(seeds, setNodeNullCounts(t, writeIPC(t, false, []arrow.RecordBatch{ln}, ipc.WithAllocator(mem)), false, -1, 1))
	for i, s := range seeds {
		require.LessOrEqual(t, len(s), maxSeedSize, "seed %d", i)
	}
	return seeds
}

// readMessages reads the stream data through a MessageReader alone.
func readMessages(data []byte) error {
	mr := NewMessageReader(bytes.NewReader(data))
	defer mr.Release()
	for {
		if _, err := mr.Message(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// arrowReads reads data with arrow-go as the CLI does, after File or
// through a MessageReader, and validates every column. If arrow-go panics
// outside toleratedPanics, it returns the function that panicked and the
// stack.
func arrowReads(data []byte) (site, stack string) {
	defer func() {
		if p := recover(); p != nil {
			stack = string(debug.Stack())
			site = panicSite(stack)
			for _, ok := range toleratedPanics {
				if site == ok {
					site, stack = "", ""
				}
			}
		}
	}()
	if bytes.HasPrefix(data, FileMagic) {
		fr, err := ipc.NewFileReader(bytes.NewReader(data))
		if err != nil {
			return "", ""
		}
		defer fr.Close()
		for i := range fr.NumRecords() {
			rec, err := fr.RecordBatch(i)
			if err != nil {
				return "", ""
			}
			_ = array.ValidateRecordFull(rec)
		}
		return "", ""
	}
	r, err := ipc.NewReaderFromMessageReader(NewMessageReader(bytes.NewReader(data)))
	if err != nil {
		return "", ""
	}
	defer r.Release()
	for r.Next() {
		_ = array.ValidateRecordFull(r.RecordBatch())
	}
	return "", ""
}

// panicSite returns the function that panicked, from the stack of the
// goroutine that recovered: the first frame after runtime's own.
func panicSite(stack string) string {
	lines := strings.Split(stack, "\n")
	for i, line := range lines {
		if !strings.HasPrefix(line, "panic(") {
			continue
		}
		for _, fn := range lines[i+1:] {
			if strings.HasPrefix(fn, "\t") || strings.HasPrefix(fn, "runtime.") {
				continue
			}
			if j := strings.LastIndex(fn, "("); j > 0 {
				return fn[:j]
			}
			return fn
		}
	}
	return "?"
}
