package columnar

import "github.com/apache/arrow-go/v18/arrow"

// RecordBytes is the size of rec's buffers, children included (as they
// are allocated: a slice counts its whole buffers; a dictionary's values
// are not counted).
func RecordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	var add func(d arrow.ArrayData)
	add = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
		for _, c := range d.Children() {
			add(c)
		}
	}
	for _, c := range rec.Columns() {
		add(c.Data())
	}
	return n
}
