package cdata

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Summary is what the C consumer reports about one array (rb_summary in
// consumer.h). Summarize computes the same thing with arrow-go's typed
// accessors, so equal summaries mean C read what Go holds.
type Summary struct {
	Length    int64
	NullCount int64
	Hash      uint64
	IntSum    int64
	StrBytes  int64
	Nulls     int64
	Values    int64
}

const (
	fnvOffset = 1469598103934665603
	fnvPrime  = 1099511628211
)

type summer struct {
	s Summary
	h uint64
}

func (w *summer) byte(b byte) { w.h = (w.h ^ uint64(b)) * fnvPrime }

func (w *summer) u64(v uint64) {
	for i := 0; i < 8; i++ {
		w.byte(byte(v >> (8 * i)))
	}
}

func (w *summer) bytes(b []byte) {
	w.u64(uint64(len(b)))
	for _, c := range b {
		w.byte(c)
	}
	w.s.StrBytes += int64(len(b))
}

func (w *summer) integer(v int64) {
	w.s.IntSum += v // wraps, like the C side
	w.u64(uint64(v))
}

// Summarize computes the Summary of arr the way the C consumer does.
func Summarize(arr arrow.Array) (Summary, error) {
	w := summer{h: fnvOffset}
	w.s.Length = int64(arr.Len())
	for i := 0; i < arr.Len(); i++ {
		if isNull(arr, i) {
			w.s.NullCount++
		}
		if err := w.slot(arr, i); err != nil {
			return Summary{}, err
		}
	}
	w.s.Hash = w.h
	return w.s, nil
}

// SummarizeRecordBatch summarises rb as the struct array that
// cdata.ExportArrowRecordBatch hands to C.
func SummarizeRecordBatch(rb arrow.RecordBatch) (Summary, error) {
	st := array.RecordToStructArray(rb)
	defer st.Release()
	return Summarize(st)
}

// isNull is arr.IsNull, except that arrow-go's Null array has no bitmap and
// answers false while every slot of it is null.
func isNull(arr arrow.Array, i int) bool {
	return arr.DataType().ID() == arrow.NULL || arr.IsNull(i)
}

func (w *summer) span(child arrow.Array, start, end int64) error {
	w.u64(uint64(end - start))
	for j := start; j < end; j++ {
		if err := w.slot(child, int(j)); err != nil {
			return err
		}
	}
	return nil
}

func (w *summer) slot(arr arrow.Array, i int) error {
	if isNull(arr, i) {
		w.s.Nulls++
		w.byte(0)
		return nil
	}
	w.s.Values++
	w.byte(1)
	switch a := arr.(type) {
	case *array.Boolean:
		if a.Value(i) {
			w.byte(1)
		} else {
			w.byte(0)
		}
	case *array.Int8:
		w.integer(int64(a.Value(i)))
	case *array.Int16:
		w.integer(int64(a.Value(i)))
	case *array.Int32:
		w.integer(int64(a.Value(i)))
	case *array.Int64:
		w.integer(a.Value(i))
	case *array.Date32:
		w.integer(int64(a.Value(i)))
	case *array.Timestamp:
		w.integer(int64(a.Value(i)))
	case *array.Float32:
		w.u64(uint64(math.Float32bits(a.Value(i))))
	case *array.Float64:
		w.u64(math.Float64bits(a.Value(i)))
	case *array.Decimal128:
		v := a.Value(i)
		var b [16]byte
		binary.LittleEndian.PutUint64(b[:8], v.LowBits())
		binary.LittleEndian.PutUint64(b[8:], uint64(v.HighBits()))
		for _, c := range b {
			w.byte(c)
		}
	case *array.String:
		w.bytes([]byte(a.Value(i)))
	case *array.LargeString:
		w.bytes([]byte(a.Value(i)))
	case *array.Binary:
		w.bytes(a.Value(i))
	case *array.LargeBinary:
		w.bytes(a.Value(i))
	case *array.Map: // before List: a Map embeds *List
		start, end := a.ValueOffsets(i)
		return w.span(a.ListValues(), start, end)
	case *array.List:
		start, end := a.ValueOffsets(i)
		return w.span(a.ListValues(), start, end)
	case *array.LargeList:
		start, end := a.ValueOffsets(i)
		return w.span(a.ListValues(), start, end)
	case *array.Struct:
		for k := 0; k < a.NumField(); k++ {
			if err := w.slot(a.Field(k), i); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("summarize: unsupported type %s", arr.DataType())
	}
	return nil
}
