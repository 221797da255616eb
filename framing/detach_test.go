package framing

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDetachKeepsRows: rows handed over by Detach keep their bytes while
// the Reader reads two more batches into the buffers given in exchange
// (the ones detached two batches before, or none), and the rows come out
// in order.
// The input buffer is small, so rows are taken in runs and some straddle
// its refills.
func TestDetachKeepsRows(t *testing.T) {
	var in []byte
	var want []string
	for i := range 500 {
		row := bytes.Repeat([]byte(fmt.Sprintf("%03d", i)), 1+i%7)
		in = binary.BigEndian.AppendUint32(in, uint32(len(row)))
		in = append(in, row...)
		want = append(want, string(row))
	}
	r, err := NewReader(bufio.NewReaderSize(bytes.NewReader(in), 64), Spark, None)
	require.NoError(t, err)
	type batch struct {
		data []byte
		rows [][]byte
	}
	var held []batch // detached, not yet looked at
	var got []string
	check := func(b batch) {
		for _, row := range b.rows {
			got = append(got, string(row))
		}
	}
	for {
		rows, err := r.Next(7)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		var give batch
		if len(held) == 2 {
			give, held = held[0], held[1:]
			check(give)
		}
		data, taken := r.Detach(give.data, give.rows)
		require.Equal(t, rows, taken)
		require.GreaterOrEqual(t, cap(r.data), cap(data), "the buffer given is at least the one taken")
		held = append(held, batch{data, taken})
	}
	for _, b := range held {
		check(b)
	}
	require.Equal(t, want, got)
}
