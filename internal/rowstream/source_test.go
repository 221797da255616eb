package rowstream

import (
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

// listSource yields its batches, then end (io.EOF or an error), and counts
// the calls to Close; it releases what it still holds when closed.
type listSource struct {
	recs   []arrow.RecordBatch
	end    error
	closed int
}

func (s *listSource) Next() (arrow.RecordBatch, error) {
	if len(s.recs) == 0 {
		return nil, s.end
	}
	rec := s.recs[0]
	s.recs = s.recs[1:]
	return rec, nil
}

func (s *listSource) Close() {
	s.closed++
	for _, rec := range s.recs {
		rec.Release()
	}
	s.recs = nil
}

// TestSourceReader: the shell returns a Source's batches in order, stops
// at its end with Err nil for io.EOF and the error otherwise, closes the
// source at the end and again at the last Release (Close must bear it),
// and a Release before the end frees the current batch and what the source
// held ahead.
func TestSourceReader(t *testing.T) {
	bad := errors.New("bad segment")
	for _, tc := range []struct {
		name    string
		end     error
		read    int // batches read before Release
		want    error
		closing int // Close calls seen at the end
	}{
		{"to the end", io.EOF, 3, nil, 2},
		{"error", bad, 3, bad, 2},
		{"released early", io.EOF, 1, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			src := &listSource{end: tc.end}
			for i := range 3 {
				src.recs = append(src.recs, batch(mem, 10*i, i+1))
			}
			r := NewSourceReader(schema, src)
			require.Same(t, schema, r.Schema())
			for i := range tc.read {
				require.True(t, r.Next(), "batch %d", i)
				require.EqualValues(t, i+1, r.RecordBatch().NumRows())
				require.Same(t, r.RecordBatch(), r.Record())
			}
			if tc.read == 3 {
				require.False(t, r.Next())
				require.Nil(t, r.RecordBatch())
				require.Equal(t, 1, src.closed)
				require.False(t, r.Next())
			}
			require.Equal(t, tc.want, r.Err())
			r.Retain()
			r.Release()
			require.Equal(t, tc.closing-1, src.closed, "closed before the last Release")
			r.Release()
			require.Equal(t, tc.closing, src.closed)
			require.False(t, r.Next())
		})
	}
}
