package shuffleflight_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/rowbridge/rowbridge/sparkshuffle"
	"github.com/stretchr/testify/require"
)

// bigSchema is the schema of writeBigShuffle's rows.
var bigSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "vals", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
}, nil)

// writeBigShuffle writes shuffle id: maps map outputs of rows rows each,
// row i of map m in partition i % parts, its string strLen bytes long.
func writeBigShuffle(t *testing.T, mem memory.Allocator, id, maps, parts, rows, strLen int, codec framing.Codec) *fixture {
	t.Helper()
	fx := &fixture{dir: t.TempDir(), id: id, schema: bigSchema, parts: parts}
	for m := range maps {
		w, err := sparkshuffle.NewMapOutputWriter(fx.dir, id, int64(m), parts, bigSchema,
			sparkshuffle.WithWriteCodec(codec), sparkshuffle.WithWriteChecksum(sparkshuffle.CRC32))
		require.NoError(t, err)
		const chunk = 1000
		for from := 0; from < rows; from += chunk {
			n := min(chunk, rows-from)
			b := array.NewRecordBuilder(mem, bigSchema)
			ps := make([]int32, n)
			for i := range n {
				row := from + i
				ps[i] = int32(row % parts)
				b.Field(0).(*array.Int64Builder).Append(int64(m*rows + row))
				if row%11 == 0 {
					b.Field(1).AppendNull()
				} else {
					s := fmt.Sprintf("m%d-r%d-", m, row)
					b.Field(1).(*array.StringBuilder).Append(s + strings.Repeat("x", max(strLen-len(s), 0)))
				}
				lb := b.Field(2).(*array.ListBuilder)
				lb.Append(true)
				for j := range row % 5 {
					lb.ValueBuilder().(*array.Int32Builder).Append(int32(row + j))
				}
			}
			rec := b.NewRecordBatch()
			b.Release()
			require.NoError(t, w.Write(rec, ps))
			rec.Release()
		}
		require.NoError(t, w.Close())
	}
	fx.open(t)
	return fx
}

// corrupt flips a byte in the middle of map m's segment of partition p and
// returns the data file's path.
func (fx *fixture) corrupt(t *testing.T, m, p int) string {
	t.Helper()
	sh, err := fx.set.Shuffle(fx.id)
	require.NoError(t, err)
	mo := sh.Maps[m]
	b, err := os.ReadFile(mo.DataPath)
	require.NoError(t, err)
	start, end := mo.Offsets[p], mo.Offsets[p+1]
	require.Greater(t, end-start, int64(16))
	b[(start+end)/2] ^= 0x5a
	require.NoError(t, os.WriteFile(mo.DataPath, b, 0o644))
	return mo.DataPath
}
