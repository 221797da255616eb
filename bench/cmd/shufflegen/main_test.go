package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/ddl"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// TestGenerateReadsBack writes both shapes small and reads them with
// sparkshuffle: the facts match the files, the checksums verify, every
// segment is lz4, and the rows come back in Spark's order with the
// values the shape promises.
func TestGenerateReadsBack(t *testing.T) {
	const maps, parts, rows = 3, 2, 700
	for _, shape := range []string{"fixed", "strings"} {
		t.Run(shape, func(t *testing.T) {
			dir := t.TempDir()
			facts, err := generate(options{shape: shape, maps: maps, partitions: parts, rows: rows, seed: 7, dir: dir})
			require.NoError(t, err)
			require.Equal(t, maps*parts*rows, facts.Rows)
			require.Equal(t, maps*parts, facts.Segments)

			set, err := sparkshuffle.Open(dir)
			require.NoError(t, err)
			sh, err := set.Shuffle(0)
			require.NoError(t, err)
			require.Len(t, sh.Maps, maps)
			require.Equal(t, parts, sh.Partitions)
			var size int64
			for _, m := range sh.Maps {
				require.Equal(t, sparkshuffle.Adler32, m.Algorithm)
				size += m.Size()
			}
			require.Equal(t, facts.Compressed, size)
			require.NoError(t, sh.VerifyChecksums())
			codec, err := sh.SniffCodec()
			require.NoError(t, err)
			require.Equal(t, framing.LZ4, codec)
			// Compressible, but not trivially.
			require.Less(t, facts.Compressed, facts.Uncompressed*9/10)
			require.Greater(t, facts.Compressed, facts.Uncompressed/4)

			schema, err := ddl.Parse(facts.Schema)
			require.NoError(t, err)
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			r, err := set.NewReader(0, schema, sparkshuffle.WithAllocator(mem), sparkshuffle.WithWorkers(2), sparkshuffle.WithBatchRows(300))
			require.NoError(t, err)
			defer r.Release()
			idCol := schema.FieldIndices("id")[0]
			// Partition by partition, map by map: segment (m, p) holds ids
			// from (m*parts+p)*rows on.
			var want []int64
			for p := range parts {
				for m := range maps {
					for i := range rows {
						want = append(want, int64((m*parts+p)*rows+i))
					}
				}
			}
			var got []int64
			distinct := map[string]bool{}
			for r.Next() {
				rec := r.RecordBatch()
				require.NoError(t, array.ValidateFull(rec.Column(0)))
				got = append(got, rec.Column(idCol).(*array.Int64).Int64Values()...)
				if shape == "strings" {
					s := rec.Column(0).(*array.String)
					for i := range s.Len() {
						require.Len(t, s.Value(i), StringLen)
						distinct[s.Value(i)] = true
					}
				}
			}
			require.NoError(t, r.Err())
			require.Equal(t, want, got)
			if shape == "strings" {
				require.Equal(t, facts.Rows, len(distinct))
			}
		})
	}
}

// TestGenerateIsDeterministic: the same seed writes the same bytes to the
// same paths, another seed other data.
func TestGenerateIsDeterministic(t *testing.T) {
	files := func(seed uint64) map[string][]byte {
		dir := t.TempDir()
		_, err := generate(options{shape: "fixed", maps: 2, partitions: 2, rows: 100, seed: seed, dir: dir})
		require.NoError(t, err)
		out := map[string][]byte{}
		require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, err := os.ReadFile(p)
				require.NoError(t, err)
				rel, _ := filepath.Rel(dir, p)
				out[rel] = b
			}
			return err
		}))
		return out
	}
	a, b, c := files(1), files(1), files(2)
	require.Len(t, a, 2*3) // index, data, checksum per map
	require.Equal(t, a, b)
	byName := map[string][]byte{} // the blockmgr folder's uuid comes from the seed too
	for name, data := range c {
		byName[filepath.Base(name)] = data
	}
	for name, data := range a {
		if filepath.Ext(name) == ".data" {
			other := byName[filepath.Base(name)]
			require.NotEmpty(t, other, name)
			require.False(t, bytes.Equal(data, other), name)
		}
	}
}

func TestGenerateRefusesBadOptions(t *testing.T) {
	_, err := generate(options{shape: "wide", maps: 1, partitions: 1, rows: 1, dir: t.TempDir()})
	require.ErrorContains(t, err, `--shape "wide"`)
	_, err = generate(options{shape: "fixed", maps: 1, partitions: 0, rows: 1, dir: t.TempDir()})
	require.ErrorContains(t, err, "--partitions 0")
}
