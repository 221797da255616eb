package bench

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/internal/testgen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BenchmarkSuite runs every cast and row case, the suite 'rowbridge bench'
// times: go test ./bench -run '^$' -bench 'Suite/deserialize/'
func BenchmarkSuite(b *testing.B) {
	for _, c := range append(CastCases(), RowCases()...) {
		b.Run(c.Group+"/"+c.Name, func(b *testing.B) {
			run, cleanup := c.Setup(memory.DefaultAllocator)
			defer cleanup()
			b.ReportAllocs()
			for b.Loop() {
				if err := run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.Rows), "ns/row")
			if rc, ok := ParseRowCase(c); ok {
				if v, err := rc.BytesPerRow(); err == nil {
					b.ReportMetric(v, "bytes/row")
				}
			}
		})
	}
}

func TestRowCasesNames(t *testing.T) {
	cases := RowCases()
	// 9 shapes x (3 serialize + 6 deserialize) + decimals x (2 + 4).
	require.Len(t, cases, 9*9+6)
	seen := map[string]bool{}
	for _, c := range cases {
		key := c.Group + "/" + c.Name
		assert.False(t, seen[key], "duplicate %s", key)
		seen[key] = true
		rc, ok := ParseRowCase(c)
		require.True(t, ok, key)
		assert.Equal(t, rowBenchRows, c.Rows)
		assert.Equal(t, c.Name, rowCaseName(rc.Impl, rc.Op, rc.Shape, rc.Recycled))
	}
	for _, name := range []string{
		"serialize/fixedWidth5/unsafe_serialize_fixedWidth5",
		"serialize/maps/compact_serialize_maps",
		"serialize/nestedArrays/builder_serialize_nestedArrays",
		"deserialize/strings1/builder_deserialize_strings1",
		"deserialize/nestedArrays/compact_deserialize_nestedArrays_recycled",
		"deserialize/decimals/unsafe_deserialize_decimals",
	} {
		assert.True(t, seen[name], name)
	}
	assert.False(t, seen["deserialize/decimals/compact_deserialize_decimals"], "decimals are UnsafeRow only")
	_, ok := ParseRowCase(Case{Group: "cast_int", Name: "try_cast(valid)"})
	assert.False(t, ok)
}

// TestRowCasesRun runs every row case once: none errors or leaks.
func TestRowCasesRun(t *testing.T) {
	for _, c := range RowCases() {
		t.Run(c.Group+"/"+c.Name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			run, cleanup := c.Setup(mem)
			defer cleanup()
			require.NoError(t, run())
			require.NoError(t, run())
		})
	}
}

// TestDecodersAgreeOnBenchRows checks what the decode cases time is the
// real thing: all three decoders give back the batch that was encoded.
func TestDecodersAgreeOnBenchRows(t *testing.T) {
	for _, bc := range testgen.BenchCases() {
		for _, impl := range []string{ImplBuilder, ImplUnsafe, ImplCompact} {
			if impl == ImplCompact && bc.Name == "decimals" {
				continue
			}
			t.Run(bc.Name+"/"+impl, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				want := testgen.BenchBatch(mem, bc.Name, 50, rowBenchSeed)
				defer want.Release()
				rows, err := encodeShape(mem, impl, bc.Name, 50)
				require.NoError(t, err)
				dec, err := newRowDecoder(impl, bc.Schema, mem)
				require.NoError(t, err)
				got, err := dec.Decode(rows.Slices())
				require.NoError(t, err)
				defer got.Release()
				for i := range int(got.NumCols()) {
					require.NoError(t, array.ValidateFull(got.Column(i)))
				}
				assert.True(t, array.RecordEqual(want, got), "decoded batch differs")
			})
		}
	}
}

// TestDecodeAllocsIndependentOfRows: the columnar decoders allocate per
// column, never per row or value, so 10 rows and 1000 rows cost the same
// number of allocations. (The builder baseline grows its buffers and is
// not held to this.)
func TestDecodeAllocsIndependentOfRows(t *testing.T) {
	if testgen.RaceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	for _, bc := range testgen.BenchCases() {
		for _, impl := range []string{ImplUnsafe, ImplCompact} {
			if impl == ImplCompact && bc.Name == "decimals" {
				continue
			}
			for _, recycled := range []bool{false, true} {
				name := rowCaseName(impl, OpDeserialize, bc.Name, recycled)
				t.Run(name, func(t *testing.T) {
					allocs := func(rows int) float64 {
						// One checked run for leaks; the counting runs use the
						// default allocator, whose counts the checked one's
						// bookkeeping would perturb.
						mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
						run, cleanup := deserializeRows(bc, impl, recycled, rows).Setup(mem)
						require.NoError(t, run())
						cleanup()
						mem.AssertSize(t, 0)
						run, cleanup = deserializeRows(bc, impl, recycled, rows).Setup(memory.DefaultAllocator)
						defer cleanup()
						require.NoError(t, run())
						return testing.AllocsPerRun(20, func() {
							if err := run(); err != nil {
								t.Fatal(err)
							}
						})
					}
					small, large := allocs(10), allocs(1000)
					assert.Equal(t, small, large, "allocs per Decode: %v for 10 rows, %v for 1000", small, large)
					t.Logf("%s: %v allocs per Decode", name, large)
				})
			}
		}
	}
}
