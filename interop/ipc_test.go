package interop

import (
	"bytes"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
)

// writeIPC writes batches as an Arrow IPC stream to streamPath and as an
// IPC file to filePath (either may be "").
func writeIPC(t *testing.T, mem memory.Allocator, schema *arrow.Schema, streamPath, filePath string, batches ...arrow.RecordBatch) {
	t.Helper()
	if streamPath != "" {
		var buf bytes.Buffer
		w := ipc.NewWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
		for _, rb := range batches {
			if err := w.Write(rb); err != nil {
				t.Fatalf("ipc stream write: %v", err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(streamPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if filePath != "" {
		f, err := os.Create(filePath)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fw, err := ipc.NewFileWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		for _, rb := range batches {
			if err := fw.Write(rb); err != nil {
				t.Fatalf("ipc file write: %v", err)
			}
		}
		if err := fw.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// readIPCStream reads every batch of an IPC stream; the caller releases them.
func readIPCStream(t *testing.T, mem memory.Allocator, path string) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ipc.NewReader(bytes.NewReader(b), ipc.WithAllocator(mem))
	if err != nil {
		t.Fatalf("ipc stream %s: %v", path, err)
	}
	defer r.Release()
	var out []arrow.RecordBatch
	for r.Next() {
		rb := r.RecordBatch()
		rb.Retain()
		out = append(out, rb)
	}
	if err := r.Err(); err != nil {
		t.Fatalf("ipc stream %s: %v", path, err)
	}
	return r.Schema(), out
}

// readIPCFile reads every batch of an IPC file; the caller releases them.
func readIPCFile(t *testing.T, mem memory.Allocator, path string) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
	if err != nil {
		t.Fatalf("ipc file %s: %v", path, err)
	}
	defer r.Close()
	var out []arrow.RecordBatch
	for i := 0; i < r.NumRecords(); i++ {
		rb, err := r.RecordBatchAt(i)
		if err != nil {
			t.Fatalf("ipc file %s batch %d: %v", path, i, err)
		}
		out = append(out, rb)
	}
	return r.Schema(), out
}

func releaseAll(batches []arrow.RecordBatch) {
	for _, rb := range batches {
		rb.Release()
	}
}

// validateRead checks a batch read from IPC like testgen.ValidateBatch does.
// arrow-go's IPC reader builds Null-type arrays with no buffers while
// array.ValidateFull insists on the one (always-null) buffer of the Null
// layout, so Null nodes are given that buffer first; everything else is
// validated as read.
func validateRead(t *testing.T, rb arrow.RecordBatch) {
	t.Helper()
	cols := make([]arrow.Array, rb.NumCols())
	for i, col := range rb.Columns() {
		d := withNullBuffers(col.Data())
		cols[i] = array.MakeFromData(d)
		d.Release()
	}
	fixed := array.NewRecordBatch(rb.Schema(), cols, rb.NumRows())
	releaseArrays(cols)
	defer fixed.Release()
	testgen.ValidateBatch(t, fixed)
}

func withNullBuffers(d arrow.ArrayData) arrow.ArrayData {
	if d.DataType().ID() == arrow.NULL && len(d.Buffers()) == 0 {
		return array.NewData(arrow.Null, d.Len(), []*memory.Buffer{nil}, nil, d.Len(), d.Offset())
	}
	children := make([]arrow.ArrayData, len(d.Children()))
	for i, c := range d.Children() {
		children[i] = withNullBuffers(c)
	}
	out := array.NewData(d.DataType(), d.Len(), d.Buffers(), children, d.NullN(), d.Offset())
	for _, c := range children {
		c.Release()
	}
	return out
}

func releaseArrays(arrs []arrow.Array) {
	for _, a := range arrs {
		a.Release()
	}
}

// concatBatches joins batches of one schema into a single batch.
func concatBatches(t *testing.T, mem memory.Allocator, schema *arrow.Schema, batches []arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	cols := make([]arrow.Array, schema.NumFields())
	defer releaseArrays(cols)
	n := int64(0)
	for _, rb := range batches {
		n += rb.NumRows()
	}
	for c := range cols {
		if len(batches) == 0 {
			b := array.NewBuilder(mem, schema.Field(c).Type)
			cols[c] = b.NewArray()
			b.Release()
			continue
		}
		parts := make([]arrow.Array, len(batches))
		for i, rb := range batches {
			parts[i] = rb.Column(c)
		}
		var err error
		cols[c], err = array.Concatenate(parts, mem)
		if err != nil {
			t.Fatalf("concatenate column %d: %v", c, err)
		}
	}
	return array.NewRecordBatch(schema, cols, n)
}
