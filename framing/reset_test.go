package framing

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestResetReadsNewStreamWithoutAllocating: after Reset a Reader reads
// the new stream from its start (rows, RowsRead, the end and errors as a
// new Reader would), even in mid-stream or after an error, and reading a
// stream again after Reset allocates nothing once its buffers have grown.
func TestResetReadsNewStreamWithoutAllocating(t *testing.T) {
	for _, c := range []Codec{None, LZ4, Zstd} {
		for _, f := range []Framing{Spark, Velox} {
			if f == Spark && c != None {
				continue
			}
			t.Run(fmt.Sprintf("%v/%v", f, c), func(t *testing.T) {
				a := makeRows(1, 300, true)
				b := makeRows(2, 500, true)
				sa, sb := encode(t, f, c, a), encode(t, f, c, b)
				drain := func(rd *Reader) ([][]byte, error) {
					var out [][]byte
					for {
						rows, err := rd.Next(64)
						for _, row := range rows {
							out = append(out, append([]byte{}, row...))
						}
						if err != nil {
							return out, err
						}
					}
				}
				rd, err := NewReader(bufio.NewReader(bytes.NewReader(sa)), f, c)
				require.NoError(t, err)
				_, err = rd.Next(7) // mid-stream
				require.NoError(t, err)
				rd.Reset(bufio.NewReader(bytes.NewReader(sb)))
				require.Equal(t, int64(0), rd.RowsRead())
				got, err := drain(rd)
				require.Equal(t, io.EOF, err)
				require.Equal(t, allRows(b), got)
				require.Equal(t, int64(b.Len()), rd.RowsRead())

				// After an error (a truncated stream), Reset clears it.
				rd.Reset(bufio.NewReader(bytes.NewReader(sa[:len(sa)-3])))
				_, err = drain(rd)
				var fe *Error
				require.ErrorAs(t, err, &fe)
				rd.Reset(bufio.NewReader(bytes.NewReader(sa)))
				got, err = drain(rd)
				require.Equal(t, io.EOF, err)
				require.Equal(t, allRows(a), got)

				src := bytes.NewReader(sb)
				br := bufio.NewReaderSize(src, 64<<10)
				allocs := testing.AllocsPerRun(20, func() {
					src.Reset(sb)
					br.Reset(src)
					rd.Reset(br)
					for {
						if _, err := rd.Next(4096); err != nil {
							break
						}
					}
				})
				if c == None {
					require.Zero(t, allocs, "allocations per Reset and read")
				} else {
					require.LessOrEqual(t, allocs, float64(4), "allocations per Reset and read")
				}
			})
		}
	}
}
