package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sleepCase is a case whose iteration takes about d.
func sleepCase(group, name string, rows int, d time.Duration) Case {
	return Case{Group: group, Name: name, Rows: rows, Setup: func(memory.Allocator) (func() error, func()) {
		return func() error { time.Sleep(d); return nil }, func() {}
	}}
}

func TestMeasureGrowsToTarget(t *testing.T) {
	calls := 0
	c := Case{Group: "g", Name: "n", Rows: 10, Setup: func(memory.Allocator) (func() error, func()) {
		return func() error { calls++; time.Sleep(100 * time.Microsecond); return nil }, func() {}
	}}
	const target = 40 * time.Millisecond
	r, err := Measure(c, memory.DefaultAllocator, target)
	require.NoError(t, err)
	assert.Greater(t, r.Iterations, 1, "a 100µs case needs many iterations per 10ms epoch")
	assert.GreaterOrEqual(t, calls, 1+Epochs*r.Iterations, "warm-up plus Epochs rounds")
	assert.GreaterOrEqual(t, r.NsPerOp, 100e3)
	assert.InDelta(t, r.NsPerOp/10, r.NsPerRow, 1e-6)
	assert.InDelta(t, 1e9/r.NsPerRow, r.RowsPerSec, 1e-3)
}

func TestMeasureReportsCaseError(t *testing.T) {
	boom := errors.New("boom")
	c := Case{Group: "g", Name: "bad", Rows: 1, Setup: func(memory.Allocator) (func() error, func()) {
		return func() error { return boom }, func() {}
	}}
	_, err := Measure(c, memory.DefaultAllocator, time.Millisecond)
	require.ErrorIs(t, err, boom)
	assert.Contains(t, err.Error(), "g/bad")
}

func TestNextIterations(t *testing.T) {
	assert.Equal(t, 100, nextIterations(1, time.Microsecond, time.Second), "at most a hundredfold")
	assert.Equal(t, 2, nextIterations(1, 999*time.Millisecond, time.Second), "at least one more")
	assert.Equal(t, 120, nextIterations(10, 10*time.Millisecond, 100*time.Millisecond), "target plus 20%")
}

func TestReferenceName(t *testing.T) {
	assert.Equal(t, "try_cast(valid)", ReferenceName("cast_int", []string{"try_cast(empty)", "try_cast(valid)"}))
	assert.Equal(t, "", ReferenceName("cast_int", []string{"try_cast(empty)"}))
	assert.Equal(t, "builder_deserialize_maps", ReferenceName("deserialize/maps",
		[]string{"unsafe_deserialize_maps", "builder_deserialize_maps_recycled", "builder_deserialize_maps"}))
	assert.Equal(t, "", ReferenceName("deserialize/maps", []string{"unsafe_deserialize_maps"}))
	assert.Equal(t, "builder_serialize_maps", ReferenceName("serialize/maps",
		[]string{"unsafe_serialize_maps", "builder_serialize_maps", "compact_serialize_maps"}))
	assert.Equal(t, "", ReferenceName("serialize/maps", []string{"unsafe_serialize_maps", "compact_serialize_maps"}))
	assert.Equal(t, "decode_a", ReferenceName("other", []string{"decode_a", "decode_b"}))
}

func TestRunFiltersAndCompares(t *testing.T) {
	cases := []Case{
		sleepCase("deserialize/arrays", "builder_deserialize_arrays", 1000, 2*time.Millisecond),
		sleepCase("deserialize/arrays", "unsafe_deserialize_arrays", 1000, 500*time.Microsecond),
		sleepCase("other", "skipped", 1, time.Millisecond),
	}
	var progress bytes.Buffer
	results, err := Run(cases, RunOptions{Target: 5 * time.Millisecond, Filter: regexp.MustCompile(`^deserialize/`), Progress: &progress})
	require.NoError(t, err)
	require.Len(t, results, 2)
	assert.Equal(t, 2, strings.Count(progress.String(), "\n"))
	base, fast := results[0], results[1]
	assert.Equal(t, "builder_deserialize_arrays", fast.Reference)
	assert.InDelta(t, 100, base.Relative, 1e-9)
	assert.Greater(t, fast.Relative, 150.0, "a 4x faster case is well above 100%%")
	assert.InDelta(t, 33.9, fast.VeloxNsPerRow, 1e-9)
	assert.Zero(t, base.VeloxNsPerRow)
	// Real encoded sizes come from the codecs (docs/velox-benchmarks.md, "Row serde: encoded sizes": 40+8L bytes, L≈9.5).
	assert.InDelta(t, 110, fast.EncodedBytesPerRow, 15)
}

