package rowstream

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"testing/iotest"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/rowbridge/rowbridge"
	"github.com/rowbridge/rowbridge/framing"
	"github.com/stretchr/testify/require"
)

// readValues reads r to the end: the batch sizes, the values, the error.
func readValues(t *testing.T, r *Reader) ([]int64, []int64, error) {
	t.Helper()
	var sizes, values []int64
	for r.Next() {
		rec := r.RecordBatch()
		require.NoError(t, array.ValidateFull(rec.Column(0)))
		sizes = append(sizes, rec.NumRows())
		values = append(values, rec.Column(0).(*array.Int64).Int64Values()...)
	}
	return sizes, values, r.Err()
}

func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines, want at most %d", runtime.NumGoroutine(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestParallelReaderKeepsOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 4, 8} {
		for _, tc := range []struct {
			f framing.Framing
			c framing.Codec
		}{{framing.Spark, framing.None}, {framing.Spark, framing.LZ4}, {framing.Velox, framing.Zstd}} {
			t.Run(fmt.Sprintf("%d/%v/%v", workers, tc.f, tc.c), func(t *testing.T) {
				base := runtime.NumGoroutine()
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				stream := writeStream(t, mem, tc.f, tc.c, 300, 1, 699)
				r, err := NewReader(iotest.HalfReader(bytes.NewReader(stream)), schema, fakeCodec{mem}, tc.f, tc.c, 7, WithWorkers(workers))
				require.NoError(t, err)
				sizes, values, err := readValues(t, r)
				require.NoError(t, err)
				require.False(t, r.Next())
				waitGoroutines(t, base) // the end stops the goroutines
				r.Release()
				require.Len(t, sizes, 143)
				require.Equal(t, int64(6), sizes[142])
				require.Len(t, values, 1000)
				for i, v := range values {
					require.Equal(t, int64(i), v)
				}
			})
		}
	}
}

func TestParallelReaderErrorsInOrder(t *testing.T) {
	for _, workers := range []int{2, 4} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			base := runtime.NumGoroutine()
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			// A 4-byte row at stream row 606, then more good rows.
			stream := writeStream(t, mem, framing.Spark, framing.None, 606)
			stream = append(stream, 0, 0, 0, 4, 1, 2, 3, 4)
			stream = append(stream, writeStream(t, mem, framing.Spark, framing.None, 200)...)
			r, err := NewReader(bytes.NewReader(stream), schema, fakeCodec{mem}, framing.Spark, framing.None, 7, WithWorkers(workers))
			require.NoError(t, err)
			_, values, err := readValues(t, r)
			require.Len(t, values, 602, "the batches before the one holding row 606")
			var de *rowbridge.DecodeError
			require.ErrorAs(t, err, &de)
			require.Equal(t, 6+600, de.Row)
			waitGoroutines(t, base)
			r.Release()

			// A truncated stream: the complete rows, then the framing error.
			stream = writeStream(t, mem, framing.Spark, framing.None, 500)
			r, err = NewReader(bytes.NewReader(stream[:len(stream)-3]), schema, fakeCodec{mem}, framing.Spark, framing.None, 7, WithWorkers(workers))
			require.NoError(t, err)
			_, values, err = readValues(t, r)
			require.Len(t, values, 499)
			require.ErrorIs(t, err, rowbridge.ErrTruncated)
			require.Contains(t, err.Error(), "after 499 rows read")
			waitGoroutines(t, base)
			r.Release()
		})
	}
}

func TestParallelReaderEarlyRelease(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	stream := writeStream(t, mem, framing.Spark, framing.None, 5000)
	// The memory of one batch, held by a sequential Reader.
	r, err := NewReader(bytes.NewReader(stream), schema, fakeCodec{mem}, framing.Spark, framing.None, 10)
	require.NoError(t, err)
	require.True(t, r.Next())
	one := mem.CurrentAlloc()
	r.Release()
	for _, workers := range []int{2, 4, 8} {
		base := runtime.NumGoroutine()
		r, err = NewReader(bytes.NewReader(stream), schema, fakeCodec{mem}, framing.Spark, framing.None, 10, WithWorkers(workers))
		require.NoError(t, err)
		time.Sleep(5 * time.Millisecond)
		r.Release() // before any Next
		waitGoroutines(t, base)
		mem.AssertSize(t, 0)

		r, err = NewReader(bytes.NewReader(stream), schema, fakeCodec{mem}, framing.Spark, framing.None, 10, WithWorkers(workers))
		require.NoError(t, err)
		r.Retain()
		require.True(t, r.Next())
		kept := r.RecordBatch()
		kept.Retain()
		time.Sleep(5 * time.Millisecond) // batches are decoded ahead
		peak := mem.CurrentAlloc()
		require.LessOrEqual(t, peak, (3*workers+3)*one, "a few batches per worker, not the stream")
		require.Greater(t, peak, one, "batches were decoded ahead")
		r.Release()
		require.Greater(t, runtime.NumGoroutine(), base, "the goroutines run while a reference is held")
		r.Release()
		waitGoroutines(t, base)
		require.Equal(t, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, kept.Column(0).(*array.Int64).Int64Values())
		kept.Release()
		mem.AssertSize(t, 0)
	}
}
