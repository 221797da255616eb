package main

import (
	"encoding/base64"
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/rowbridge/rowbridge/internal/columnar"
	"github.com/rowbridge/rowbridge/internal/jsonstr"
	"github.com/rowbridge/rowbridge/trycast"
)

// JSON conventions, chosen so arrow's own JSON reader reads the output
// back: maps are arrays of {"key","value"} objects, binary is base64,
// dates and timestamps are ISO strings, decimals are exact number text.
// JSON has no NaN or infinities; they are written as strings.

// appendRowJSON appends row i of rec as a JSON object.
func appendRowJSON(dst []byte, rec arrow.RecordBatch, i int) []byte {
	dst = append(dst, '{')
	for c, f := range rec.Schema().Fields() {
		if c > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, f.Name)
		dst = append(dst, ':')
		dst = appendValueJSON(dst, rec.Column(c), i)
	}
	return append(dst, '}')
}

// appendValueJSON appends value i of arr as JSON.
func appendValueJSON(dst []byte, arr arrow.Array, i int) []byte {
	if arr.IsNull(i) {
		return append(dst, "null"...)
	}
	switch a := arr.(type) {
	case *array.Null:
		return append(dst, "null"...)
	case *array.Boolean:
		return strconv.AppendBool(dst, a.Value(i))
	case *array.Int8:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Int16:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Int32:
		return strconv.AppendInt(dst, int64(a.Value(i)), 10)
	case *array.Int64:
		return strconv.AppendInt(dst, a.Value(i), 10)
	case *array.Uint8:
		return strconv.AppendUint(dst, uint64(a.Value(i)), 10)
	case *array.Uint16:
		return strconv.AppendUint(dst, uint64(a.Value(i)), 10)
	case *array.Uint32:
		return strconv.AppendUint(dst, uint64(a.Value(i)), 10)
	case *array.Uint64:
		return strconv.AppendUint(dst, a.Value(i), 10)
	case *array.Float32:
		return appendFloat(dst, float64(a.Value(i)), 32)
	case *array.Float64:
		return appendFloat(dst, a.Value(i), 64)
	case *array.Decimal128:
		// Plain notation, exact: what arrow-go's Num.ToString writes, which
		// is not used because on 32-bit machines it drops the high half of
		// each word it reads the value through.
		return trycast.AppendDecimal(dst, a.Value(i), a.DataType().(*arrow.Decimal128Type).Scale, trycast.Presto)
	case *array.Decimal64:
		return append(dst, a.Value(i).ToString(a.DataType().(*arrow.Decimal64Type).Scale)...)
	case *array.String:
		return appendJSONString(dst, a.Value(i))
	case *array.LargeString:
		return appendJSONString(dst, a.Value(i))
	case *array.StringView:
		return appendJSONString(dst, a.Value(i))
	case *array.Binary:
		return appendBase64(dst, a.Value(i))
	case *array.LargeBinary:
		return appendBase64(dst, a.Value(i))
	case *array.BinaryView:
		return appendBase64(dst, a.Value(i))
	case *array.Date32:
		return appendJSONString(dst, a.Value(i).ToTime().Format(time.DateOnly))
	case *array.Timestamp:
		return appendJSONString(dst, formatTimestamp(a, i))
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		dst = append(dst, '{')
		for f := range a.NumField() {
			if f > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, st.Field(f).Name)
			dst = append(dst, ':')
			dst = appendValueJSON(dst, a.Field(f), i)
		}
		return append(dst, '}')
	case *array.Map:
		start, end := a.ValueOffsets(i)
		keys, items := a.Keys(), a.Items()
		dst = append(dst, '[')
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"key":`...)
			dst = appendValueJSON(dst, keys, int(j))
			dst = append(dst, `,"value":`...)
			dst = appendValueJSON(dst, items, int(j))
			dst = append(dst, '}')
		}
		return append(dst, ']')
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		values := a.ListValues()
		dst = append(dst, '[')
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ',')
			}
			dst = appendValueJSON(dst, values, int(j))
		}
		return append(dst, ']')
	}
	// decimal256: exact, where ValueStr is not on 32-bit machines.
	if out, ok := columnar.AppendDecimalText(dst, arr, i); ok {
		return out
	}
	return appendJSONString(dst, arr.ValueStr(i))
}

// formatTimestamp renders a timestamp in ISO 8601, in UTC with a Z when
// the type has a time zone, without one for zone-less (local) timestamps.
func formatTimestamp(a *array.Timestamp, i int) string {
	tt := a.DataType().(*arrow.TimestampType)
	t := a.Value(i).ToTime(tt.Unit).UTC()
	layout := "2006-01-02T15:04:05.999999999"
	if tt.TimeZone != "" {
		layout += "Z"
	}
	return t.Format(layout)
}

func appendFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	return strconv.AppendFloat(dst, f, 'g', -1, bits)
}

func appendBase64(dst, b []byte) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD
// (jsonstr.ValidUTF8).
func appendJSONString(dst []byte, s string) []byte { return jsonstr.Append(dst, s, jsonstr.ValidUTF8) }
