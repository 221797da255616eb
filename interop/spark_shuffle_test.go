package interop

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/internal/shuffletest"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/rowbridge/rowbridge/unsaferow"
	"github.com/stretchr/testify/require"
)

// TestJavaWrittenShuffle has java/SampleShuffle.java write map outputs
// as Spark does (segments compressed by the Java library of each codec as
// Spark configures it, index and ADLER32 checksum files written with
// DataOutputStream and java.util.zip.Adler32, files placed by Java's
// String.hashCode), and checks that sparkshuffle finds them, verifies the
// checksums and decodes exactly the rows written, in order.
func TestJavaWrittenShuffle(t *testing.T) {
	java, classpath := requireJava(t)
	for _, codec := range []framing.Codec{framing.LZ4, framing.Snappy, framing.Zstd, framing.LZF} {
		t.Run(codec.String(), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			dir := t.TempDir()
			// Map id -> rows per partition (0: an empty partition); map 30
			// writes nothing, so it has no data file.
			maps := map[int64][]int{7: {40, 0, 3000, 1}, 12: {0, 5, 700, 0}, 30: {0, 0, 0, 0}, 100: {2, 0, 1, 9}}
			var manifest strings.Builder
			var keys [4][]shuffletest.Key
			for _, id := range []int64{7, 12, 30, 100} {
				fmt.Fprintf(&manifest, "2\t%d", id)
				for p, n := range maps[id] {
					var records bytes.Buffer
					if n > 0 {
						rec := shuffletest.Rows(mem, p, id, 0, n)
						w, err := unsaferow.NewWriter(&records, shuffletest.Schema, unsaferow.WithAllocator(mem))
						require.NoError(t, err)
						require.NoError(t, w.Write(rec))
						require.NoError(t, w.Close())
						rec.Release()
						for i := range n {
							keys[p] = append(keys[p], shuffletest.Key{Part: p, Map: id, Seq: int64(i)})
						}
					}
					path := filepath.Join(dir, fmt.Sprintf("records-%d-%d", id, p))
					require.NoError(t, os.WriteFile(path, records.Bytes(), 0o644))
					fmt.Fprintf(&manifest, "\t%s", path)
				}
				manifest.WriteString("\n")
			}
			require.NoError(t, os.WriteFile(filepath.Join(dir, "manifest.tsv"), []byte(manifest.String()), 0o644))
			local := filepath.Join(dir, "local")
			blockMgr := filepath.Join(local, "blockmgr-0d6b1c8e-4a5f-4f7e-9b2a-3c1d5e7f9a0b")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, java, "-cp", classpath, "SampleShuffle", filepath.Join(dir, "manifest.tsv"), blockMgr, codec.String(), "32768").CombinedOutput()
			require.NoError(t, err, "java SampleShuffle: %s", out)

			set, err := sparkshuffle.Open(local)
			require.NoError(t, err)
			sh, err := set.Shuffle(2)
			require.NoError(t, err)
			require.Len(t, sh.Maps, 4)
			require.Empty(t, sh.Maps[2].DataPath, "map 30 wrote no data file")
			for _, m := range sh.Maps {
				for _, path := range []string{m.IndexPath, m.DataPath, m.ChecksumPath} {
					if path == "" {
						continue
					}
					_, sub := sparkshuffle.Placement(filepath.Base(path), 1, sparkshuffle.SubDirsPerLocalDir)
					require.Equal(t, filepath.Join(blockMgr, sparkshuffle.SubDirName(sub), filepath.Base(path)), path, "Java and Go place files alike")
				}
			}
			require.Equal(t, []sparkshuffle.Algorithm{sparkshuffle.Adler32}, sh.Algorithms())
			require.NoError(t, sh.VerifyChecksums(), "Java's Adler32 of each segment")
			got, err := sh.SniffCodec()
			require.NoError(t, err)
			require.Equal(t, codec, got)
			for _, workers := range []int{1, 2} {
				r, err := sh.NewReader(shuffletest.Schema, sparkshuffle.WithWorkers(workers), sparkshuffle.WithAllocator(mem), sparkshuffle.WithBatchRows(500))
				require.NoError(t, err)
				var want []shuffletest.Key
				for p := range keys {
					want = append(want, keys[p]...)
				}
				n := 0
				for r.Next() {
					rec := r.RecordBatch()
					for i := range int(rec.NumRows()) {
						require.Less(t, n, len(want))
						shuffletest.Check(t, rec, i, want[n])
						n++
					}
				}
				require.NoError(t, r.Err())
				r.Release()
				require.Equal(t, len(want), n)
			}
		})
	}
}
