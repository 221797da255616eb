package bench

import (
	"fmt"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/arrowvec"
	"github.com/rowbridge/rowbridge/compactrow"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/rowbridge/rowbridge/unsaferow"
)

// The Velox UnsafeRowSerializeBenchmark shape (docs/velox-benchmarks.md, "Row serde: what is timed"): every iteration
// encodes or decodes 1000 rows of VectorFuzzer-like data made with seed 1.
const (
	rowBenchRows = 1000
	rowBenchSeed = 1
)

// recycledMaxIdle bounds what a recycled case's allocator keeps: far more
// than one decoded batch of any shape needs, so every iteration after the
// first is served from released buffers.
const recycledMaxIdle = 64 << 20

// Row benchmark groups and implementation names. A row case is named
// <impl>_<op>_<shape>, with suffixRecycled when the decoder is given an
// arrowvec.RecyclingAllocator (WithAllocator) instead of its default.
const (
	OpSerialize   = "serialize"
	OpDeserialize = "deserialize"

	ImplUnsafe  = "unsafe"  // package unsaferow (Velox flavour)
	ImplCompact = "compact" // package compactrow
	ImplBuilder = "builder" // BuilderDecoder and RowAtATimeEncoder, the row-at-a-time baselines

	suffixRecycled = "_recycled"
)

// RowCases lists the row-format benchmarks for the nine Velox serde shapes
// plus decimals (UnsafeRow only, as in Velox): in group "serialize/<shape>"
// unsafe_serialize_<shape> and compact_serialize_<shape>; in group
// "deserialize/<shape>" builder_, unsafe_ and compact_deserialize_<shape>,
// each once as a user without options decodes (NewDecoder(schema), whose
// default allocator recycles released batches; the builder baseline
// allocates from Setup's allocator) and once (suffix _recycled) from an
// arrowvec.RecyclingAllocator given as an option. The builder baseline
// with Setup's allocator is the reference of its deserialize group.
func RowCases() []Case {
	var cases []Case
	for _, bc := range testgen.BenchCases() {
		impls := []string{ImplUnsafe, ImplCompact}
		if bc.Name == "decimals" {
			impls = []string{ImplUnsafe}
		}
		for _, impl := range append([]string{ImplBuilder}, impls...) {
			cases = append(cases, serializeCase(bc, impl))
		}
		for _, recycled := range []bool{false, true} {
			for _, impl := range append([]string{ImplBuilder}, impls...) {
				cases = append(cases, deserializeCase(bc, impl, recycled))
			}
		}
	}
	return cases
}

// RowCase is what a row case's name says about it.
type RowCase struct {
	Impl     string // ImplUnsafe, ImplCompact or ImplBuilder
	Op       string // OpSerialize or OpDeserialize
	Shape    string // the testgen.BenchCases name
	Recycled bool   // decoded into an arrowvec.RecyclingAllocator
}

// Label names the implementation and allocator, e.g. "unsafe (recycled)".
func (r RowCase) Label() string {
	if r.Recycled {
		return r.Impl + " (recycled)"
	}
	return r.Impl
}

// Format is the row format the case reads or writes.
func (r RowCase) Format() string {
	if r.Impl == ImplCompact {
		return "compactrow"
	}
	return "unsaferow"
}

// ParseRowCase reads a row case's name; ok is false for other cases.
func ParseRowCase(c Case) (RowCase, bool) {
	name, recycled := strings.CutSuffix(c.Name, suffixRecycled)
	parts := strings.SplitN(name, "_", 3)
	if len(parts) != 3 || !strings.HasSuffix(c.Group, "/"+parts[2]) {
		return RowCase{}, false
	}
	r := RowCase{Impl: parts[0], Op: parts[1], Shape: parts[2], Recycled: recycled}
	if c.Group != r.Op+"/"+r.Shape {
		return RowCase{}, false
	}
	switch r.Impl {
	case ImplUnsafe, ImplCompact, ImplBuilder:
		return r, true
	}
	return RowCase{}, false
}

func rowCaseName(impl, op, shape string, recycled bool) string {
	name := impl + "_" + op + "_" + shape
	if recycled {
		name += suffixRecycled
	}
	return name
}

func serializeCase(bc testgen.BenchCase, impl string) Case {
	return Case{
		Group: OpSerialize + "/" + bc.Name,
		Name:  rowCaseName(impl, OpSerialize, bc.Name, false),
		Rows:  rowBenchRows,
		Setup: func(mem memory.Allocator) (func() error, func()) {
			rec := testgen.BenchBatch(mem, bc.Name, rowBenchRows, rowBenchSeed)
			var enc rowEncoder
			var err error
			if impl == ImplBuilder {
				enc, err = NewRowAtATimeEncoder(bc.Schema, true)
			} else {
				enc, err = newRowEncoder(impl, bc.Schema)
			}
			if err != nil {
				rec.Release()
				return failing(err), func() {}
			}
			// The output buffer is reused from one iteration to the next, as a
			// shuffle writer would; the encoder still zeroes what it writes.
			var out rowbridge.Rows
			run := func() error {
				out.Reset()
				var err error
				out, err = enc.AppendRows(out, rec)
				if err == nil && out.Len() != rowBenchRows {
					err = fmt.Errorf("%s: encoded %d rows, want %d", bc.Name, out.Len(), rowBenchRows)
				}
				return err
			}
			return run, rec.Release
		},
	}
}

