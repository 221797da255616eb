package main

import (
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// maxCellWidth cuts long cells so the table stays readable.
const maxCellWidth = 40

// table collects record batches as text cells for printing.
type table struct {
	header []string
	right  []bool // right-align (numbers)
	cells  [][]string
}

func newTable(schema *arrow.Schema) *table {
	t := &table{}
	for _, f := range schema.Fields() {
		t.header = append(t.header, f.Name)
		t.right = append(t.right, isNumeric(f.Type))
	}
	return t
}

func isNumeric(dt arrow.DataType) bool {
	return arrow.IsInteger(dt.ID()) || arrow.IsFloating(dt.ID()) || arrow.IsDecimal(dt.ID())
}

func (t *table) rows() int { return len(t.cells) }

func (t *table) addBatch(rec arrow.RecordBatch) {
	for i := range int(rec.NumRows()) {
		row := make([]string, rec.NumCols())
		for c := range row {
			row[c] = cellText(rec.Column(c), i)
		}
		t.cells = append(t.cells, row)
	}
}

// cellText shows a value for people, the way Spark's show() does: NULL
// for null, strings bare, [a, b] for arrays, {k -> v} for maps and
// {a, b} for structs.
func cellText(arr arrow.Array, i int) string {
	if arr.IsNull(i) {
		return "NULL"
	}
	s := string(appendDisplay(nil, arr, i))
	s = strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
	if utf8.RuneCountInString(s) > maxCellWidth {
		r := []rune(s)
		s = string(r[:maxCellWidth-1]) + "…"
	}
	return s
}

func appendDisplay(dst []byte, arr arrow.Array, i int) []byte {
	if arr.IsNull(i) {
		return append(dst, "null"...)
	}
	switch a := arr.(type) {
	case *array.String:
		return append(dst, a.Value(i)...)
	case *array.LargeString:
		return append(dst, a.Value(i)...)
	case *array.StringView:
		return append(dst, a.Value(i)...)
	case *array.Timestamp:
		return append(dst, formatTimestamp(a, i)...)
	case *array.Struct:
		dst = append(dst, '{')
		for f := range a.NumField() {
			if f > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendDisplay(dst, a.Field(f), i)
		}
		return append(dst, '}')
	case *array.Map:
		start, end := a.ValueOffsets(i)
		dst = append(dst, '{')
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ", "...)
			}
			dst = appendDisplay(dst, a.Keys(), int(j))
			dst = append(dst, " -> "...)
			dst = appendDisplay(dst, a.Items(), int(j))
		}
		return append(dst, '}')
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		dst = append(dst, '[')
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ", "...)
			}
			dst = appendDisplay(dst, a.ListValues(), int(j))
		}
		return append(dst, ']')
	}
	v := appendValueJSON(nil, arr, i)
	if len(v) >= 2 && v[0] == '"' {
		v = v[1 : len(v)-1] // dates, binary and the like need no quotes here
	}
	return append(dst, v...)
}

func (t *table) render(b *strings.Builder) {
	widths := make([]int, len(t.header))
	for c, h := range t.header {
		widths[c] = utf8.RuneCountInString(h)
	}
	for _, row := range t.cells {
		for c, s := range row {
			widths[c] = max(widths[c], utf8.RuneCountInString(s))
		}
	}
	rule := func() {
		for _, w := range widths {
			b.WriteString("+")
			b.WriteString(strings.Repeat("-", w+2))
		}
		b.WriteString("+\n")
	}
	line := func(cells []string, header bool) {
		for c, s := range cells {
			pad := strings.Repeat(" ", widths[c]-utf8.RuneCountInString(s))
			b.WriteString("| ")
			if t.right[c] && !header {
				b.WriteString(pad + s)
			} else {
				b.WriteString(s + pad)
			}
			b.WriteString(" ")
		}
		b.WriteString("|\n")
	}
	rule()
	line(t.header, true)
	rule()
	for _, row := range t.cells {
		line(row, false)
	}
	rule()
}