func sampleResults() []Result {
	return []Result{
		{Group: "deserialize/fixedWidth5", Name: "builder_deserialize_fixedWidth5", Rows: 1000, NsPerOp: 100e3, NsPerRow: 100, RowsPerSec: 1e7,
			BytesPerOp: 12345, AllocsPerOp: 40, Reference: "builder_deserialize_fixedWidth5", Relative: 100, EncodedBytesPerRow: 48},
		{Group: "deserialize/fixedWidth5", Name: "unsafe_deserialize_fixedWidth5", Rows: 1000, NsPerOp: 20e3, NsPerRow: 20, RowsPerSec: 5e7,
			BytesPerOp: 2048, AllocsPerOp: 0, Reference: "builder_deserialize_fixedWidth5", Relative: 500, VeloxNsPerRow: 23.1, EncodedBytesPerRow: 48},
		{Group: "serialize/fixedWidth5", Name: "compact_serialize_fixedWidth5", Rows: 1000, NsPerOp: 9e3, NsPerRow: 9, RowsPerSec: 1.1e8},
		{Group: "cast_int", Name: "try_cast(valid)", Rows: 100000, NsPerOp: 2.5e6, NsPerRow: 25, RowsPerSec: 4e7},
	}
}

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, sampleResults()))
	out := b.String()
	lines := strings.Split(out, "\n")
	assert.Contains(t, lines[1], "deserialize/fixedWidth5")
	assert.Contains(t, lines[1], "velox ns/row")
	var unsafe string
	for _, l := range lines {
		if strings.HasPrefix(l, "unsafe_deserialize_fixedWidth5 ") {
			unsafe = l
		}
	}
	require.NotEmpty(t, unsafe, out)
	assert.Equal(t, []string{"unsafe_deserialize_fixedWidth5", "20.00us", "500.0%", "50.00M", "20.0", "23.1", "48.0", "2.05K", "0"},
		strings.Fields(unsafe))
	assert.Equal(t, 3, strings.Count(out, "\n\n")+1, "three groups")
	assert.Contains(t, out, "2.50ms")
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, sampleResults()))
	var back []Result
	require.NoError(t, json.Unmarshal(b.Bytes(), &back))
	assert.Equal(t, sampleResults(), back)
	assert.Contains(t, b.String(), `"ns_per_row": 20`)

	b.Reset()
	require.NoError(t, WriteJSON(&b, nil))
	assert.Equal(t, "[]\n", b.String())
}

func TestWritePlot(t *testing.T) {
	var png, svg bytes.Buffer
	require.NoError(t, WritePlot(&png, sampleResults(), "png"))
	assert.True(t, bytes.HasPrefix(png.Bytes(), []byte("\x89PNG\r\n\x1a\n")), "PNG magic")
	require.NoError(t, WritePlot(&svg, sampleResults(), "svg"))
	assert.Contains(t, svg.String(), "<svg")
	assert.Contains(t, svg.String(), "fixedWidth5")

	assert.Error(t, WritePlot(&png, nil, "png"))
	f, err := PlotFormat("out.SVG")
	require.NoError(t, err)
	assert.Equal(t, "svg", f)
	_, err = PlotFormat("out.jpg")
	assert.Error(t, err)
}

func TestPlotPanels(t *testing.T) {
	panels := plotPanels(sampleResults())
	require.Len(t, panels, 3)
	dec := panels[0]
	assert.Equal(t, []string{"fixedWidth5"}, dec.categories)
	assert.Equal(t, []string{"builder", "unsafe", "velox (published)"}, dec.series)
	assert.Equal(t, 23.1, dec.values["velox (published)"]["fixedWidth5"])
	assert.Equal(t, []string{"try_cast(valid)"}, panels[2].categories)
	assert.Equal(t, []string{"cast_int"}, panels[2].series)
}

func TestMeasureCPUTime(t *testing.T) {
	if testgen.ProcessCPU() == 0 {
		t.Skip("no process CPU clock here")
	}
	sink := 0
	busy := Case{Group: "g", Name: "busy", Rows: 1, Setup: func(memory.Allocator) (func() error, func()) {
		return func() error {
			for i := range 200_000 {
				sink += i ^ sink
			}
			return nil
		}, func() {}
	}}
	r, err := Measure(busy, memory.DefaultAllocator, 40*time.Millisecond)
	require.NoError(t, err)
	assert.Positive(t, r.CPUNsPerRow, "a busy loop uses CPU")
	// Sleeping costs wall time, not CPU.
	r, err = Measure(sleepCase("g", "sleep", 1, 2*time.Millisecond), memory.DefaultAllocator, 40*time.Millisecond)
	require.NoError(t, err)
	assert.Less(t, r.CPUNsPerRow, r.NsPerRow/2)
	_ = sink
}

func TestRecycledCasesCompareWithRecycledBuilder(t *testing.T) {
	g := "deserialize/maps"
	results := []Result{
		{Group: g, Name: "builder_deserialize_maps", NsPerOp: 400},
		{Group: g, Name: "unsafe_deserialize_maps", NsPerOp: 100},
		{Group: g, Name: "builder_deserialize_maps_recycled", NsPerOp: 300},
		{Group: g, Name: "unsafe_deserialize_maps_recycled", NsPerOp: 50},
	}
	compareToReferences(results)
	assert.Equal(t, "builder_deserialize_maps", results[1].Reference)
	assert.InDelta(t, 400.0, results[1].Relative, 1e-9)
	assert.Equal(t, "builder_deserialize_maps_recycled", results[3].Reference)
	assert.InDelta(t, 600.0, results[3].Relative, 1e-9)
	assert.InDelta(t, 100.0, results[2].Relative, 1e-9)
}