func deserializeCase(bc testgen.BenchCase, impl string, recycled bool) Case {
	return deserializeRows(bc, impl, recycled, rowBenchRows)
}

// deserializeRows is deserializeCase over nrows rows per iteration.
func deserializeRows(bc testgen.BenchCase, impl string, recycled bool, nrows int) Case {
	return Case{
		Group: OpDeserialize + "/" + bc.Name,
		Name:  rowCaseName(impl, OpDeserialize, bc.Name, recycled),
		Rows:  nrows,
		Setup: func(mem memory.Allocator) (func() error, func()) {
			rows, err := encodeShape(mem, impl, bc.Name, nrows)
			if err != nil {
				return failing(err), func() {}
			}
			slices := rows.Slices()
			// The default cases decode as a user without options does
			// (NewDecoder(schema)); the builder baseline, which takes no
			// options, allocates from Setup's allocator.
			var outMem memory.Allocator
			if recycled {
				outMem = arrowvec.NewRecyclingAllocator(recycledMaxIdle)
			} else if impl == ImplBuilder {
				outMem = mem
			}
			dec, err := newRowDecoder(impl, bc.Schema, outMem)
			if err != nil {
				return failing(err), func() {}
			}
			run := func() error {
				out, err := dec.Decode(slices)
				if err != nil {
					return err
				}
				n := out.NumRows()
				out.Release()
				if n != int64(nrows) {
					return fmt.Errorf("%s: decoded %d rows, want %d", bc.Name, n, nrows)
				}
				return nil
			}
			return run, func() {}
		},
	}
}

// BytesPerRow is the mean size of the case's encoded rows (docs/velox-benchmarks.md, "Row serde: encoded sizes"): what
// it writes or reads, UnsafeRow for the builder baseline.
func (r RowCase) BytesPerRow() (float64, error) {
	key := r.Format() + "/" + r.Shape
	if v, ok := bytesPerRow.Load(key); ok {
		return v.(float64), nil
	}
	rows, err := encodeShape(memory.DefaultAllocator, r.Impl, r.Shape, rowBenchRows)
	if err != nil {
		return 0, err
	}
	v := float64(len(rows.Data)) / float64(rows.Len())
	bytesPerRow.Store(key, v)
	return v, nil
}

var bytesPerRow sync.Map // format/shape -> float64

// encodeShape encodes rows rows of the bench shape in the format impl reads
// (UnsafeRow, Velox flavour, for ImplUnsafe and ImplBuilder).
func encodeShape(mem memory.Allocator, impl, shape string, rows int) (rowbridge.Rows, error) {
	var schema *arrow.Schema
	for _, bc := range testgen.BenchCases() {
		if bc.Name == shape {
			schema = bc.Schema
		}
	}
	if schema == nil {
		return rowbridge.Rows{}, fmt.Errorf("bench: unknown shape %q", shape)
	}
	rec := testgen.BenchBatch(mem, shape, rows, rowBenchSeed)
	defer rec.Release()
	enc, err := newRowEncoder(impl, schema)
	if err != nil {
		return rowbridge.Rows{}, err
	}
	return enc.Encode(rec)
}

type rowEncoder interface {
	Encode(rec arrow.RecordBatch) (rowbridge.Rows, error)
	AppendRows(dst rowbridge.Rows, rec arrow.RecordBatch) (rowbridge.Rows, error)
}

type rowDecoder interface {
	Decode(rows [][]byte) (arrow.RecordBatch, error)
}

func newRowEncoder(impl string, schema *arrow.Schema) (rowEncoder, error) {
	if impl == ImplCompact {
		return compactrow.NewEncoder(schema)
	}
	// The baseline reads UnsafeRow too; Velox's flavour because the shapes
	// and reference figures are Velox's.
	return unsaferow.NewEncoder(schema, unsaferow.WithFlavor(unsaferow.Velox))
}

// newRowDecoder is impl's decoder for schema, allocating from mem; a nil
// mem means no allocator option (the codec's default).
func newRowDecoder(impl string, schema *arrow.Schema, mem memory.Allocator) (rowDecoder, error) {
	switch {
	case impl == ImplBuilder:
		return NewBuilderDecoder(schema, mem)
	case impl == ImplCompact && mem == nil:
		return compactrow.NewDecoder(schema)
	case impl == ImplCompact:
		return compactrow.NewDecoder(schema, compactrow.WithAllocator(mem))
	case mem == nil:
		return unsaferow.NewDecoder(schema)
	}
	return unsaferow.NewDecoder(schema, unsaferow.WithAllocator(mem))
}

// failing is the run function of a case whose setup failed: the error shows
// up where the case is run, with its name.
func failing(err error) func() error { return func() error { return err } }
